// The support rooms on the services tier: a message written through REST on one API process
// reaches a socket joined on another through Redis, and concurrent writes to one room get
// distinct, gapless seqs on PostgreSQL (PGlite would serialise them and hide a race).
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { type Socket as ClientSocket, io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestRoom } from '../../../src/modules/support/realtime/support-events';
import { supportEvents } from '../../../src/modules/support/realtime/support-events.table';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { servicesTier } from '../../helpers/services';

describe.runIf(servicesTier)('support realtime across two API processes', () => {
  let a: TestApp;
  let b: TestApp;
  let baseUrlB: string;
  const clients: ClientSocket[] = [];
  beforeAll(async () => {
    a = await createTestApp();
    // One deployment: the same database and the same Redis key space, two processes.
    b = await createTestApp({
      database: a.platform.database,
      env: { REDIS_PREFIX: a.platform.config.REDIS_PREFIX },
    });
    await b.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrlB = `http://127.0.0.1:${(b.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await b?.close();
    await a?.close(); // b borrows a's database: a closes last
  });

  async function openTicket(on: TestApp, customer: SignedIn): Promise<number> {
    const res = await on.app.inject({
      method: 'POST',
      url: '/api/mobile/support-requests',
      headers: customer.headers,
      payload: { category: 'payment', subject: 'Charged twice', message: 'Please check' },
    });
    expect(res.statusCode).toBe(201);
    return res.json().data.id;
  }

  it('a reply written on process A reaches the owner joined on process B', async () => {
    expect(b.platform.realtime.adapter).toBe('redis');
    const customer = await signedInCustomer(a);
    const admin = await signedInAdmin(a, { permissions: ['SupportRequests_READ', 'SupportRequests_UPDATE'] });
    const id = await openTicket(a, customer);
    const client = io(`${baseUrlB}/realtime`, {
      auth: { token: customer.tokens.accessToken },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    clients.push(client);
    expect(
      await client.timeout(5000).emitWithAck('support:join_request_messages', { supportRequestId: id }),
    ).toMatchObject({ ok: true, room: requestRoom(id), latestSeq: 1 });
    const received = new Promise<{ seq: number; data: Record<string, unknown> }>((resolve) =>
      client.once('support.request_message.created', resolve),
    );
    const reply = await a.app.inject({
      method: 'POST',
      url: `/api/admin/support-requests/${id}/messages`,
      headers: admin.headers,
      payload: { body: 'Refund is on its way' },
    });
    expect(reply.statusCode).toBe(201);
    const event = await received;
    expect(event).toMatchObject({ seq: 2, data: { supportRequestId: id, body: 'Refund is on its way' } });
    expect(event.data).not.toHaveProperty('authorAdminId');
  });

  it('concurrent replies to one ticket on both processes get distinct, consecutive seqs', async () => {
    const customer = await signedInCustomer(a);
    const id = await openTicket(a, customer);
    const replies = Array.from({ length: 12 }, (_, i) =>
      (i % 2 ? a : b).app.inject({
        method: 'POST',
        url: `/api/mobile/support-requests/${id}/messages`,
        headers: customer.headers,
        payload: { body: `message ${i}` },
      }),
    );
    expect((await Promise.all(replies)).map((r) => r.statusCode)).toEqual(Array(12).fill(201));
    const rows = await a.platform.database.db
      .select({ seq: supportEvents.seq })
      .from(supportEvents)
      .where(eq(supportEvents.room, requestRoom(id)));
    expect(rows.map((r) => r.seq).sort((x, y) => x - y)).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
  });
});
