import type { AddressInfo } from 'node:net';
import { io } from 'socket.io-client';
import { it } from 'vitest';
import { createTestApp } from '/work/main/test/helpers/app';
import { signedInCustomer } from '/work/main/test/helpers/factories';

it('probe', async () => {
  let s = Date.now();
  const t = await createTestApp();
  console.log('create', Date.now() - s);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const c = await signedInCustomer(t);
  const client = io(`${url}/realtime`, { auth: { token: c.tokens.accessToken }, transports: ['websocket'], reconnection: false, forceNew: true });
  await new Promise((r) => client.once('connect', r));
  const root = io(`${url}/`, { transports: ['websocket'], reconnection: false, forceNew: true });
  root.on('connect_error', (e) => console.log('root err', e.message));
  await new Promise((r) => { root.once('connect', () => { console.log('root connected!'); r(null); }); root.once('connect_error', r); });
  s = Date.now();
  client.on('disconnect', (r) => console.log('client disc', r, Date.now() - s));
  root.on('disconnect', (r) => console.log('root disc', r, Date.now() - s));
  await t.app.close();
  console.log('app.close', Date.now() - s);
  await t.close();
  console.log('t.close', Date.now() - s);
}, 120000);
