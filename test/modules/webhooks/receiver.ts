// A webhook receiver on 127.0.0.1 for the tests: records every request and verifies it with
// the `standardwebhooks` library, as a shop's other system would.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { expect } from 'vitest';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  json: { type: string; timestamp: string; data: Record<string, unknown> };
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** The status to answer (default 200); 'hang' never answers; `afterMs` answers late. */
  answer: (r: Received) => number | 'hang' | { status: number; afterMs: number };
  /** Messages of one type. */
  ofType(type: string): Received[];
  /** Waits until `n` messages (of `type`, when given) have arrived. */
  waitFor(n: number, type?: string, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const hanging: http.ServerResponse[] = [];
  const receiver: Receiver = {
    url: '',
    received,
    answer: () => 200,
    ofType: (type) => received.filter((r) => r.json.type === type),
    async waitFor(n, type, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const list = type ? receiver.ofType(type) : received;
        if (list.length >= n) return list;
        if (Date.now() > deadline)
          throw new Error(`only ${list.length} of ${n} ${type ?? ''} messages arrived`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () =>
      new Promise((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const r: Received = { headers: req.headers, body, json: JSON.parse(body), at: Date.now() };
      received.push(r);
      const status = receiver.answer(r);
      if (status === 'hang') {
        hanging.push(res);
        return;
      }
      if (typeof status === 'object') {
        const timer = setTimeout(() => res.writeHead(status.status).end('ok'), status.afterMs);
        res.on('close', () => clearTimeout(timer));
        hanging.push(res);
        return;
      }
      res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}

/** Verifies a received message with the Standard Webhooks library and `secret`; answers the parsed body. */
export function verified(r: Received, secret: string) {
  const payload = new Webhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  });
  expect(r.headers['content-type']).toBe('application/json');
  expect(String(r.headers['webhook-id'])).toMatch(/^msg_[0-9a-f]{32}$/);
  return payload as Received['json'];
}

/** Whether the message verifies with `secret`. */
export function verifiesWith(r: Received, secret: string): boolean {
  try {
    verified(r, secret);
    return true;
  } catch {
    return false;
  }
}
