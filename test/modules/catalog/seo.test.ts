// SEO records: admin CRUD, JSON fields, the lookup other modules use, and the in-use rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSeoRecord, seoExists } from '../../../src/modules/catalog';
import { seoRecords } from '../../../src/modules/catalog/seo/seo.table';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { caller } from './calls';

const full = {
  metaTitle: 'Singing bowls of Patan',
  metaDescription: 'Hand-hammered bowls',
  metaKeywords: 'singing bowl, patan',
  canonicalUrl: 'https://shop.example.com/singing-bowls',
  robotsIndex: false,
  robotsFollow: true,
  robotsAdvanced: 'max-image-preview:large',
  ogTitle: 'Singing bowls',
  ogDescription: 'Bowls',
  ogType: 'website',
  ogUrl: 'https://shop.example.com/singing-bowls',
  ogImageUrl: '/files/public/bowl.webp',
  ogSiteName: 'Pasal',
  socialCard: 'summary_large_image',
  socialSite: '@pasal',
  socialCreator: '@maker',
  socialTitle: 'Bowls',
  socialDescription: 'Bowls from Patan',
  socialImageUrl: 'https://cdn.example.com/bowl.webp',
  alternates: [
    { hreflang: 'ne-NP', href: 'https://shop.example.com/ne/singing-bowls' },
    { hreflang: 'x-default', href: 'https://shop.example.com/singing-bowls' },
  ],
  structuredDataJsonLd: { '@context': 'https://schema.org', '@type': 'CollectionPage', name: 'Bowls' },
};

describe('SEO records', () => {
  let t: TestApp;
  let admin: SignedIn;
  let customer: SignedIn;
  let http: ReturnType<typeof caller>;
  beforeAll(async () => {
    t = await createTestApp();
    http = caller(t);
    admin = await signedInAdmin(t, { superadmin: true });
    customer = await signedInCustomer(t);
  });
  afterAll(() => t.close());

  const create = async (body: object = full) => {
    const res = await http.call('POST', '/api/admin/seo', admin.headers, body);
    expect(res.statusCode).toBe(201);
    return res.json().data as typeof full & { id: string; createdAt: string };
  };

  it('creates a record with every field and stores the JSON fields as given', async () => {
    const record = await create();
    expect(record).toMatchObject(full);
    expect(record.id).toMatch(/^[0-9a-f-]{36}$/);
    const [row] = await t.platform.database.db.select().from(seoRecords);
    expect(row?.alternates).toEqual(full.alternates);
    expect(row?.structuredDataJsonLd).toEqual(full.structuredDataJsonLd);
    const activity = await http.activityOf(admin, 'seo_record', record.id);
    expect(activity[0]).toMatchObject({ action: 'create', adminId: admin.userId });
  });

  it('creates an empty record with robots defaults, and accepts a JSON-LD list', async () => {
    const record = await create({
      structuredDataJsonLd: [{ '@type': 'Organization' }, { '@type': 'WebSite' }],
    });
    expect(record).toMatchObject({
      metaTitle: null,
      robotsIndex: true,
      robotsFollow: true,
      alternates: null,
    });
    expect(record.structuredDataJsonLd).toHaveLength(2);
  });

  it('rejects bad fields with VALIDATION_ERROR', async () => {
    for (const body of [
      { canonicalUrl: 'javascript:alert(1)' },
      { alternates: [{ hreflang: 'english please', href: '/x' }] },
      { structuredDataJsonLd: 'not json-ld' },
      { robotsIndex: 'yes' },
      { metaTitle: 'x'.repeat(256) },
    ]) {
      const res = await http.call('POST', '/api/admin/seo', admin.headers, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errorCode).toBe('VALIDATION_ERROR');
    }
  });

  it('reads, lists with search, updates (null clears) and deletes', async () => {
    const record = await create({ ...full, metaTitle: 'Thangka paintings' });
    const one = await http.call('GET', `/api/admin/seo/${record.id}`, admin.headers);
    expect(one.json().data.metaTitle).toBe('Thangka paintings');

    const list = await http.call('GET', '/api/admin/seo?search=thangka&size=5', admin.headers);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((r: { id: string }) => r.id)).toEqual([record.id]);
    expect(list.json().meta).toEqual({ count: 1, page: 1, size: 5 });

    const patched = await http.call('PATCH', `/api/admin/seo/${record.id}`, admin.headers, {
      metaDescription: null,
      robotsIndex: true,
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().data).toMatchObject({
      metaDescription: null,
      robotsIndex: true,
      metaTitle: 'Thangka paintings',
    });

    const empty = await http.call('PATCH', `/api/admin/seo/${record.id}`, admin.headers, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errorCode).toBe('VALIDATION_ERROR');

    expect(await seoExists(t.platform.database.db, record.id)).toBe(true);
    expect((await findSeoRecord(t.platform.database.db, record.id))?.metaTitle).toBe('Thangka paintings');

    const deleted = await http.call('DELETE', `/api/admin/seo/${record.id}`, admin.headers);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().data).toBeNull();
    expect(await seoExists(t.platform.database.db, record.id)).toBe(false);
    const actions = (await http.activityOf(admin, 'seo_record', record.id)).map((a) => a.action);
    expect(actions).toEqual(['delete', 'update', 'create']);
  });

  it('answers SEO_RECORD_NOT_FOUND for an unknown id and VALIDATION_ERROR for a malformed one', async () => {
    const unknown = '01890000-0000-7000-8000-000000000000';
    for (const [method, payload] of [['GET'], ['PATCH', { metaTitle: 'x' }], ['DELETE']] as const) {
      const res = await http.call(method, `/api/admin/seo/${unknown}`, admin.headers, payload);
      expect(res.statusCode).toBe(404);
      expect(res.json().errorCode).toBe('SEO_RECORD_NOT_FOUND');
    }
    const bad = await http.call('GET', '/api/admin/seo/not-a-uuid', admin.headers);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errorCode).toBe('VALIDATION_ERROR');
  });

  it('refuses to delete a record a category points at (409 SEO_RECORD_IN_USE)', async () => {
    const record = await create();
    const cat = await http.call('POST', '/api/admin/categories', admin.headers, {
      name: 'Statues',
      seoId: record.id,
    });
    expect(cat.statusCode).toBe(201);
    const res = await http.call('DELETE', `/api/admin/seo/${record.id}`, admin.headers);
    expect(res.statusCode).toBe(409);
    expect(res.json().errorCode).toBe('SEO_RECORD_IN_USE');
  });

  it('guards every route with the Seo permissions', async () => {
    const id = (await create()).id;
    await http.expectGuarded('GET', '/api/admin/seo', 'Seo_READ', customer);
    await http.expectGuarded('GET', `/api/admin/seo/${id}`, 'Seo_READ', customer);
    await http.expectGuarded('POST', '/api/admin/seo', 'Seo_CREATE', customer, {});
    await http.expectGuarded('PATCH', `/api/admin/seo/${id}`, 'Seo_UPDATE', customer, { metaTitle: 'x' });
    await http.expectGuarded('DELETE', `/api/admin/seo/${id}`, 'Seo_DELETE', customer);
  });
});
