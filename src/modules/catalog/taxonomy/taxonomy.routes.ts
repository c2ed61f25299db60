// Admin CRUD of categories, brands and tags (/api/admin/categories|brands|tags), and the
// public category and brand lists of both surfaces.
import { z } from 'zod';
import { access } from '../../../platform/auth/access';
import type { UserPrincipal } from '../../../platform/auth/principal';
import { currentUser } from '../../../platform/http/access-hook';
import { envelopeSchema, listEnvelopeSchema, ok, okWithMeta } from '../../../platform/http/envelope';
import type { AppError } from '../../../platform/http/errors';
import type { PageMeta } from '../../../platform/http/pagination';
import { intIdParams } from '../../../platform/http/params';
import type { ApiApp, ModuleContext } from '../../../platform/module';
import { catalogErrors } from '../catalog.errors';
import { brandPermissions, categoryPermissions, tagPermissions } from '../catalog.permissions';
import * as s from './taxonomy.schemas';
import * as taxonomy from './taxonomy.service';

type Deps = taxonomy.TaxonomyDeps;

interface Record<
  Item extends z.ZodType,
  Query extends z.ZodType,
  Create extends z.ZodType,
  Update extends z.ZodType,
> {
  path: string;
  /** Singular and plural nouns for summaries and messages. */
  one: string;
  many: string;
  permissions: { READ: string; CREATE: string; UPDATE: string; DELETE: string };
  item: Item;
  listQuery: Query;
  createBody: Create;
  updateBody: Update;
  list(deps: Deps, q: z.output<Query>): Promise<{ items: z.output<Item>[]; meta: PageMeta }>;
  get(deps: Deps, id: number): Promise<z.output<Item>>;
  create(deps: Deps, actor: UserPrincipal, body: z.output<Create>): Promise<z.output<Item>>;
  update(deps: Deps, actor: UserPrincipal, id: number, body: z.output<Update>): Promise<z.output<Item>>;
  remove(deps: Deps, actor: UserPrincipal, id: number): Promise<void>;
  deleteNote: string;
  /** What each admin route can be refused for beyond validation (the OpenAPI document's errors). */
  errors: { get: AppError[]; create: AppError[]; update: AppError[]; remove: AppError[] };
}

/** The five admin routes every taxonomy record has; the records differ only in their rules. */
function adminRecordRoutes<
  I extends z.ZodType,
  Q extends z.ZodType,
  C extends z.ZodType,
  U extends z.ZodType,
