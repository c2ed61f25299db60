// Content pages over HTTP: every route with its guards, the per-page sections, payload checks
// before any write, ordering, disabled sections hidden from the public, public reads that never
// make a page, meta and SEO, activity, the caches (lifetimes, cleared on write, a failing cache),
// the OpenAPI components of the payloads, and every section key's payloads through the PUT route.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SECTION_KEYS } from '../../../src/modules/content';
import { contentPage } from '../../../src/modules/content/content.schemas';
import { contentPages, contentSections } from '../../../src/modules/content/content.table';
import { envelopeSchema } from '../../../src/platform/http/envelope';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { servicesTier } from '../../helpers/services';
import { contentCalls } from './calls';
import { INVALID_PAYLOADS, PAGE_OF, rt, VALID_PAYLOADS } from './fixtures';

interface Section {
  id: number;
  sectionKey: string;
  position: number;
  isEnabled: boolean;
  payloadJson: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}
interface Page {
  id: number;
  pageKey: string;
  title: string;
  seoId: string | null;
  seo: Record<string, unknown> | null;
  sections: Section[];
}

describe('content pages', () => {
  let t: TestApp;
  let admin: SignedIn;
  let customer: SignedIn;
  let http: ReturnType<typeof contentCalls>;

  beforeAll(async () => {
    // The limits have their own test file; here every test may write freely.
    t = await createTestApp({
      env: { CONTENT_ADMIN_READ_RATE_LIMIT: '100000', CONTENT_ADMIN_WRITE_RATE_LIMIT: '100000' },
    });
    http = contentCalls(t);
    admin = await signedInAdmin(t, { superadmin: true });
    customer = await signedInCustomer(t);
  });
  afterAll(() => t.close());
  afterEach(() => vi.restoreAllMocks());

  const db = () => t.platform.database.db;
  const pageRow = async (pageKey: string) =>
    (await db().select().from(contentPages).where(eq(contentPages.pageKey, pageKey)))[0];

  const put = async (pageKey: string, sectionKey: string, body: object, who: SignedIn = admin) => {
    const res = await http.call('PUT', http.section(pageKey, sectionKey), who.headers, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Section;
  };
  const adminPage = async (pageKey: string) => {
    const res = await http.call('GET', http.admin(pageKey), admin.headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Page;
  };
  const publicPage = async (pageKey: string, prefix = '/api') => {
    const res = await http.call('GET', `${prefix}/content/pages/${pageKey}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Page;
  };
  const createSeo = async (metaTitle: string) => {
    const res = await http.call('POST', '/api/admin/seo', admin.headers, { metaTitle, robotsIndex: true });
    expect(res.statusCode).toBe(201);
    return res.json().data.id as string;
  };

  describe('guards', () => {
    it('admin routes need an admin JWT with the route’s permission; public routes need nothing', async () => {
      await http.expectGuarded('GET', http.admin('home'), 'Content_READ', customer);
      await http.expectGuarded('PATCH', `${http.admin('home')}/meta`, 'Content_UPDATE', customer, {
        title: 'x',
      });
      await http.expectGuarded('PUT', http.section('home', 'hero'), 'Content_UPDATE', customer, {
        payloadJson: VALID_PAYLOADS.hero,
      });
      await http.expectGuarded('DELETE', http.section('home', 'hero'), 'Content_DELETE', customer);
      // Guards ran before anything else: no page was made.
      expect(await pageRow('home')).toBeUndefined();

      const reader = await signedInAdmin(t, { permissions: ['Content_READ'] });
      expect((await http.call('GET', http.admin('faq'), reader.headers)).statusCode).toBe(200);
      for (const prefix of ['/api', '/api/mobile']) {
        const res = await http.call('GET', `${prefix}/content/pages/faq`, customer.headers);
        expect(res.statusCode).toBe(200);
      }
    });

    it('path values outside the enumerations are VALIDATION_ERROR', async () => {
      for (const [method, url] of [
        ['GET', http.admin('contact')],
        ['GET', '/api/content/pages/HOME'],
        ['GET', '/api/mobile/content/pages/blog'],
        ['PATCH', `${http.admin('nope')}/meta`],
        ['PUT', http.section('home', 'banner')],
        ['DELETE', http.section('home', 'footer')],
      ] as const) {
        const res = await http.call(
          method,
          url,
          admin.headers,
          method === 'GET' ? undefined : { title: 'x', payloadJson: {} },
        );
        expect(res.statusCode, url).toBe(400);
        expect(res.json().errorCode).toBe('VALIDATION_ERROR');
        expect(res.json().details[0].path).toMatch(/pageKey|sectionKey/);
      }
    });
  });

  describe('reads', () => {
    it('a public read of a missing page is 404 CONTENT_NOT_FOUND and makes nothing, on both surfaces', async () => {
      for (const prefix of ['/api', '/api/mobile', '/api']) {
        const res = await http.call('GET', `${prefix}/content/pages/products_statues`);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ errorCode: 'CONTENT_NOT_FOUND', statusCode: 404 });
        expect(res.json().path).toBe(`${prefix}/content/pages/products_statues`);
      }
      expect(await pageRow('products_statues')).toBeUndefined();
    });

    it('the admin read makes a missing page with its default title, once; then the public sees it', async () => {
      const first = await adminPage('products_statues');
      expect(first).toMatchObject({
        pageKey: 'products_statues',
        title: 'Statues',
        seoId: null,
        seo: null,
        sections: [],
      });
      expect(first.id).toBeGreaterThan(0);
      expect(await adminPage('products_statues')).toEqual(first);
      // The public 404 cached before is gone: the page exists now (empty).
      expect((await publicPage('products_statues')).sections).toEqual([]);
      const rows = await db().select().from(contentPages).where(eq(contentPages.pageKey, 'products_statues'));
      expect(rows).toHaveLength(1);
    });
  });

  describe('sections', () => {
    it('PUT makes the page when missing and answers the section with defaults', async () => {
      expect(await pageRow('home')).toBeUndefined();
      const section = await put('home', 'hero', { payloadJson: VALID_PAYLOADS.hero });
      expect(section).toEqual({
        id: expect.any(Number),
        sectionKey: 'hero',
        position: 0,
        isEnabled: true,
        payloadJson: VALID_PAYLOADS.hero,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect(Object.keys(section).sort()).toEqual(
        ['createdAt', 'id', 'isEnabled', 'payloadJson', 'position', 'sectionKey', 'updatedAt'].sort(),
      );
      expect((await pageRow('home'))?.title).toBe('Home');
    });

    it('PUT again replaces the same section (upsert by page and key), keeping its id', async () => {
      const before = (await adminPage('home')).sections.find((s) => s.sectionKey === 'hero')!;
      const payload = { ...VALID_PAYLOADS.hero, heading: rt('Autumn collection') };
      const after = await put('home', 'hero', { payloadJson: payload, position: 3, isEnabled: false });
      expect(after).toMatchObject({ id: before.id, position: 3, isEnabled: false, payloadJson: payload });
      expect(after.createdAt).toBe(before.createdAt);
      const rows = await db().select().from(contentSections).where(eq(contentSections.id, before.id));
      expect(rows).toHaveLength(1);
      expect(rows[0]?.payloadJson).toEqual(payload);
    });

    it('orders sections by position, then id', async () => {
      await put('home', 'hero', { payloadJson: VALID_PAYLOADS.hero, position: 2 });
      await put('home', 'why_us', { payloadJson: VALID_PAYLOADS.why_us, position: 1 });
      await put('home', 'top_picks', { payloadJson: VALID_PAYLOADS.top_picks, position: 2 });
      await put('home', 'categories', { payloadJson: VALID_PAYLOADS.categories, position: 0 });
      await put('home', 'blogs', { payloadJson: VALID_PAYLOADS.blogs, position: 1 });
      const page = await adminPage('home');
      const ids = Object.fromEntries(page.sections.map((s) => [s.sectionKey, s.id]));
      // hero was made before top_picks: same position, lower id first.
      expect(ids.hero).toBeLessThan(ids.top_picks!);
      expect(ids.why_us).toBeLessThan(ids.blogs!);
      expect(page.sections.map((s) => s.sectionKey)).toEqual([
        'categories',
        'why_us',
        'blogs',
        'hero',
        'top_picks',
      ]);
      expect((await publicPage('home')).sections.map((s) => s.sectionKey)).toEqual([
        'categories',
        'why_us',
        'blogs',
        'hero',
        'top_picks',
      ]);
    });

    it('hides disabled sections from public and mobile reads, and shows them to admins', async () => {
      await put('home', 'top_picks', {
        payloadJson: VALID_PAYLOADS.top_picks,
        position: 2,
        isEnabled: false,
      });
      const adminView = await adminPage('home');
      expect(adminView.sections.find((s) => s.sectionKey === 'top_picks')?.isEnabled).toBe(false);
      const web = await publicPage('home');
      const mobile = await publicPage('home', '/api/mobile');
      expect(web.sections.map((s) => s.sectionKey)).not.toContain('top_picks');
      expect(web.sections.every((s) => s.isEnabled)).toBe(true);
      expect(mobile).toEqual(web);
      expect(web.sections).toHaveLength(adminView.sections.length - 1);
      // Enabled again: back in the public view.
      await put('home', 'top_picks', { payloadJson: VALID_PAYLOADS.top_picks, position: 2 });
      expect((await publicPage('home', '/api/mobile')).sections.map((s) => s.sectionKey)).toContain(
        'top_picks',
      );
    });

    it('public answers (sent from the cached JSON text) follow the documented page schema', async () => {
      for (const prefix of ['/api', '/api/mobile']) {
        for (let i = 0; i < 2; i++) {
          const res = await http.call('GET', `${prefix}/content/pages/home`);
          expect(res.statusCode).toBe(200);
          expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
          const parsed = envelopeSchema(contentPage).strict().safeParse(res.json());
          expect(parsed.error).toBeUndefined();
          expect(res.json().message).toBe('Content page');
        }
      }
    });

    it('a section the page does not allow is 400 CONTENT_SECTION_KEY_INVALID, and nothing is written', async () => {
      for (const [pageKey, sectionKey] of [
        ['home', 'quote'],
        ['faq', 'hero'],
        ['global_footer', 'document'],
        ['terms_of_service', 'copyright'],
        ['products_jewellery', 'heritage'],
      ] as const) {
        const payloadJson = VALID_PAYLOADS[sectionKey];
        const res = await http.call('PUT', http.section(pageKey, sectionKey), admin.headers, { payloadJson });
        expect(res.statusCode).toBe(400);
        expect(res.json().errorCode).toBe('CONTENT_SECTION_KEY_INVALID');
        const del = await http.call('DELETE', http.section(pageKey, sectionKey), admin.headers);
        expect(del.json().errorCode).toBe('CONTENT_SECTION_KEY_INVALID');
      }
      expect(await pageRow('terms_of_service')).toBeUndefined();
      expect(await pageRow('products_jewellery')).toBeUndefined();
    });

    it('a failing payload is 400 CONTENT_SECTION_PAYLOAD_INVALID naming its path, before any write', async () => {
      const res = await http.call('PUT', http.section('about', 'story_blocks'), admin.headers, {
        payloadJson: {
          blocks: [
            {
              ...(VALID_PAYLOADS.story_blocks.blocks as object[])[0],
              image: { src: 'javascript:x', alt: '' },
            },
          ],
        },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        errorCode: 'CONTENT_SECTION_PAYLOAD_INVALID',
        details: [{ path: 'payload.blocks[0].image.src', message: expect.any(String) }],
      });
      // Not even the page was made.
      expect(await pageRow('about')).toBeUndefined();

      const links = await http.call('PUT', http.section('global_footer', 'quick_links'), admin.headers, {
        payloadJson: INVALID_PAYLOADS.quick_links.payload,
      });
      expect(links.json().details).toEqual([{ path: 'payload.items[2].href', message: expect.any(String) }]);
      expect(await pageRow('global_footer')).toBeUndefined();
    });

    it('a body without payloadJson, or with a bad position or isEnabled, is VALIDATION_ERROR', async () => {
      for (const body of [
        {},
        { payloadJson: 'text' },
        { payloadJson: [] },
        { payloadJson: VALID_PAYLOADS.hero, position: -1 },
        { payloadJson: VALID_PAYLOADS.hero, position: 1.5 },
        { payloadJson: VALID_PAYLOADS.hero, isEnabled: 'yes' },
        // PostgreSQL cannot store a NUL character
        // (docs/decisions.md "Text that cannot be stored": VALIDATION_ERROR, never 500).
        { payloadJson: { ...VALID_PAYLOADS.hero, heading: rt('Null\u0000byte') } },
        { payloadJson: { ...VALID_PAYLOADS.hero, 'key\u0000': 1 } },
      ]) {
        const res = await http.call('PUT', http.section('home', 'hero'), admin.headers, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      }
    });

    it('DELETE removes the row; a missing section or page is 404 CONTENT_NOT_FOUND', async () => {
      const blogs = (await adminPage('home')).sections.find((s) => s.sectionKey === 'blogs')!;
      const res = await http.call('DELETE', http.section('home', 'blogs'), admin.headers);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: 'Content section deleted', data: null });
      expect(await db().select().from(contentSections).where(eq(contentSections.id, blogs.id))).toEqual([]);
      expect((await adminPage('home')).sections.map((s) => s.sectionKey)).not.toContain('blogs');
      expect((await publicPage('home')).sections.map((s) => s.sectionKey)).not.toContain('blogs');

      const again = await http.call('DELETE', http.section('home', 'blogs'), admin.headers);
      expect(again.statusCode).toBe(404);
      expect(again.json().errorCode).toBe('CONTENT_NOT_FOUND');
      const noPage = await http.call('DELETE', http.section('products_singing_bowls', 'hero'), admin.headers);
      expect(noPage.statusCode).toBe(404);
      expect(noPage.json().errorCode).toBe('CONTENT_NOT_FOUND');
      expect(await pageRow('products_singing_bowls')).toBeUndefined();
    });

    it('every write records the admin’s activity on the page', async () => {
      const editor = await signedInAdmin(t, {
        permissions: ['Content_READ', 'Content_UPDATE', 'Content_DELETE'],
      });
      await put('faq', 'faq_intro', { payloadJson: VALID_PAYLOADS.faq_intro }, editor);
      await put('faq', 'faq_intro', { payloadJson: VALID_PAYLOADS.faq_intro, isEnabled: false }, editor);
      expect(
        (await http.call('PATCH', `${http.admin('faq')}/meta`, editor.headers, { title: 'Help' })).statusCode,
      ).toBe(200);
      expect((await http.call('DELETE', http.section('faq', 'faq_intro'), editor.headers)).statusCode).toBe(
        200,
      );
      const page = (await pageRow('faq'))!;
      const entries = await http.activityOf(admin, page.id);
      expect(entries.map((e) => e.action)).toEqual([
        'delete_section',
        'update',
        'update_section',
        'create_section',
      ]);
      expect(entries.every((e) => e.adminId === editor.userId)).toBe(true);
      expect(entries[0]?.summary).toContain('faq_intro');
      expect(entries[2]?.summary).toContain('disabled');
    });
  });

  describe('meta', () => {
    it('sets the title and links an SEO record, resolved on admin and public reads', async () => {
      const seoId = await createSeo('Jewellery from Patan');
      const res = await http.call('PATCH', `${http.admin('products_jewellery')}/meta`, admin.headers, {
        title: 'Silver and turquoise',
        seoId,
      });
      expect(res.statusCode).toBe(200);
      const page = res.json().data as Page;
      expect(page).toMatchObject({
        pageKey: 'products_jewellery',
        title: 'Silver and turquoise',
        seoId,
        sections: [],
      });
      expect(page.seo).toMatchObject({ id: seoId, metaTitle: 'Jewellery from Patan', robotsIndex: true });
      expect(Object.keys(page.seo!).sort()).toEqual(
        [
          'id',
          'metaTitle',
          'metaDescription',
          'metaKeywords',
          'canonicalUrl',
          'robotsIndex',
          'robotsFollow',
          'robotsAdvanced',
          'ogTitle',
          'ogDescription',
          'ogType',
          'ogUrl',
          'ogImageUrl',
          'ogSiteName',
          'socialCard',
          'socialSite',
          'socialCreator',
          'socialTitle',
          'socialDescription',
          'socialImageUrl',
          'alternates',
          'structuredDataJsonLd',
        ].sort(),
      );
      expect((await publicPage('products_jewellery')).seo).toEqual(page.seo);
      expect((await adminPage('products_jewellery')).title).toBe('Silver and turquoise');

      // Title only keeps the link; null clears it.
      const titled = await http.call('PATCH', `${http.admin('products_jewellery')}/meta`, admin.headers, {
        title: 'Jewellery',
      });
      expect(titled.json().data).toMatchObject({ title: 'Jewellery', seoId });
      const cleared = await http.call('PATCH', `${http.admin('products_jewellery')}/meta`, admin.headers, {
        seoId: null,
      });
      expect(cleared.json().data).toMatchObject({ title: 'Jewellery', seoId: null, seo: null });
      expect((await publicPage('products_jewellery')).seo).toBeNull();
    });

    it('an unknown seoId is 400 CONTENT_SEO_NOT_FOUND; one held by another page is 409', async () => {
      const unknown = await http.call('PATCH', `${http.admin('about')}/meta`, admin.headers, {
        seoId: '0190a3c4-0000-7000-8000-000000000000',
      });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().errorCode).toBe('CONTENT_SEO_NOT_FOUND');
      expect(await pageRow('about')).toBeUndefined();

      const seoId = await createSeo('Shared');
      expect(
        (await http.call('PATCH', `${http.admin('products_jewellery')}/meta`, admin.headers, { seoId }))
          .statusCode,
      ).toBe(200);
      // The same page again is fine.
      expect(
        (await http.call('PATCH', `${http.admin('products_jewellery')}/meta`, admin.headers, { seoId }))
          .statusCode,
      ).toBe(200);
      const taken = await http.call('PATCH', `${http.admin('products_statues')}/meta`, admin.headers, {
        seoId,
      });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().errorCode).toBe('CONTENT_SEO_ALREADY_LINKED');
      expect((await adminPage('products_statues')).seoId).toBeNull();
      // The record a page uses cannot be deleted.
      const del = await http.call('DELETE', `/api/admin/seo/${seoId}`, admin.headers);
      expect(del.statusCode).toBe(409);
    });

    it('an empty body, a blank or long title, or a bad seoId is VALIDATION_ERROR', async () => {
      for (const body of [
        {},
        { title: '  ' },
        { title: 'x'.repeat(256) },
        { seoId: 'abc' },
        { title: 7 },
        { title: 'a\u0000b' },
      ]) {
        const res = await http.call('PATCH', `${http.admin('home')}/meta`, admin.headers, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      }
      const longest = await http.call('PATCH', `${http.admin('home')}/meta`, admin.headers, {
        title: 'x'.repeat(255),
      });
      expect(longest.statusCode).toBe(200);
    });
  });

  describe('caches', () => {
    const setDirectly = async (pageKey: string, title: string) =>
      db().update(contentPages).set({ title }).where(eq(contentPages.pageKey, pageKey));

    it('keeps public reads for 300 s and admin reads for 120 s', async () => {
      const set = vi.spyOn(t.platform.cache, 'set');
      await put('terms_of_service', 'document', { payloadJson: VALID_PAYLOADS.document });
      await publicPage('terms_of_service');
      await adminPage('terms_of_service');
      expect(set).toHaveBeenCalledWith('content:page:public:terms_of_service', expect.anything(), 300_000, {
        local: true,
      });
      // The admin view is never copied into the process (only shared public reads are).
      expect(set).toHaveBeenCalledWith(
        'content:page:admin:terms_of_service',
        expect.anything(),
        120_000,
        undefined,
      );
    });

    it('serves reads from the cache, and every write clears both views at once', async () => {
      await setDirectly('terms_of_service', 'Changed behind the cache');
      // Cached: the change made without the API does not show yet.
      expect((await publicPage('terms_of_service')).title).toBe('Terms of service');
      expect((await publicPage('terms_of_service', '/api/mobile')).title).toBe('Terms of service');
      expect((await adminPage('terms_of_service')).title).toBe('Terms of service');

      const payload = { ...VALID_PAYLOADS.document, title: 'Terms of sale' };
      await put('terms_of_service', 'document', { payloadJson: payload });
      const web = await publicPage('terms_of_service');
      expect(web.title).toBe('Changed behind the cache');
      expect(web.sections[0]?.payloadJson).toEqual(payload);
      expect((await adminPage('terms_of_service')).sections[0]?.payloadJson).toEqual(payload);

      // Meta and delete clear them too.
      await setDirectly('terms_of_service', 'Behind again');
      await publicPage('terms_of_service');
      expect(
        (
          await http.call('PATCH', `${http.admin('terms_of_service')}/meta`, admin.headers, {
            title: 'Terms',
          })
        ).statusCode,
      ).toBe(200);
      expect((await publicPage('terms_of_service')).title).toBe('Terms');
      expect(
        (await http.call('DELETE', http.section('terms_of_service', 'document'), admin.headers)).statusCode,
      ).toBe(200);
      expect((await publicPage('terms_of_service')).sections).toEqual([]);
      expect((await adminPage('terms_of_service')).sections).toEqual([]);
    });

    it('clears once more shortly after a write, so a read that raced the write cannot keep a stale page', async () => {
      const before = await publicPage('terms_of_service');
      await put('terms_of_service', 'document', { payloadJson: VALID_PAYLOADS.document, position: 4 });
      // A reader that loaded the page before the commit stores it after the first clear.
      await t.platform.cache.set('content:page:public:terms_of_service', JSON.stringify(before), 300_000);
      expect((await publicPage('terms_of_service')).sections).toEqual(before.sections);
      await new Promise((resolve) => setTimeout(resolve, 1_300));
      expect((await publicPage('terms_of_service')).sections.map((s) => s.position)).toEqual([4]);
    });

    it('a failed write leaves the cache as it was', async () => {
      await publicPage('terms_of_service');
      const del = vi.spyOn(t.platform.cache, 'delete');
      const res = await http.call('PUT', http.section('terms_of_service', 'document'), admin.headers, {
        payloadJson: INVALID_PAYLOADS.document.payload,
      });
      expect(res.statusCode).toBe(400);
      // (Earlier writes to other pages may still run their delayed second clear.)
      expect(del.mock.calls.filter(([key]) => key.endsWith(':terms_of_service'))).toEqual([]);
    });

    it('falls back to the database when the cache fails, and writes still succeed', async () => {
      const broken = () => Promise.reject(new Error('cache unreachable'));
      vi.spyOn(t.platform.cache, 'get').mockImplementation(broken);
      vi.spyOn(t.platform.cache, 'set').mockImplementation(broken);
      vi.spyOn(t.platform.cache, 'delete').mockImplementation(broken);

      await setDirectly('terms_of_service', 'Read from the database');
      expect((await publicPage('terms_of_service')).title).toBe('Read from the database');
      expect((await publicPage('terms_of_service', '/api/mobile')).title).toBe('Read from the database');
      expect((await adminPage('terms_of_service')).title).toBe('Read from the database');
      const missing = await http.call('GET', '/api/content/pages/products_singing_bowls');
      expect(missing.json().errorCode).toBe('CONTENT_NOT_FOUND');

      const saved = await http.call('PUT', http.section('terms_of_service', 'document'), admin.headers, {
        payloadJson: VALID_PAYLOADS.document,
      });
      expect(saved.statusCode).toBe(200);
      expect((await publicPage('terms_of_service')).sections).toHaveLength(1);
      const meta = await http.call('PATCH', `${http.admin('terms_of_service')}/meta`, admin.headers, {
        title: 'Terms',
      });
      expect(meta.statusCode).toBe(200);
      expect(
        (await http.call('DELETE', http.section('terms_of_service', 'document'), admin.headers)).statusCode,
      ).toBe(200);
    });

    // The in-process cache cannot hang; the Redis adapter's own timeout is tested on both tiers
    // in test/platform/cache.test.ts.
    it.runIf(servicesTier)(
      'falls back to the database when Redis hangs (CACHE_COMMAND_TIMEOUT_MS)',
      async () => {
        const redis = t.platform.redis!;
        // No copy in this process either (CACHE_LOCAL_TTL_MS): the read must reach Redis.
        await t.platform.cache.delete('content:page:public:terms_of_service');
        const spy = vi.spyOn(redis, 'get').mockImplementation(() => new Promise(() => {}) as never);
        try {
          await setDirectly('terms_of_service', 'Cache hangs');
          const started = Date.now();
          expect((await publicPage('terms_of_service')).title).toBe('Cache hangs');
          expect(spy).toHaveBeenCalled();
          expect(Date.now() - started).toBeLessThan(5_000);
        } finally {
          spy.mockRestore();
        }
      },
    );
  });

  it('documents every section payload schema as a named OpenAPI component', async () => {
    const res = await http.call('GET', '/docs/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    const schemas = doc.components.schemas as Record<
      string,
      { type?: string; properties?: Record<string, unknown>; required?: string[] }
    >;
    for (const name of [
      'ContentHeroPayload',
      'ContentHeadingBlockPayload',
      'ContentHeritagePayload',
      'ContentFeatureCardsPayload',
      'ContentFaqIntroPayload',
      'ContentBlogsPayload',
      'ContentQuotePayload',
      'ContentStoryBlocksPayload',
      'ContentListingHeaderPayload',
      'ContentBrandBlockPayload',
      'ContentLinkListPayload',
      'ContentFeaturedCollectionsCardsPayload',
      'ContentCopyrightPayload',
      'ContentDocumentPayload',
      'ContentImage',
      'ContentCta',
      'ContentSafeUrl',
      'ContentPage',
      'ContentSection',
    ]) {
      expect(schemas, name).toHaveProperty(name);
    }
    expect(schemas.ContentHeroPayload?.required?.sort()).toEqual(['description', 'heading', 'label']);
    expect(Object.keys(schemas.ContentHeroPayload?.properties ?? {}).sort()).toEqual(
      ['cta', 'description', 'heading', 'images', 'label'].sort(),
    );
    expect(schemas.ContentLinkListPayload?.properties?.items).toMatchObject({ minItems: 1, maxItems: 20 });
    expect(JSON.stringify(schemas.ContentCta)).toContain('#/components/schemas/ContentSafeUrl');
    const admin = doc.paths['/api/admin/content/pages/{pageKey}'].get;
    expect(admin.description).toContain('Content_READ');
    expect(doc.paths['/api/content/pages/{pageKey}'].get.security).toEqual([]);
    expect(doc.paths['/api/mobile/content/pages/{pageKey}']).toBeDefined();
    expect(doc.paths['/api/admin/content/pages/{pageKey}/sections/{sectionKey}'].put).toBeDefined();
  });

  describe('every section key through PUT', () => {
    it.each(SECTION_KEYS.map((k) => [k]))('%s: the valid payload is stored and served', async (key) => {
      const pageKey = PAGE_OF[key];
      const section = await put(pageKey, key, { payloadJson: VALID_PAYLOADS[key], position: 5 });
      expect(section.payloadJson).toEqual(VALID_PAYLOADS[key]);
      const served = (await publicPage(pageKey)).sections.find((s) => s.sectionKey === key);
      expect(served?.payloadJson).toEqual(VALID_PAYLOADS[key]);
    });

    it.each(SECTION_KEYS.map((k) => [k]))(
      '%s: the invalid payload is refused and the stored one kept',
      async (key) => {
        const pageKey = PAGE_OF[key];
        const { payload, path } = INVALID_PAYLOADS[key];
        const res = await http.call('PUT', http.section(pageKey, key), admin.headers, {
          payloadJson: payload,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().errorCode).toBe('CONTENT_SECTION_PAYLOAD_INVALID');
        expect(res.json().details.map((d: { path: string }) => d.path)).toContain(path);
        const stored = (await adminPage(pageKey)).sections.find((s) => s.sectionKey === key);
        expect(stored?.payloadJson).toEqual(VALID_PAYLOADS[key]);
      },
    );
  });
});
