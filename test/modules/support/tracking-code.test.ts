// Tracking codes: `SI-` + 10 Crockford base32 characters, unique; a drawn code that is taken
// already is drawn again.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app';
import { caller } from './support-helpers';

const draws = vi.hoisted(() => ({ queue: [] as string[] }));
vi.mock('../../../src/platform/ids', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../src/platform/ids')>();
  return {
    ...original,
    crockfordCode: (length: number) => draws.queue.shift() ?? original.crockfordCode(length),
  };
});

describe('inquiry tracking codes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  const create = () =>
    caller(t)('POST', '/api/support-inquiries', { payload: { category: 'other', subject: 'Code' } });

  it('are SI- and 10 Crockford base32 characters', async () => {
    const codes = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const res = await create();
      expect(res.statusCode).toBe(201);
      codes.add(res.json().data.trackingCode);
    }
    expect(codes.size).toBe(5);
    for (const code of codes) expect(code).toMatch(/^SI-[0-9ABCDEFGHJKMNPQRSTVWXYZ]{10}$/);
  });

  it('a taken code is drawn again instead of failing the request', async () => {
    draws.queue.push('AAAAAAAAAA');
    const first = await create();
    expect(first.json().data.trackingCode).toBe('SI-AAAAAAAAAA');
    draws.queue.push('AAAAAAAAAA', 'AAAAAAAAAA', 'BBBBBBBBBB');
    const second = await create();
    expect(second.statusCode).toBe(201);
    expect(second.json().data.trackingCode).toBe('SI-BBBBBBBBBB');
    expect(draws.queue).toEqual([]);
  });
});
