// One delivery attempt over HTTP: a POST to the address that was checked (the connection's
// lookup answers with it, so a second DNS answer is never used), no redirects, at most
// `RESPONSE_BODY_LIMIT` bytes of the answer read, and one timeout for the whole attempt.
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './webhooks.addresses';

/** Receivers answer with a status; the body is only read so the connection can be reused. */
export const RESPONSE_BODY_LIMIT = 4096;

export interface AttemptResult {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

export type SendWebhook = (p: {
  url: URL;
  address: ResolvedAddress;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}) => Promise<AttemptResult>;

export const sendWebhook: SendWebhook = ({ url, address, headers, body, timeoutMs }) => {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  // Pinned: whatever the name, the socket connects to the checked address (`all` when Node asks for every family).
  const pinned = ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: address.address, family: address.family }]);
    else callback(null, address.address, address.family);
  }) as unknown as LookupFunction;
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<AttemptResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    const request = transport.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: pinned,
        agent: false,
      },
      (response: IncomingMessage) => {
        const statusCode = response.statusCode ?? 0;
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > RESPONSE_BODY_LIMIT) {
            response.destroy();
            finish({ statusCode, error: null });
          }
        });
        response.on('end', () => finish({ statusCode, error: null }));
        response.on('error', () => finish({ statusCode, error: null }));
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      finish({ statusCode: null, error: `no answer within ${timeoutMs} ms` });
    }, timeoutMs);
    request.on('error', (error) => finish({ statusCode: null, error: error.message }));
    request.end(body);
  });
};