>(app: ApiApp, deps: Deps, r: Record<I, Q, C, U>) {
  const tags = [r.many];
  const Title = r.one[0]!.toUpperCase() + r.one.slice(1);
  const Many = r.many[0]!.toUpperCase() + r.many.slice(1);
  // Plain schema types: the compiler cannot relate a generic schema to the reply type; the
  // services' signatures above keep the pairs honest, and the schemas check every reply.
  const item: z.ZodType = r.item;
  const createBody: z.ZodType = r.createBody;
  const updateBody: z.ZodType = r.updateBody;
  const listQuery: z.ZodType = r.listQuery;

  app.get(
    r.path,
    {
      config: { access: access.admin(r.permissions.READ) },
      schema: {
        tags,
        summary: `${Many}, paginated`,
        querystring: listQuery,
        response: { 200: listEnvelopeSchema(item) },
      },
    },
    async (request) => {
      const { items, meta } = await r.list(deps, request.query as z.output<Q>);
      return okWithMeta(items, meta, Many);
    },
  );

  app.get(
    `${r.path}/:id`,
    {
      config: { access: access.admin(r.permissions.READ), errors: r.errors.get },
      schema: { tags, summary: `One ${r.one}`, params: intIdParams, response: { 200: envelopeSchema(item) } },
    },
    async (request) => ok(await r.get(deps, request.params.id), Title),
  );

  app.post(
    r.path,
    {
      config: { access: access.admin(r.permissions.CREATE), errors: r.errors.create },
      schema: {
        tags,
        summary: `Create a ${r.one}`,
        body: createBody,
        response: { 201: envelopeSchema(item) },
      },
    },
    async (request, reply) => {
      const created = await r.create(deps, currentUser(request), request.body as z.output<C>);
      reply.status(201);
      return ok(created, `${Title} created`);
    },
  );

  app.patch(
    `${r.path}/:id`,
    {
      config: { access: access.admin(r.permissions.UPDATE), errors: r.errors.update },
      schema: {
        tags,
        summary: `Change fields of a ${r.one}`,
        params: intIdParams,
        body: updateBody,
        response: { 200: envelopeSchema(item) },
      },
    },
    async (request) =>
      ok(
        await r.update(deps, currentUser(request), request.params.id, request.body as z.output<U>),
        `${Title} updated`,
      ),
  );

  app.delete(
    `${r.path}/:id`,
    {
      config: { access: access.admin(r.permissions.DELETE), errors: r.errors.remove },
      schema: {
        tags,
        summary: r.deleteNote,
        params: intIdParams,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await r.remove(deps, currentUser(request), request.params.id);
      return ok(null, `${Title} deleted`);
    },
  );
}

export function taxonomyRoutes(ctx: ModuleContext) {
  const { app } = ctx;

  adminRecordRoutes(app, ctx, {
    path: '/api/admin/categories',
    one: 'category',
    many: 'categories',
    permissions: categoryPermissions,
    item: s.category,
    listQuery: s.categoryListQuery,
    createBody: s.createCategoryBody,
    updateBody: s.updateCategoryBody,
    list: async (deps, q) => {
      const { categories, meta } = await taxonomy.listCategories(deps, q);
      return { items: categories, meta };
    },
    get: taxonomy.getCategory,
    create: taxonomy.createCategory,
    update: taxonomy.updateCategory,
    remove: taxonomy.deleteCategory,
    deleteNote: 'Delete a category without products or sub-categories (else 409 CATEGORY_NOT_EMPTY)',
    errors: {
      get: [catalogErrors.categoryNotFound(0)],
      create: [
        catalogErrors.categoryParentInvalid(''),
        catalogErrors.categorySeoInvalid(''),
        catalogErrors.categorySlugExists(''),
      ],
      update: [
        catalogErrors.categoryNotFound(0),
        catalogErrors.categoryParentInvalid(''),
        catalogErrors.categorySeoInvalid(''),
        catalogErrors.categorySlugExists(''),
      ],
      remove: [catalogErrors.categoryNotFound(0), catalogErrors.categoryNotEmpty()],
    },
  });

  adminRecordRoutes(app, ctx, {
    path: '/api/admin/brands',
    one: 'brand',
    many: 'brands',
    permissions: brandPermissions,
    item: s.brand,
    listQuery: s.brandListQuery,
    createBody: s.createBrandBody,
    updateBody: s.updateBrandBody,
    list: async (deps, q) => {
      const { brands, meta } = await taxonomy.listBrands(deps, q);
      return { items: brands, meta };
    },
    get: taxonomy.getBrand,
    create: taxonomy.createBrand,
    update: taxonomy.updateBrand,
    remove: taxonomy.deleteBrand,
    deleteNote: 'Delete a brand no product uses (else 409 BRAND_IN_USE)',
    errors: {
      get: [catalogErrors.brandNotFound(0)],
      create: [catalogErrors.brandSlugExists('')],
      update: [catalogErrors.brandNotFound(0), catalogErrors.brandSlugExists('')],
      remove: [catalogErrors.brandNotFound(0), catalogErrors.brandInUse()],
    },
  });

  adminRecordRoutes(app, ctx, {
    path: '/api/admin/tags',
    one: 'tag',
    many: 'tags',
    permissions: tagPermissions,
    item: s.tag,
    listQuery: s.tagListQuery,
    createBody: s.createTagBody,
    updateBody: s.updateTagBody,
    list: async (deps, q) => {
      const { tags, meta } = await taxonomy.listTags(deps, q);
      return { items: tags, meta };
    },
    get: taxonomy.getTag,
    create: taxonomy.createTag,
    update: taxonomy.updateTag,
    remove: taxonomy.deleteTag,
    deleteNote: 'Delete a tag; it is taken off every product',
    errors: {
      get: [catalogErrors.tagNotFound(0)],
      create: [catalogErrors.tagSlugExists('')],
      update: [catalogErrors.tagNotFound(0), catalogErrors.tagSlugExists('')],
      remove: [catalogErrors.tagNotFound(0)],
    },
  });

  // Public lists: small and whole (no pagination), so a client builds its menu in one call.
  const countMeta = z.object({ message: z.string(), meta: z.object({ count: z.number().int() }) });
  for (const prefix of ['/api', '/api/mobile']) {
    app.get(
      `${prefix}/categories`,
      {
        config: { access: access.public() },
        schema: {
          tags: ['catalog'],
          summary: 'Active categories (flat, with parentId) and their published product counts',
          response: { 200: countMeta.extend({ data: z.array(s.publicCategory) }) },
        },
      },
      async () => {
        const data = await taxonomy.publicCategories(ctx);
        return okWithMeta(data, { count: data.length }, 'Categories');
      },
    );
    app.get(
      `${prefix}/brands`,
      {
        config: { access: access.public() },
        schema: {
          tags: ['catalog'],
          summary: 'Active brands and their published product counts',
          response: { 200: countMeta.extend({ data: z.array(s.publicBrand) }) },
        },
      },
      async () => {
        const data = await taxonomy.publicBrands(ctx);
        return okWithMeta(data, { count: data.length }, 'Brands');
      },
    );
  }
}
