// HTTP helpers of the blog tests. Every call comes from its own address unless a test names
// one, so the per-IP admin limits (tested on their own) never get in the way of the others.
import { expect } from 'vitest';
import { products } from '../../../src/modules/catalog/products/products.table';
import { createTestApp, type TestApp, type TestAppOptions } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

let address = 0;
const nextAddress = () => {
  address += 1;
  return `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
};

export function caller(t: TestApp) {
  const call = (
    method: Method,
    url: string,
    headers: Record<string, string> = {},
    payload?: unknown,
    remoteAddress = nextAddress(),
  ) =>
    t.app.inject({
      method,
      url,
      headers,
      remoteAddress,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  /** 401 without a token, 403 AUTH_FORBIDDEN for a customer, 403 AUTH_PERMISSION_DENIED without `permission`. */
  async function expectGuarded(
    method: Method,
    url: string,
    permission: string,
    customer: SignedIn,
    payload?: unknown,
  ) {
    const none = await call(method, url, {}, payload);
    expect(none.statusCode).toBe(401);
    expect(none.json().errorCode).toBe('AUTH_UNAUTHORIZED');
    const asCustomer = await call(method, url, customer.headers, payload);
    expect(asCustomer.statusCode).toBe(403);
    expect(asCustomer.json().errorCode).toBe('AUTH_FORBIDDEN');
    const others = ['Blog_READ', 'Blog_CREATE', 'Blog_UPDATE', 'Blog_DELETE'].filter((p) => p !== permission);
    const other = await signedInAdmin(t, { permissions: others });
    const denied = await call(method, url, other.headers, payload);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().errorCode).toBe('AUTH_PERMISSION_DENIED');
    expect(denied.json().message).toContain(permission);
  }

  async function activityOf(auditor: SignedIn, entityType: string, entityId: string | number) {
    const res = await call(
      'GET',
      `/api/admin/activity?entityType=${entityType}&entityId=${entityId}`,
      auditor.headers,
    );
    expect(res.statusCode).toBe(200);
    return res.json().data as Array<{ adminId: string; action: string; summary: string }>;
  }

  return { call, expectGuarded, activityOf };
}

let productSeq = 0;
/** A product row (the product routes are tested by the catalog). */
export async function insertProduct(
  t: TestApp,
  values: Partial<typeof products.$inferInsert> = {},
): Promise<number> {
  productSeq += 1;
  const slug = `blog-test-product-${productSeq}-${Math.random().toString(36).slice(2, 8)}`;
  const [row] = await t.platform.database.db
    .insert(products)
    .values({ title: slug, slug, mrp: 1000, productKind: 'physical', status: 'published', ...values })
    .returning({ id: products.id });
  return row!.id;
}

/** A test app with a superadmin (who also reads the activity trail) and a customer. */
export async function blogTestApp(opts: TestAppOptions = {}) {
  const t = await createTestApp(opts);
  const http = caller(t);
  const admin = await signedInAdmin(t, { superadmin: true });
  const customer = await signedInCustomer(t);

  async function createSeo(metaTitle = 'SEO'): Promise<string> {
    const res = await http.call('POST', '/api/admin/seo', admin.headers, { metaTitle });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id;
  }
  async function createCategory(name: string, description?: string) {
    const res = await http.call('POST', '/api/admin/blog/categories', admin.headers, { name, description });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: number; name: string; slug: string };
  }
  async function createPost(body: Record<string, unknown>) {
    const res = await http.call('POST', '/api/admin/blog/posts', admin.headers, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as AdminPost;
  }
  async function updatePost(id: number, body: Record<string, unknown>) {
    const res = await http.call('PUT', `/api/admin/blog/posts/${id}`, admin.headers, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as AdminPost;
  }
  async function publish(id: number) {
    const res = await http.call('POST', `/api/admin/blog/posts/${id}/publish`, admin.headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as AdminPost;
  }
  return {
    t,
    db: t.platform.database.db,
    http,
    admin,
    customer,
    createSeo,
    createCategory,
    createPost,
    updatePost,
    publish,
  };
}

export interface AdminPost {
  id: number;
  title: string;
  slug: string;
  excerpt: string | null;
  heroIntro: string | null;
  body: string;
  featuredImageUrl: string | null;
  featuredImageAlt: string | null;
  displayDate: string | null;
  categoryId: number | null;
  category: { id: number; name: string; slug: string } | null;
  seoId: string | null;
  status: 'draft' | 'published';
  publishedAt: string | null;
  authorId: string | null;
  authorName: string | null;
  productIds: number[];
  faqs: Array<{ id: number; question: string; answer: string; position: number }>;
  cta: { ctaTitle: string; ctaButtonLabel: string; ctaButtonLink: string; position: number } | null;
  videos: Array<{
    id: number;
    title: string;
    videoUrl: string;
    seoId: string;
    description: string | null;
    thumbnailUrl: string | null;
    position: number;
  }>;
  previousSlugs: string[];
  createdAt: string;
  updatedAt: string;
}
