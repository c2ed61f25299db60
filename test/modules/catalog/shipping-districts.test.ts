// Shipping districts: the 77 seeded districts, their admin routes and the public list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findShippingDistrict } from '../../../src/modules/catalog';
import type { TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin } from '../../helpers/factories';
import { type caller, catalogTestApp } from './calls';

interface District {
  id: number;
  name: string;
  province: string;
  shippingFee: number;
  isActive: boolean;
}

describe('shipping districts', () => {
  let t: TestApp;
  let admin: SignedIn;
  let customer: SignedIn;
  let http: ReturnType<typeof caller>;
  beforeAll(async () => {
    ({ t, http, admin, customer } = await catalogTestApp());
  });
  afterAll(() => t.close());

  const all = async (query = '') => {
    const res = await http.call(
      'GET',
      `/api/admin/shipping-districts?pagination=false${query}`,
      admin.headers,
    );
    expect(res.statusCode).toBe(200);
    return res.json().data as District[];
  };
  const idOf = async (name: string) =>
    (await all(`&search=${encodeURIComponent(name)}`)).find((d) => d.name === name)!.id;

  it('seeds Nepal’s 77 districts in 7 provinces, inactive with fee 0', async () => {
    const districts = await all();
    expect(districts).toHaveLength(77);
    const perProvince = Object.fromEntries(
      ['Koshi', 'Madhesh', 'Bagmati', 'Gandaki', 'Lumbini', 'Karnali', 'Sudurpashchim'].map((p) => [
        p,
        districts.filter((d) => d.province === p).length,
      ]),
    );
    expect(perProvince).toEqual({
      Koshi: 14,
      Madhesh: 8,
      Bagmati: 13,
      Gandaki: 11,
      Lumbini: 12,
      Karnali: 10,
      Sudurpashchim: 9,
    });
    expect(districts.every((d) => d.shippingFee === 0 && !d.isActive)).toBe(true);
    expect(districts.find((d) => d.name === 'Kathmandu')?.province).toBe('Bagmati');
    // Alphabetical by default.
    expect(districts[0]!.name).toBe('Achham');
  });

  describe('GET /api/admin/shipping-districts', () => {
    it('paginates, searches by name and filters by province', async () => {
      const page = await http.call('GET', '/api/admin/shipping-districts?size=10&page=2', admin.headers);
      expect(page.statusCode).toBe(200);
      expect(page.json().meta).toEqual({ count: 77, page: 2, size: 10 });
      expect(page.json().data).toHaveLength(10);

      const search = await http.call('GET', '/api/admin/shipping-districts?search=%20kath%20', admin.headers);
      expect(search.json().data.map((d: District) => d.name)).toEqual(['Kathmandu']);

      const madhesh = await http.call(
        'GET',
        '/api/admin/shipping-districts?province=Madhesh&sort=name&order=desc',
        admin.headers,
      );
      expect(madhesh.json().meta.count).toBe(8);
      expect(madhesh.json().data[0].name).toBe('Siraha');
    });

    it('refuses an unknown province or sort', async () => {
      for (const q of ['province=Mars', 'sort=colour', 'isActive=maybe']) {
        const res = await http.call('GET', `/api/admin/shipping-districts?${q}`, admin.headers);
        expect(res.statusCode).toBe(400);
        expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      }
    });

    it('needs ShippingDistricts_READ', async () => {
      await http.expectGuarded('GET', '/api/admin/shipping-districts', 'ShippingDistricts_READ', customer);
      const reader = await signedInAdmin(t, { permissions: ['ShippingDistricts_READ'] });
      expect((await http.call('GET', '/api/admin/shipping-districts', reader.headers)).statusCode).toBe(200);
    });
  });

  describe('GET /api/admin/shipping-districts/:id', () => {
    it('answers one district, 404 for an unknown id, 400 for a bad id', async () => {
      const id = await idOf('Kaski');
      const res = await http.call('GET', `/api/admin/shipping-districts/${id}`, admin.headers);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({
        id,
        name: 'Kaski',
        province: 'Gandaki',
        shippingFee: 0,
        isActive: false,
      });

      const missing = await http.call('GET', '/api/admin/shipping-districts/99999', admin.headers);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().errorCode).toBe('SHIPPING_DISTRICT_NOT_FOUND');
      const bad = await http.call('GET', '/api/admin/shipping-districts/abc', admin.headers);
      expect(bad.json().errorCode).toBe('VALIDATION_ERROR');
    });

    it('needs ShippingDistricts_READ', async () => {
      await http.expectGuarded('GET', '/api/admin/shipping-districts/1', 'ShippingDistricts_READ', customer);
    });
  });

  describe('PATCH /api/admin/shipping-districts/:id and the public list', () => {
    it('sets fee and activity; the public lists show active districts only', async () => {
      const editor = await signedInAdmin(t, { permissions: ['ShippingDistricts_UPDATE'] });
      const ktm = await idOf('Kathmandu');
      const lalitpur = await idOf('Lalitpur');

      const res = await http.call('PATCH', `/api/admin/shipping-districts/${ktm}`, editor.headers, {
        shippingFee: 100,
        isActive: true,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ id: ktm, name: 'Kathmandu', shippingFee: 100, isActive: true });
      const feeOnly = await http.call('PATCH', `/api/admin/shipping-districts/${lalitpur}`, editor.headers, {
        shippingFee: 150,
      });
      expect(feeOnly.json().data).toMatchObject({ shippingFee: 150, isActive: false });

      const trail = await http.activityOf(admin, 'shipping_district', ktm);
      expect(trail[0]).toMatchObject({ adminId: editor.userId, action: 'update' });
      expect(trail[0]!.summary).toContain('Kathmandu');

      for (const url of ['/api/cart/location/districts', '/api/mobile/cart/location/districts']) {
        const pub = await http.call('GET', url);
        expect(pub.statusCode).toBe(200);
        expect(pub.json().data).toEqual([
          { id: ktm, name: 'Kathmandu', province: 'Bagmati', shippingFee: 100 },
        ]);
      }

      await http.call('PATCH', `/api/admin/shipping-districts/${lalitpur}`, editor.headers, {
        isActive: true,
      });
      const both = await http.call('GET', '/api/cart/location/districts');
      expect(both.json().data.map((d: District) => d.name)).toEqual(['Kathmandu', 'Lalitpur']);

      const off = await http.call('PATCH', `/api/admin/shipping-districts/${lalitpur}`, editor.headers, {
        isActive: false,
      });
      expect(off.json().data.isActive).toBe(false);
      const active = await all('&isActive=true');
      expect(active.map((d) => d.name)).toEqual(['Kathmandu']);
    });

    it('refuses bad bodies', async () => {
      const id = await idOf('Jhapa');
      for (const body of [
        {},
        { shippingFee: -1 },
        { shippingFee: 1.5 },
        { isActive: 'yes' },
        { shippingFee: '100' },
      ]) {
        const res = await http.call('PATCH', `/api/admin/shipping-districts/${id}`, admin.headers, body);
        expect(res.statusCode).toBe(400);
        expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      }
      const missing = await http.call('PATCH', '/api/admin/shipping-districts/99999', admin.headers, {
        isActive: true,
      });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().errorCode).toBe('SHIPPING_DISTRICT_NOT_FOUND');
    });

    it('needs ShippingDistricts_UPDATE', async () => {
      await http.expectGuarded(
        'PATCH',
        '/api/admin/shipping-districts/1',
        'ShippingDistricts_UPDATE',
        customer,
        {
          isActive: true,
        },
      );
      const reader = await signedInAdmin(t, { permissions: ['ShippingDistricts_READ'] });
      const denied = await http.call('PATCH', '/api/admin/shipping-districts/1', reader.headers, {
        isActive: true,
      });
      expect(denied.json().errorCode).toBe('AUTH_PERMISSION_DENIED');
    });
  });

  it('finds a district by id or by name, case-insensitively, for the cart', async () => {
    const db = t.platform.database.db;
    const byName = await findShippingDistrict(db, { name: '  kathmandu ' });
    expect(byName).toMatchObject({ name: 'Kathmandu', province: 'Bagmati' });
    expect(await findShippingDistrict(db, { id: byName!.id })).toMatchObject({ name: 'Kathmandu' });
    expect(await findShippingDistrict(db, { name: 'Atlantis' })).toBeNull();
  });
});
