// Digital keys: bulk add with duplicate detection, masked lists, revoke, encryption at rest,
// and assignment to order items (never the same key twice, even under concurrent assigners).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assignDigitalKeys,
  availableDigitalKeyCounts,
  revealAssignedKeys,
} from '../../../src/modules/catalog';
import { keysOf, maskKey } from '../../../src/modules/catalog/digital-keys/digital-keys.secrets';
import { digitalKeys } from '../../../src/modules/catalog/digital-keys/digital-keys.table';
import type { Db } from '../../../src/platform/db/database';
import { inTransaction } from '../../../src/platform/db/transaction';
import type { TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin } from '../../helpers/factories';
import { type caller, catalogTestApp, insertProduct } from './calls';

interface Key {
  id: string;
  maskedValue: string;
  status: string;
  orderItemId: string | null;
  createdAt: string;
}

describe('maskKey and keysOf', () => {
  it.each([
    ['ABCD-EFGH-IJKL-MNOP', '****MNOP'],
    ['ABCDEFGHIJKL', '****IJKL'],
    ['ABCDEFGHIJK', '****JK'],
    ['ABCDEFGH', '****GH'],
    ['ABCDEFG', '****G'],
    ['ABCDE', '****E'],
    ['ABCD', '****'],
    // Counted in characters, not UTF-16 units.
    ['अबकडइफगहजकलम', '****जकलम'],
  ])('%s → %s', (value, masked) => {
    expect(maskKey(value)).toBe(masked);
  });

  it('reads an array or lines, trimmed, blanks dropped', () => {
    expect(keysOf({ keys: [' A ', '', 'B'] })).toEqual(['A', 'B']);
    expect(keysOf({ text: 'A\r\n\n  B  \nC\n' })).toEqual(['A', 'B', 'C']);
  });
});

