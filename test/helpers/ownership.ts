// Cross-owner tests: every owner-scoped record, asked for with someone else's credentials,
// must answer the refusal the interface names (404 or 403 and its errorCode), never the
// record. Use it in every module that has records belonging to a customer or an admin:
//
//   ownershipTests(() => ({ t, record, actors, secrets: [record.subject] }), [
//     { method: 'GET', url: (r) => `/api/mobile/things/${r.id}`, as: 'owner', expect: 200 },
//     { method: 'GET', url: (r) => `/api/mobile/things/${r.id}`, as: 'otherCustomer',
//       expect: 404, errorCode: 'THING_NOT_FOUND' },
//     { method: 'GET', url: () => '/api/mobile/things', as: 'otherCustomer', expect: 200, shows: false },
//   ]);
//
// One test per row. A refusal must carry `errorCode`, no `data`, and none of the record's
// `secrets` anywhere but in the echoed `path` (the caller's own URL); when the context has a
// `snapshot`, a refused request must leave it unchanged. A 2xx row is the positive control: by
// default its answer must show the secrets (`shows: 'some'` for a list item that carries a
// part of them, `shows: false` for a list that must not show the record at all).
// Secrets are distinctive strings (a uuid, a unique subject line), never short numbers.
import { randomInt } from 'node:crypto';
import { expect, it } from 'vitest';
import type { TestApp } from './app';

export type OwnershipMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** Whoever a row speaks as: a SignedIn, a guest token's headers, or `{ headers: {} }`. */
export interface Credentials {
  headers: Record<string, string>;
}

export interface OwnershipRow<R> {
  method: OwnershipMethod;
  url: (record: R) => string;
  /** A JSON body for writes; a refused write must be refused whatever it says. */
  payload?: (record: R) => unknown;
  /** A key of the context's `actors` (e.g. `owner`, `otherCustomer`, `otherAdmin`, `limitedAdmin`). */
  as: string;
  expect: number;
  /** Required for refusals (status 400 and above): the interface's code. */
  errorCode?: string;
  /**
   * 2xx rows: whether the answer shows the record: every secret (true, the default), at least
   * one (`'some'`, e.g. a list item that carries the subject but not the messages), or none.
   */
  shows?: boolean | 'some';
  /** Added to the test's name. */
  note?: string;
}

export interface OwnershipContext<R> {
  t: TestApp;
  record: R;
  actors: Record<string, Credentials | undefined>;
  /** Values of the record that a refusal must never contain. */
  secrets: string[];
  /** The record's state as its owner or an admin sees it; a refused request must not change it. */
  snapshot?: () => Promise<unknown>;
}

const freshIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

function title<R>(row: OwnershipRow<R>): string {
  const outcome =
    row.expect >= 400
      ? `${row.expect} ${row.errorCode}`
      : `${row.expect}${row.shows === false ? ', hidden' : ''}`;
  return `${row.method} ${row.url.toString().replace(/^\([^)]*\)\s*=>\s*/, '')} as ${row.as} → ${outcome}${
    row.note ? ` (${row.note})` : ''
  }`;
}

/** Asks one row's request and checks its answer against the row. */
export async function checkOwnershipRow<R>(ctx: OwnershipContext<R>, row: OwnershipRow<R>): Promise<void> {
  const who = ctx.actors[row.as];
  if (!who) throw new Error(`ownership row speaks as "${row.as}", which the context does not define`);
  if (row.expect >= 400 && !row.errorCode) throw new Error('a refusal row must name its errorCode');
  const before = row.expect >= 400 && ctx.snapshot ? await ctx.snapshot() : undefined;
  const payload = row.payload?.(ctx.record);
  const res = await ctx.t.app.inject({
    method: row.method,
    url: row.url(ctx.record),
    headers: who.headers,
    remoteAddress: freshIp(), // per-IP throttles must not decide the answer
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  expect(res.statusCode, res.body).toBe(row.expect);
  if (row.expect >= 400) {
    const body = res.json() as Record<string, unknown>;
    expect(body.errorCode).toBe(row.errorCode);
    expect(body).not.toHaveProperty('data');
    const { path: _echoedUrl, ...rest } = body;
    const text = JSON.stringify(rest);
    for (const secret of ctx.secrets) expect(text, `the refusal shows "${secret}"`).not.toContain(secret);
    if (ctx.snapshot) expect(await ctx.snapshot(), 'a refused request changed the record').toEqual(before);
    return;
  }
  if (row.shows === 'some') {
    const shown = ctx.secrets.filter((secret) => res.body.includes(secret));
    expect(shown.length, 'the answer shows none of the record').toBeGreaterThan(0);
    return;
  }
  for (const secret of ctx.secrets) {
    if (row.shows === false) expect(res.body, `the answer shows "${secret}"`).not.toContain(secret);
    else expect(res.body, `the answer lacks "${secret}"`).toContain(secret);
  }
}

/** One test per row; `context` is read when the test runs (set it up in `beforeAll`). */
export function ownershipTests<R>(context: () => OwnershipContext<R>, rows: OwnershipRow<R>[]): void {
  for (const row of rows) {
    it(title(row), async () => {
      await checkOwnershipRow(context(), row);
    });
  }
}
