// Ticket numbers stay unique when requests are created at once (really at once on PostgreSQL;
// PGlite serialises them), also when every concurrent create first draws the same number; and a
// customer's cancel racing an admin's move ends with exactly one of them applied.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNotifier } from '../../../src/modules/notifications';
import {
  createRepairRequest,
  newTicketNumber,
  type RepairDeps,
} from '../../../src/modules/repairs/repairs.service';
import { repairRequests } from '../../../src/modules/repairs/repairs.table';
import type { UserPrincipal } from '../../../src/platform/auth/principal';
import type { SignedIn } from '../../helpers/factories';
import { ADMIN_REPAIRS, REPAIRS, type RepairsTestApp, repairsTestApp } from './calls';

describe('repair requests under concurrency', () => {
  let c: RepairsTestApp;
  let me: SignedIn;
  beforeAll(async () => {
    c = await repairsTestApp({ env: { DATABASE_POOL_SIZE: '25' } });
    me = await c.customer();
  });
  afterAll(() => c?.t.close());

  const body = {
    devices: [{ customBrandName: 'Asus', laptopModel: 'Zenbook', problemDescription: 'Battery' }],
    collectionMethod: 'pickup' as const,
    sourceType: 'direct_booking' as const,
    sharedDescription: '',
  };
  const principal = (): UserPrincipal => ({
    actor: 'customer',
    userId: me.userId,
    sessionId: me.tokens.sessionId,
    role: 'customer',
    permissions: new Set(),
  });
  const deps = (draw: () => string): RepairDeps => {
    const p = c.t.platform;
    return {
      db: p.database.db,
      clock: p.clock,
      config: p.config,
      notifier: createNotifier({
        db: p.database.db,
        push: p.outgoing.push,
        clock: p.clock,
        realtime: p.realtime,
      }),
      newTicketNumber: draw,
    };
  };

  it('12 creates at once: 12 requests, 12 different ticket numbers', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, () => c.create(me, body)));
    for (const res of answers) expect(res.statusCode, res.body).toBe(201);
    const tickets = answers.map((r) => r.json().data.ticketNumber as string);
    expect(new Set(tickets).size).toBe(12);
  });

  it('every concurrent create drawing the same number first: one keeps it, the others draw again', async () => {
    const shared = 'TR-SAME0000';
    const drawn = new Map<number, number>();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        createRepairRequest(
          deps(() => {
            const n = drawn.get(i) ?? 0;
            drawn.set(i, n + 1);
            return n === 0 ? shared : newTicketNumber();
          }),
          principal(),
          body,
        ),
      ),
    );
    const tickets = answers.map((a) => a.ticketNumber);
    expect(new Set(tickets).size).toBe(8);
    expect(tickets.filter((t) => t === shared)).toHaveLength(1);
    // Seven of them drew a second time.
    expect([...drawn.values()].filter((n) => n === 2)).toHaveLength(7);
  });

  it('no free number after five draws: 500 REPAIR_REQUEST_CREATE_FAILED, nothing stored', async () => {
    const taken = (await c.created(me)).ticketNumber;
    const before = (await c.db.select().from(repairRequests)).length;
    let draws = 0;
    await expect(
      createRepairRequest(
        deps(() => {
          draws += 1;
          return taken;
        }),
        principal(),
        body,
      ),
    ).rejects.toMatchObject({ statusCode: 500, errorCode: 'REPAIR_REQUEST_CREATE_FAILED' });
    expect(draws).toBe(5);
    expect((await c.db.select().from(repairRequests)).length).toBe(before);
  });

  it('a cancel and an admin move at once: exactly one applies, the other is refused', async () => {
    for (let round = 0; round < 5; round++) {
      const r = await c.requestAt(me, 'request_received');
      const [cancel, move] = await Promise.all([
        c.http.call('PATCH', `${REPAIRS}/${r.publicId}/cancel`, me.headers),
        c.setStatus(r.id, { status: 'picked_up' }),
      ]);
      const detail = (await c.http.call('GET', `${ADMIN_REPAIRS}/${r.id}`, c.admin.headers)).json().data;
      expect(detail.statusHistory).toHaveLength(1);
      if (cancel.statusCode === 200) {
        expect(move.statusCode, move.body).toBe(400);
        expect(move.json().errorCode).toBe('REPAIR_REQUEST_INVALID_STATUS_TRANSITION');
        expect(detail.status).toBe('cancelled');
      } else {
        expect(move.statusCode, move.body).toBe(200);
        expect(cancel.statusCode, cancel.body).toBe(422);
        expect(cancel.json().errorCode).toBe('REPAIR_REQUEST_CANNOT_CANCEL');
        expect(detail.status).toBe('picked_up');
      }
    }
  });
});
