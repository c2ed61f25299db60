// One log line a request (issue 14: Fastify's two lines a request were a measurable share of
// every answer): `request completed` with the request id, method, URL, status and time, and
// nothing at `incoming`; a failed send keeps its `request errored` line.
import { Writable } from 'node:stream';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { OneLinePerRequest } from '../../src/platform/http/request-log';

function capture(level: pino.Level) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, log: pino({ level }, stream) };
}

describe('request log', () => {
  it('writes one line a request at info (a 404 too), with the request id, method, URL, status and time', async () => {
    const { lines, log } = capture('info');
    const app = Fastify({ loggerInstance: log, logController: new OneLinePerRequest() });
    app.get('/things/:id', async () => ({ ok: true }));
    await app.ready();
    await app.inject({ method: 'GET', url: '/things/7?x=1' });
    const missing = await app.inject({ method: 'GET', url: '/nothing' });
    await app.close();
    const requests = lines.filter((l) => l.reqId !== undefined);
    expect(requests.map((l) => l.msg)).toEqual(['request completed', 'request completed']);
    expect(requests[0]).toMatchObject({
      level: 30,
      reqId: expect.any(String),
      method: 'GET',
      url: '/things/7?x=1',
      statusCode: 200,
      responseTime: expect.any(Number),
    });
    expect(missing.statusCode).toBe(404);
    expect(requests[1]).toMatchObject({ url: '/nothing', statusCode: 404 });
  });

  it('a send that failed is one `request errored` line at error, with the error', () => {
    const { lines, log } = capture('info');
    // Fastify hands the controller the error of a response stream that failed mid-send.
    const request = { method: 'GET', url: '/things/7' } as FastifyRequest;
    const reply = { statusCode: 200, elapsedTime: 12.34, log } as unknown as FastifyReply;
    new OneLinePerRequest().requestCompleted(new Error('socket hang up'), request, reply);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 50,
      msg: 'request errored',
      method: 'GET',
      url: '/things/7',
      statusCode: 200,
      responseTime: 12.3,
      err: { message: 'socket hang up' },
    });
  });
});
