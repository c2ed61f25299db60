// Blog categories: admin writes (slug made from the name, unique), the admin list with post
// counts, and the public list with published post counts.
import type { UserPrincipal } from '../../../platform/auth/principal';
import { type PageMeta, pageMeta, pageWindow } from '../../../platform/http/pagination';
import { slugify } from '../../catalog';
import { readThrough } from '../blog.cache';
import { blogErrors } from '../blog.errors';
import { type BlogDeps, blogWrite, cacheDeps } from '../blog.service';
import * as repo from './categories.repository';
import type {
  AdminCategoryListQuery,
  AdminCategoryView,
  CategoryBody,
  PublicCategoryView,
  UpdateCategoryBody,
} from './categories.schemas';

const CATEGORY = { entityType: 'blog_category' } as const;

type Counted = { category: repo.CategoryRow; postCount: number; publishedPostCount: number };

const toAdminView = (r: Counted): AdminCategoryView => ({
  id: r.category.id,
  name: r.category.name,
  slug: r.category.slug,
  description: r.category.description,
  postCount: Number(r.postCount),
  publishedPostCount: Number(r.publishedPostCount),
  createdAt: r.category.createdAt.toISOString(),
  updatedAt: r.category.updatedAt.toISOString(),
});

/** A category's slug is its name's; another category holding it is a 409. */
export const categorySlugOf = (name: string) => slugify(name, 'category');

async function adminView(deps: BlogDeps, id: number): Promise<AdminCategoryView> {
  const row = await repo.categoryWithCounts(deps.db, id);
  if (!row) throw blogErrors.categoryNotFound(id);
  return toAdminView(row);
}

export async function createCategory(
  deps: BlogDeps,
  actor: UserPrincipal,
  body: CategoryBody,
): Promise<AdminCategoryView> {
  const row = await blogWrite(
    deps,
    actor,
    { ...CATEGORY, action: 'create' },
    async (tx, now) => {
      const slug = categorySlugOf(body.name);
      if (await repo.findCategoryBySlug(tx, slug)) throw blogErrors.categorySlugExists(slug);
      return repo.insertCategory(tx, {
        name: body.name,
        slug,
        description: body.description ?? null,
        createdAt: now,
        updatedAt: now,
      });
    },
    (r) => ({ entityId: r.id, summary: `Created blog category ${r.name} (${r.slug})` }),
  );
  return adminView(deps, row.id);
}

export async function updateCategory(
  deps: BlogDeps,
  actor: UserPrincipal,
  id: number,
  body: UpdateCategoryBody,
): Promise<AdminCategoryView> {
  await blogWrite(
    deps,
    actor,
    { ...CATEGORY, action: 'update' },
    async (tx, now) => {
      const before = await repo.findCategory(tx, id);
      if (!before) throw blogErrors.categoryNotFound(id);
      const slug = body.name !== undefined ? categorySlugOf(body.name) : before.slug;
      if (slug !== before.slug) {
        const holder = await repo.findCategoryBySlug(tx, slug);
        if (holder && holder.id !== id) throw blogErrors.categorySlugExists(slug);
      }
      const row = await repo.updateCategory(tx, id, {
        ...(body.name !== undefined ? { name: body.name, slug } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        updatedAt: now,
      });
      return { row: row!, before };
    },
    ({ row, before }) => ({
      entityId: id,
      summary: `Updated blog category ${row.name}${row.slug !== before.slug ? ` (slug was ${before.slug})` : ''}`,
    }),
  );
  return adminView(deps, id);
}

export async function deleteCategory(deps: BlogDeps, actor: UserPrincipal, id: number): Promise<void> {
  await blogWrite(
    deps,
    actor,
    { ...CATEGORY, action: 'delete' },
    async (tx) => {
      const row = await repo.findCategory(tx, id);
      if (!row) throw blogErrors.categoryNotFound(id);
      if ((await repo.countPostsIn(tx, id)) > 0) throw blogErrors.categoryNotEmpty();
      await repo.deleteCategory(tx, id);
      return row;
    },
    (r) => ({ entityId: id, summary: `Deleted blog category ${r.name}` }),
  );
}

export const getAdminCategory = (deps: BlogDeps, id: number) => adminView(deps, id);

export async function listAdminCategories(
  deps: BlogDeps,
  q: AdminCategoryListQuery,
): Promise<{ categories: AdminCategoryView[]; meta: PageMeta }> {
  const { rows, count } = await repo.listAdminCategories(deps.db, q, pageWindow(q));
  return { categories: rows.map(toAdminView), meta: pageMeta(q, count) };
}

/** Every category with its count of published posts, by name; cached with the public reads. */
export function listPublicCategories(deps: BlogDeps): Promise<PublicCategoryView[]> {
  return readThrough(cacheDeps(deps), 'categories', async () => {
    const rows = await repo.listPublicCategories(deps.db);
    return rows.map((r) => ({
      id: r.category.id,
      name: r.category.name,
      slug: r.category.slug,
      description: r.category.description,
      postCount: Number(r.postCount),
    }));
  });
}
