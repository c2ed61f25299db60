// Admin banners: create (200) with defaults, validation and reference codes, the list with its
// top-level pagination and filters, its cache cleared by any banner-area write, patch,
// schedule, activation, soft delete and restore, guards and activity.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { banners as bannersTable } from '../../../src/modules/banners/banners.table';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { bannerCalls, unique } from './banner-calls';

describe('admin banners', () => {
  let t: TestApp;
  let admin: SignedIn;
  let customer: SignedIn;
  let http: ReturnType<typeof bannerCalls>;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedInAdmin(t, { superadmin: true });
    customer = await signedInCustomer(t);
    http = bannerCalls(t, admin);
  });
  afterAll(() => t.close());

  it('creates a banner with the documented defaults, answering 200, and records activity', async () => {
    const res = await http.call('POST', '/api/admin/banners', {
      title: 'Dashain sale',
      primaryImageUrl: 'https://cdn.example.com/dashain.webp',
      scheduleStatus: 'draft',
      createdBy: '00000000-0000-0000-0000-000000000000',
    });
    expect(res.statusCode).toBe(200);
    const b = res.json().data;
    expect(b).toMatchObject({
      title: 'Dashain sale',
      source: 'internal',
      isActive: true,
      ctaOpenNewTab: false,
      priority: 0,
      scheduleTimezone: 'UTC',
      scheduleStatus: 'draft',
      isEvergreenFallback: false,
      mediaVariants: {},
      tags: [],
      createdBy: admin.userId,
      deletedAt: null,
    });
    expect(b.publicId).toMatch(/^[0-9a-f-]{36}$/);
    const plain = await http.banner();
    expect(plain.scheduleStatus).toBe('evergreen');
    const activity = await http.activityOf('banner', b.publicId);
    expect(activity[0]).toMatchObject({ action: 'create', adminId: admin.userId });
  });

  it('keeps every field it is given', async () => {
    const body = {
      title: 'Full',
      description: 'All the fields',
      source: 'sponsored',
      isActive: false,
      primaryImageUrl: '/files/public/a.webp',
      primaryImageAlt: 'Alt',
      mobileImageUrl: 'https://cdn.example.com/m.webp',
      videoUrl: 'https://cdn.example.com/v.mp4',
      mediaVariants: { ne: 'https://cdn.example.com/ne.webp', '2x': 'https://cdn.example.com/2x.webp' },
      headline: 'Headline',
      subheadline: 'Sub',
      ctaLabel: 'Shop',
      ctaUrl: 'https://shop.example.com/x',
      ctaOpenNewTab: true,
      utmSource: 's',
      utmMedium: 'm',
      utmCampaign: 'c',
      utmContent: 'k',
      tags: ['a', 'b', 'a'],
      bgColor: '#AABBCC',
      priority: 5,
      publishAt: '2026-05-01T00:00:00.000Z',
      expiresAt: '2026-06-01T00:00:00.000Z',
      scheduleTimezone: 'Asia/Kathmandu',
      recurrenceRule: 'FREQ=DAILY',
      recurrenceWindowStart: '08:00:00',
      recurrenceWindowEnd: '20:00:00',
      scheduleStatus: 'scheduled',
      isEvergreenFallback: true,
      fallbackPlaceholderUrl: 'https://cdn.example.com/p.webp',
    };
    const b = await http.banner(body);
    expect(b).toMatchObject({ ...body, tags: ['a', 'b'] });
    expect(await http.expectOk('GET', `/api/admin/banners/${b.publicId}`)).toEqual(b);
  });

  it('rejects bad bodies with VALIDATION_ERROR and a bad window with BANNER_SCHEDULE_INVALID', async () => {
    const good = { title: 'x', primaryImageUrl: 'https://cdn.example.com/x.webp' };
    for (const body of [
      {},
      { title: 'x' },
      { primaryImageUrl: good.primaryImageUrl },
      { ...good, title: ' ' },
      { ...good, title: 'x'.repeat(256) },
      { ...good, primaryImageUrl: 'javascript:alert(1)' },
      { ...good, source: 'partner' },
      { ...good, bgColor: 'red' },
      { ...good, priority: -1 },
      { ...good, ctaLabel: 'x'.repeat(101) },
      { ...good, utmSource: 'x'.repeat(101) },
      { ...good, scheduleTimezone: 'Mars/Base' },
      { ...good, recurrenceWindowStart: '25:00:00' },
      { ...good, scheduleStatus: 'live' },
      { ...good, publishAt: 'tomorrow' },
      { ...good, brandId: 0 },
    ]) {
      const res = await http.call('POST', '/api/admin/banners', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errorCode).toBe('VALIDATION_ERROR');
    }
    for (const [publishAt, expiresAt] of [
      ['2026-06-01T00:00:00Z', '2026-05-01T00:00:00Z'],
      ['2026-06-01T00:00:00Z', '2026-06-01T00:00:00Z'],
    ]) {
      await http.expectError(
        'POST',
        '/api/admin/banners',
        { ...good, publishAt, expiresAt },
        400,
        'BANNER_SCHEDULE_INVALID',
      );
    }
  });

  it('checks catalog references: unknown SEO record 404 BANNER_SEO_NOT_FOUND, unknown brand, category or product 400', async () => {
    const good = { title: 'x', primaryImageUrl: 'https://cdn.example.com/x.webp' };
    await http.expectError(
      'POST',
      '/api/admin/banners',
      { ...good, seoId: '0190a000-0000-7000-8000-000000000000' },
      404,
      'BANNER_SEO_NOT_FOUND',
    );
    await http.expectError(
      'POST',
      '/api/admin/banners',
      { ...good, brandId: 999999 },
      400,
      'BANNER_BRAND_INVALID',
    );
    await http.expectError(
      'POST',
      '/api/admin/banners',
      { ...good, categoryId: 999999 },
      400,
      'BANNER_CATEGORY_INVALID',
    );
    await http.expectError(
      'POST',
      '/api/admin/banners',
      { ...good, productId: 999999 },
      400,
      'BANNER_PRODUCT_INVALID',
    );

    const seo = await http.expectOk('POST', '/api/admin/seo', { metaTitle: 'Banner SEO' }, 201);
    const brand = await http.expectOk('POST', '/api/admin/brands', { name: `Brand ${unique()}` }, 201);
    const category = await http.expectOk('POST', '/api/admin/categories', { name: `Cat ${unique()}` }, 201);
    const b = await http.banner({ seoId: seo.id, brandId: brand.id, categoryId: category.id });
    expect(b).toMatchObject({ seoId: seo.id, brandId: brand.id, categoryId: category.id });
    const patched = await http.call('PATCH', `/api/admin/banners/${b.publicId}`, {
      seoId: '0190a000-0000-7000-8000-000000000001',
    });
    expect(patched.json().errorCode).toBe('BANNER_SEO_NOT_FOUND');

    // Deleting the brand or category sets the banner's reference to null.
    await http.expectOk('DELETE', `/api/admin/brands/${brand.id}`);
    await http.expectOk('DELETE', `/api/admin/categories/${category.id}`);
    const after = await http.expectOk('GET', `/api/admin/banners/${b.publicId}`);
    expect(after).toMatchObject({ brandId: null, categoryId: null, seoId: seo.id });
  });

  it('gets one banner; an unknown one is 404 BANNER_NOT_FOUND, a bad id 400', async () => {
    await http.expectError(
      'GET',
      '/api/admin/banners/0190a000-0000-7000-8000-000000000000',
      undefined,
      404,
      'BANNER_NOT_FOUND',
    );
    await http.expectError('GET', '/api/admin/banners/123', undefined, 400, 'VALIDATION_ERROR');
  });

  describe('list', () => {
    let tag: string;
    let ids: Record<string, string>;
    beforeAll(async () => {
      tag = unique();
      const brand = await http.expectOk('POST', '/api/admin/brands', { name: `ListBrand ${tag}` }, 201);
      const a = await http.banner({ title: `${tag} Alpha`, priority: 3, brandId: brand.id });
      const b = await http.banner({
        title: `${tag} Beta`,
        description: 'summer SALE',
        isActive: false,
        priority: 1,
      });
      const c = await http.banner({ title: `${tag} Gamma`, scheduleStatus: 'scheduled', priority: 2 });
      const d = await http.banner({ title: `${tag} Deleted` });
      await http.expectOk('DELETE', `/api/admin/banners/${d.publicId}`);
      ids = { a: a.publicId, b: b.publicId, c: c.publicId, d: d.publicId, brand: String(brand.id) };
    });

    const titles = (data: Array<{ title: string }>) => data.map((b) => b.title.replace(`${tag} `, ''));

    it('carries pagination at the top level of the envelope', async () => {
      const res = await http.call(
        'GET',
        `/api/admin/banners?search=${tag}&size=2&page=1&sort=title&order=asc`,
      );
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.pagination).toEqual({ count: 3, page: 1, size: 2 });
      expect(body).not.toHaveProperty('meta');
      expect(titles(body.data)).toEqual(['Alpha', 'Beta']);
      const page2 = (
        await http.call('GET', `/api/admin/banners?search=${tag}&size=2&page=2&sort=title&order=asc`)
      ).json();
      expect(titles(page2.data)).toEqual(['Gamma']);
      const all = (await http.call('GET', `/api/admin/banners?search=${tag}&pagination=false`)).json();
      expect(all.data).toHaveLength(3);
      expect(all).not.toHaveProperty('pagination');
    });

    it('filters and sorts', async () => {
      const list = async (q: string) =>
        titles(
          (await http.call('GET', `/api/admin/banners?search=${tag}&sort=title&order=asc&${q}`)).json().data,
        );
      expect(await list('isActive=false')).toEqual(['Beta']);
      expect(await list('isActive=true')).toEqual(['Alpha', 'Gamma']);
      expect(await list('scheduleStatus=scheduled')).toEqual(['Gamma']);
      expect(await list(`brandId=${ids.brand}`)).toEqual(['Alpha']);
      expect(await list('includeDeleted=true')).toEqual(['Alpha', 'Beta', 'Deleted', 'Gamma']);
      expect(titles((await http.call('GET', '/api/admin/banners?search=SUMMER sale')).json().data)).toEqual([
        'Beta',
      ]);
      const byPriority = (
        await http.call('GET', `/api/admin/banners?search=${tag}&sort=priority&order=desc`)
      ).json();
      expect(titles(byPriority.data)).toEqual(['Alpha', 'Gamma', 'Beta']);
      for (const q of [
        'sort=name',
        'order=up',
        'size=101',
        'isActive=yes',
        'scheduleStatus=live',
        'brandId=x',
      ]) {
        const res = await http.call('GET', `/api/admin/banners?${q}`);
        expect(res.statusCode, q).toBe(400);
      }
    });

    it('is cached, and any banner-area write clears the cache', async () => {
      const url = `/api/admin/banners?search=${tag}&sort=title&order=asc`;
      expect(titles((await http.call('GET', url)).json().data)).toEqual(['Alpha', 'Beta', 'Gamma']);
      // A change behind the service's back is not seen while the page is cached...
      await t.platform.database.db
        .update(bannersTable)
        .set({ title: `${tag} Aardvark` })
        .where(eq(bannersTable.publicId, ids.a!));
      expect(titles((await http.call('GET', url)).json().data)).toEqual(['Alpha', 'Beta', 'Gamma']);
      // ...until any write of the area (here: a placement) clears it.
      await http.placement();
      expect(titles((await http.call('GET', url)).json().data)).toEqual(['Aardvark', 'Beta', 'Gamma']);
    });
  });

  it('patches partially; a deleted banner is not found', async () => {
    const b = await http.banner({ headline: 'Old', priority: 1 });
    const patched = await http.expectOk('PATCH', `/api/admin/banners/${b.publicId}`, {
      headline: 'New',
      ctaLabel: null,
    });
    expect(patched).toMatchObject({ headline: 'New', priority: 1, title: b.title, ctaLabel: null });
    await http.expectError('PATCH', `/api/admin/banners/${b.publicId}`, {}, 400, 'VALIDATION_ERROR');
    await http.expectError(
      'PATCH',
      `/api/admin/banners/${b.publicId}`,
      { expiresAt: '2020-01-01T00:00:00Z', publishAt: '2021-01-01T00:00:00Z' },
      400,
      'BANNER_SCHEDULE_INVALID',
    );
    const activity = await http.activityOf('banner', b.publicId);
    expect(activity[0]).toMatchObject({ action: 'update' });
    expect(activity[0]!.summary).toContain('headline');
    await http.expectOk('DELETE', `/api/admin/banners/${b.publicId}`);
    await http.expectError(
      'PATCH',
      `/api/admin/banners/${b.publicId}`,
      { headline: 'x' },
      404,
      'BANNER_NOT_FOUND',
    );
    await http.expectError(
      'PATCH',
      '/api/admin/banners/0190a000-0000-7000-8000-000000000000',
      { headline: 'x' },
      404,
      'BANNER_NOT_FOUND',
    );
  });

  it('schedules: sets the status, dates and recurrence; publishAt must be before expiresAt (merged with the stored one)', async () => {
    const b = await http.banner({ expiresAt: '2026-07-01T00:00:00Z' });
    const scheduled = await http.expectOk('PATCH', `/api/admin/banners/${b.publicId}/schedule`, {
      scheduleStatus: 'scheduled',
      publishAt: '2026-06-01T00:00:00Z',
      recurrenceWindowStart: '09:00:00',
      recurrenceWindowEnd: '17:00:00',
      scheduleTimezone: 'Asia/Kathmandu',
    });
    expect(scheduled).toMatchObject({
      scheduleStatus: 'scheduled',
      publishAt: '2026-06-01T00:00:00.000Z',
      expiresAt: '2026-07-01T00:00:00.000Z',
      recurrenceWindowStart: '09:00:00',
      recurrenceWindowEnd: '17:00:00',
      scheduleTimezone: 'Asia/Kathmandu',
    });
    await http.expectError(
      'PATCH',
      `/api/admin/banners/${b.publicId}/schedule`,
      { publishAt: '2026-08-01T00:00:00Z' },
      400,
      'BANNER_SCHEDULE_INVALID',
    );
    // The schedule route changes schedule fields only.
    await http.expectError(
      'PATCH',
      `/api/admin/banners/${b.publicId}/schedule`,
      { title: 'x' },
      400,
      'VALIDATION_ERROR',
    );
    const cleared = await http.expectOk('PATCH', `/api/admin/banners/${b.publicId}/schedule`, {
      scheduleStatus: 'evergreen',
      publishAt: null,
      expiresAt: null,
    });
    expect(cleared).toMatchObject({ scheduleStatus: 'evergreen', publishAt: null, expiresAt: null });
    expect((await http.activityOf('banner', b.publicId))[0]).toMatchObject({ action: 'schedule' });
  });

  it('activates and deactivates', async () => {
    const b = await http.banner();
    expect((await http.expectOk('PATCH', `/api/admin/banners/${b.publicId}/deactivate`)).isActive).toBe(
      false,
    );
    expect((await http.expectOk('PATCH', `/api/admin/banners/${b.publicId}/deactivate`)).isActive).toBe(
      false,
    );
    expect((await http.expectOk('PATCH', `/api/admin/banners/${b.publicId}/activate`)).isActive).toBe(true);
    const actions = (await http.activityOf('banner', b.publicId)).map((a) => a.action);
    expect(actions.slice(0, 3)).toEqual(['activate', 'deactivate', 'deactivate']);
    await http.expectError(
      'PATCH',
      '/api/admin/banners/0190a000-0000-7000-8000-000000000000/activate',
      undefined,
      404,
      'BANNER_NOT_FOUND',
    );
  });

  it('soft-deletes and restores, with BANNER_ALREADY_DELETED and BANNER_NOT_DELETED', async () => {
    const b = await http.banner();
    await http.expectError(
      'POST',
      `/api/admin/banners/${b.publicId}/restore`,
      undefined,
      400,
      'BANNER_NOT_DELETED',
    );
    const deleted = await http.expectOk('DELETE', `/api/admin/banners/${b.publicId}`);
    expect(deleted.deletedAt).not.toBeNull();
    // Still readable by id, with its deletedAt.
    expect((await http.expectOk('GET', `/api/admin/banners/${b.publicId}`)).deletedAt).toBe(
      deleted.deletedAt,
    );
    await http.expectError(
      'DELETE',
      `/api/admin/banners/${b.publicId}`,
      undefined,
      400,
      'BANNER_ALREADY_DELETED',
    );
    const restored = await http.expectOk('POST', `/api/admin/banners/${b.publicId}/restore`);
    expect(restored.deletedAt).toBeNull();
    const actions = (await http.activityOf('banner', b.publicId)).map((a) => a.action);
    expect(actions.slice(0, 2)).toEqual(['restore', 'delete']);
    await http.expectError(
      'DELETE',
      '/api/admin/banners/0190a000-0000-7000-8000-000000000000',
      undefined,
      404,
      'BANNER_NOT_FOUND',
    );
    await http.expectError(
      'POST',
      '/api/admin/banners/0190a000-0000-7000-8000-000000000000/restore',
      undefined,
      404,
      'BANNER_NOT_FOUND',
    );
  });

  it('guards every route with its permission', async () => {
    const b = await http.banner();
    const id = b.publicId;
    const routes: Array<[Parameters<typeof http.call>[0], string, string, unknown?]> = [
      ['POST', '/api/admin/banners', 'Banners_CREATE', { title: 'x', primaryImageUrl: '/x' }],
      ['GET', '/api/admin/banners', 'Banners_READ'],
      ['GET', `/api/admin/banners/${id}`, 'Banners_READ'],
      ['PATCH', `/api/admin/banners/${id}`, 'Banners_UPDATE', { title: 'y' }],
      ['DELETE', `/api/admin/banners/${id}`, 'Banners_DELETE'],
      ['POST', `/api/admin/banners/${id}/restore`, 'Banners_UPDATE'],
      ['PATCH', `/api/admin/banners/${id}/schedule`, 'Banners_UPDATE', { scheduleStatus: 'draft' }],
      ['PATCH', `/api/admin/banners/${id}/activate`, 'Banners_UPDATE'],
      ['PATCH', `/api/admin/banners/${id}/deactivate`, 'Banners_UPDATE'],
    ];
    for (const [method, url, permission, payload] of routes)
      await http.expectGuarded(method, url, permission, customer, payload);
    // An admin holding just the permission gets through.
    const reader = await signedInAdmin(t, { permissions: ['Banners_READ'] });
    const res = await http.call('GET', `/api/admin/banners/${id}`, undefined, reader.headers);
    expect(res.statusCode).toBe(200);
  });
});