describe('digital keys', () => {
  let t: TestApp;
  let db: Db;
  let admin: SignedIn;
  let customer: SignedIn;
  let http: ReturnType<typeof caller>;
  beforeAll(async () => {
    ({ t, db, http, admin, customer } = await catalogTestApp());
  });
  afterAll(() => t.close());

  const add = (id: number, body: unknown, headers = admin.headers) =>
    http.call('POST', `/api/admin/products/${id}/digital-keys`, headers, body);
  const list = async (id: number, query = '') => {
    const res = await http.call(
      'GET',
      `/api/admin/products/${id}/digital-keys?pagination=false${query}`,
      admin.headers,
    );
    expect(res.statusCode).toBe(200);
    return res.json().data as Key[];
  };
  const digital = () => insertProduct(t, { productKind: 'digital' });
  const assign = (productId: number, orderItemId: string, quantity: number) =>
    inTransaction(db, (tx) => assignDigitalKeys(tx, { productId, orderItemId, quantity, at: new Date() }));

  describe('POST /api/admin/products/:id/digital-keys', () => {
    it('adds an array or lines; stored and repeated keys count as duplicates; values are encrypted', async () => {
      const id = await digital();
      const creator = await signedInAdmin(t, { permissions: ['DigitalKeys_CREATE'] });
      const first = await add(
        id,
        { keys: ['WIN-AAAA-1111', 'WIN-BBBB-2222', ' WIN-AAAA-1111 '] },
        creator.headers,
      );
      expect(first.statusCode).toBe(201);
      expect(first.json().data).toEqual({ added: 2, duplicates: 1 });
      const second = await add(id, {
        text: 'WIN-BBBB-2222\nWIN-CCCC-3333\n\nWIN-DDDD-4444\r\nWIN-CCCC-3333',
      });
      expect(second.json().data).toEqual({ added: 2, duplicates: 2 });

      const keys = await list(id);
      expect(keys.map((k) => k.maskedValue).sort()).toEqual(['****1111', '****2222', '****3333', '****4444']);
      expect(keys.every((k) => k.status === 'available' && k.orderItemId === null)).toBe(true);

      const stored = (await db.select().from(digitalKeys)).filter((k) => k.productId === id);
      expect(stored).toHaveLength(4);
      for (const row of stored) {
        expect(row.valueEncrypted).toMatch(/^v1\./);
        expect(row.valueEncrypted).not.toContain('WIN-');
        expect(row.valueDigest).toMatch(/^[0-9a-f]{64}$/);
      }
      const trail = await http.activityOf(admin, 'product', id);
      expect(trail.map((e) => [e.adminId, e.action])).toEqual([
        [admin.userId, 'digital_keys_add'],
        [creator.userId, 'digital_keys_add'],
      ]);

      // The same key on another product is not a duplicate.
      const other = await digital();
      expect((await add(other, { keys: ['WIN-AAAA-1111'] })).json().data).toEqual({
        added: 1,
        duplicates: 0,
      });
    });

    it('400 PRODUCT_NOT_DIGITAL, 404 PRODUCT_NOT_FOUND, 400 on bad bodies', async () => {
      const physical = await insertProduct(t, { productKind: 'physical' });
      const notDigital = await add(physical, { keys: ['X'] });
      expect(notDigital.statusCode).toBe(400);
      expect(notDigital.json().errorCode).toBe('PRODUCT_NOT_DIGITAL');
      const missing = await add(999999, { keys: ['X'] });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().errorCode).toBe('PRODUCT_NOT_FOUND');
      const id = await digital();
      for (const body of [
        {},
        { keys: [] },
        { text: '' },
        { keys: 'ABC' },
        { keys: ['A'], text: 'B' },
        { keys: ['x'.repeat(501)] },
      ]) {
        const res = await add(id, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      }
      // Only blank lines: nothing to add.
      expect((await add(id, { text: '\n  \n' })).json().data).toEqual({ added: 0, duplicates: 0 });
    });

    it('needs DigitalKeys_CREATE', async () => {
      const id = await digital();
      await http.expectGuarded(
        'POST',
        `/api/admin/products/${id}/digital-keys`,
        'DigitalKeys_CREATE',
        customer,
        {
          keys: ['A'],
        },
      );
    });
  });

  describe('GET /api/admin/products/:id/digital-keys', () => {
    it('filters by status and pages newest first', async () => {
      const id = await digital();
      await add(id, { keys: ['KEY-0001-AAAA'] });
      await add(id, { keys: ['KEY-0002-BBBB'] });
      await add(id, { keys: ['KEY-0003-CCCC'] });
      await assign(id, 'item-list', 1);
      const reader = await signedInAdmin(t, { permissions: ['DigitalKeys_READ'] });
      const page = await http.call('GET', `/api/admin/products/${id}/digital-keys?size=2`, reader.headers);
      expect(page.statusCode).toBe(200);
      expect(page.json().meta).toEqual({ count: 3, page: 1, size: 2 });
      expect(page.json().data.map((k: Key) => k.maskedValue)).toEqual(['****CCCC', '****BBBB']);
      const assigned = await list(id, '&status=assigned');
      expect(assigned).toEqual([
        expect.objectContaining({ maskedValue: '****AAAA', orderItemId: 'item-list' }),
      ]);
      expect(await list(id, '&status=revoked')).toEqual([]);
      const bad = await http.call(
        'GET',
        `/api/admin/products/${id}/digital-keys?status=sold`,
        reader.headers,
      );
      expect(bad.json().errorCode).toBe('VALIDATION_ERROR');
      const physical = await insertProduct(t, { productKind: 'physical' });
      const notDigital = await http.call(
        'GET',
        `/api/admin/products/${physical}/digital-keys`,
        reader.headers,
      );
      expect(notDigital.json().errorCode).toBe('PRODUCT_NOT_DIGITAL');
    });

    it('needs DigitalKeys_READ', async () => {
      const id = await digital();
      await http.expectGuarded('GET', `/api/admin/products/${id}/digital-keys`, 'DigitalKeys_READ', customer);
    });
  });

  describe('POST /api/admin/products/:id/digital-keys/:keyId/revoke', () => {
    it('revokes an available key; an assigned or revoked one is 409 DIGITAL_KEY_NOT_AVAILABLE', async () => {
      const id = await digital();
      await add(id, { keys: ['REV-0001-AAAA', 'REV-0002-BBBB'] });
      await assign(id, 'item-rev', 1);
      const keys = await list(id);
      const available = keys.find((k) => k.status === 'available')!;
      const assigned = keys.find((k) => k.status === 'assigned')!;
      const revoker = await signedInAdmin(t, { permissions: ['DigitalKeys_UPDATE'] });
      const url = (keyId: string, product = id) =>
        `/api/admin/products/${product}/digital-keys/${keyId}/revoke`;

      const res = await http.call('POST', url(available.id), revoker.headers);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({
        id: available.id,
        status: 'revoked',
        maskedValue: available.maskedValue,
      });
      expect((await http.activityOf(admin, 'product', id))[0]).toMatchObject({
        action: 'digital_key_revoke',
      });

      for (const keyId of [available.id, assigned.id]) {
        const again = await http.call('POST', url(keyId), revoker.headers);
        expect(again.statusCode).toBe(409);
        expect(again.json().errorCode).toBe('DIGITAL_KEY_NOT_AVAILABLE');
      }
      // A revoked key is never assigned, and still counts as stored.
      expect(await assign(id, 'item-rev-2', 1)).toEqual({ ok: false, available: 0 });
      expect((await add(id, { keys: ['REV-0002-BBBB'] })).json().data).toEqual({ added: 0, duplicates: 1 });

      // Another product's key, an unknown key, a bad key id.
      const other = await digital();
      const foreign = await http.call('POST', url(assigned.id, other), revoker.headers);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().errorCode).toBe('DIGITAL_KEY_NOT_FOUND');
      const unknown = await http.call('POST', url('01900000-0000-7000-8000-000000000000'), revoker.headers);
      expect(unknown.json().errorCode).toBe('DIGITAL_KEY_NOT_FOUND');
      const bad = await http.call('POST', url('not-a-uuid'), revoker.headers);
      expect(bad.json().errorCode).toBe('VALIDATION_ERROR');
    });

    it('needs DigitalKeys_UPDATE', async () => {
      const id = await digital();
      const url = `/api/admin/products/${id}/digital-keys/01900000-0000-7000-8000-000000000000/revoke`;
      await http.expectGuarded('POST', url, 'DigitalKeys_UPDATE', customer);
    });
  });

  describe('assignment and reveal', () => {
    it('assigns up to the quantity (a retry assigns nothing more), reveals full values only for the item', async () => {
      const id = await digital();
      await add(id, { text: 'OFFICE-1111-AAAA\nOFFICE-2222-BBBB\nOFFICE-3333-CCCC' });
      expect((await availableDigitalKeyCounts(db, [id])).get(id)).toBe(3);

      const first = await assign(id, 'item-a', 2);
      expect(first.ok).toBe(true);
      const again = await assign(id, 'item-a', 2);
      expect(again).toEqual(first);
      expect((await availableDigitalKeyCounts(db, [id])).get(id)).toBe(1);
      expect(await assign(id, 'item-b', 2)).toEqual({ ok: false, available: 1 });
      expect((await availableDigitalKeyCounts(db, [id])).get(id)).toBe(1);

      const revealed = await revealAssignedKeys({ db, config: t.platform.config }, 'item-a');
      expect(revealed.map((k) => k.value).sort()).toEqual(['OFFICE-1111-AAAA', 'OFFICE-2222-BBBB']);
      expect(revealed.every((k) => k.productId === id)).toBe(true);
      expect(await revealAssignedKeys({ db, config: t.platform.config }, 'item-none')).toEqual([]);

      // Another secret (a backup restored without its secret) cannot read them, and says why.
      await expect(
        revealAssignedKeys(
          {
            db,
            config: {
              ...t.platform.config,
              DIGITAL_KEYS_SECRET: 'another-secret-that-is-long-enough-000000',
            },
          },
          'item-a',
        ),
      ).rejects.toThrow(/DIGITAL_KEYS_SECRET is not the secret the key was stored with/);
    });

    it('never gives two concurrent assigners the same key', async () => {
      const id = await digital();
      await add(id, { keys: Array.from({ length: 12 }, (_, i) => `RACE-${String(i).padStart(4, '0')}-KEY`) });
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, i) => assign(id, `race-item-${i}`, 2)),
      );
      const won = outcomes.filter((o) => o.ok);
      const ids = won.flatMap((o) => (o.ok ? o.keys.map((k) => k.id) : []));
      expect(new Set(ids).size).toBe(ids.length);
      // 12 keys, 2 each: at most 6 items are served, and no key is lost or shared.
      expect(won.length).toBeGreaterThan(0);
      expect(won.length).toBeLessThanOrEqual(6);
      const rows = (await db.select().from(digitalKeys)).filter((k) => k.productId === id);
      expect(rows.filter((k) => k.status === 'assigned')).toHaveLength(ids.length);
      expect(rows.filter((k) => k.status === 'available')).toHaveLength(12 - ids.length);
      for (const o of won) if (o.ok) expect(o.keys).toHaveLength(2);
    });
  });
});
