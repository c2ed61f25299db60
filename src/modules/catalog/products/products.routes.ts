// Admin products (/api/admin/products, Products_*) and the public catalog of both surfaces
// (/api/products, /api/mobile/products). Lists with a `search` are rate limited.
import type { RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../../config';
import { access } from '../../../platform/auth/access';
import { currentUser } from '../../../platform/http/access-hook';
import {
  envelopeSchema,
  listEnvelopeSchema,
  ok,
  okWithMeta,
  sendSerialized,
  sendSerializedPage,
} from '../../../platform/http/envelope';
import { rateLimiter } from '../../../platform/http/openapi';
import { intIdParams } from '../../../platform/http/params';
import type { ModuleContext } from '../../../platform/module';
import { catalogErrors } from '../catalog.errors';
import { productPermissions } from '../catalog.permissions';
import * as s from './products.schemas';
import * as products from './products.service';

const hasSearch = (request: FastifyRequest) =>
  Boolean((request.query as { search?: string } | undefined)?.search);

/**
 * The search limits (docs/api-notes.md, "Product search"): they count only requests with a
 * `search`, per admin on the admin list and per IP on the public lists (both surfaces share
 * one counter). When the limiter's store fails, requests go through (`skipOnError`).
 */
export function productSearchLimits(config: Config, surface: 'admin' | 'public'): RateLimitOptions {
  const admin = surface === 'admin';
  return {
    max: admin
      ? config.CATALOG_ADMIN_PRODUCT_SEARCH_RATE_LIMIT
      : config.CATALOG_CUSTOMER_PRODUCT_SEARCH_RATE_LIMIT,
    timeWindow:
      (admin
        ? config.CATALOG_ADMIN_PRODUCT_SEARCH_RATE_WINDOW_SECONDS
        : config.CATALOG_CUSTOMER_PRODUCT_SEARCH_RATE_WINDOW_SECONDS) * 1000,
    skipOnError: true,
    allowList: (request) => !hasSearch(request),
    keyGenerator: (request) =>
      admin
        ? `product-search:admin:${request.principal?.actor === 'guest' ? '' : request.principal?.userId}`
        : `product-search:ip:${request.ip}`,
  };
}

/** What a product write can be refused for, beyond validation (documented in the OpenAPI document). */
const productWriteErrors = [
  catalogErrors.productSlugExists(''),
  ...(['CATEGORY', 'BRAND', 'TAG', 'SEO', 'CARE_PACKAGE_TIER'] as const).map((what) =>
    catalogErrors.productReferenceInvalid(what, ''),
  ),
];

export function productRoutes(ctx: ModuleContext) {
  const { app, config } = ctx;
  const tags = ['products'];
  const adminSearchLimit = rateLimiter(app, productSearchLimits(config, 'admin'));
  const publicSearchLimit = rateLimiter(app, productSearchLimits(config, 'public'));

  app.get(
    '/api/admin/products',
    {
      config: { access: access.admin(productPermissions.READ) },
      preHandler: adminSearchLimit,
      schema: {
        tags,
        summary: 'Products with admin filters and search',
        querystring: s.adminProductListQuery,
        response: { 200: listEnvelopeSchema(s.adminProduct) },
      },
    },
    async (request) => {
      const { products: data, meta } = await products.listAdminProducts(ctx, request.query);
      return okWithMeta(data, meta, 'Products');
    },
  );

  app.get(
    '/api/admin/products/:id',
    {
      config: { access: access.admin(productPermissions.READ), errors: [catalogErrors.productNotFound()] },
      schema: {
        tags,
        summary: 'One product',
        params: intIdParams,
        response: { 200: envelopeSchema(s.adminProduct) },
      },
    },
    async (request) => ok(await products.getAdminProduct(ctx, request.params.id), 'Product'),
  );

  app.post(
    '/api/admin/products',
    {
      config: {
        access: access.admin(productPermissions.CREATE),
        errors: productWriteErrors,
      },
      schema: {
        tags,
        summary: 'Create a product (draft unless status says otherwise)',
        body: s.createProductBody,
        response: { 201: envelopeSchema(s.adminProduct) },
      },
    },
    async (request, reply) => {
      const product = await products.createProduct(ctx, currentUser(request), request.body);
      reply.status(201);
      return ok(product, 'Product created');
    },
  );

  app.patch(
    '/api/admin/products/:id',
    {
      config: {
        access: access.admin(productPermissions.UPDATE),
        errors: [catalogErrors.productNotFound(), ...productWriteErrors],
      },
      schema: {
        tags,
        summary: 'Change fields of a product; a new slug keeps the old one as a redirect',
        params: intIdParams,
        body: s.updateProductBody,
        response: { 200: envelopeSchema(s.adminProduct) },
      },
    },
    async (request) =>
      ok(
        await products.updateProduct(ctx, currentUser(request), request.params.id, request.body),
        'Product updated',
      ),
  );

  app.delete(
    '/api/admin/products/:id',
    {
      config: { access: access.admin(productPermissions.DELETE), errors: [catalogErrors.productNotFound()] },
      schema: {
        tags,
        summary: 'Archive a product (it stays for orders and history)',
        params: intIdParams,
        response: { 200: envelopeSchema(s.adminProduct) },
      },
    },
    async (request) =>
      ok(
        await products.setProductStatus(ctx, currentUser(request), request.params.id, 'archived', 'archive'),
        'Product archived',
      ),
  );

  for (const [path, status, action, message] of [
    ['publish', 'published', 'publish', 'Product published'],
    ['unpublish', 'draft', 'unpublish', 'Product unpublished'],
  ] as const) {
    app.post(
      `/api/admin/products/:id/${path}`,
      {
        config: {
          access: access.admin(productPermissions.UPDATE),
          errors: [catalogErrors.productNotFound()],
        },
        schema: {
          tags,
          summary: path === 'publish' ? 'Publish a product' : 'Unpublish a product (back to draft)',
          params: intIdParams,
          response: { 200: envelopeSchema(s.adminProduct) },
        },
      },
      async (request) =>
        ok(
          await products.setProductStatus(ctx, currentUser(request), request.params.id, status, action),
          message,
        ),
    );
  }

  for (const prefix of ['/api', '/api/mobile']) {
    app.get(
      `${prefix}/products`,
      {
        config: { access: access.public() },
        preHandler: publicSearchLimit,
        schema: {
          tags: ['catalog'],
          summary: 'Published, sellable products: filters, typo-tolerant search, sorts',
          querystring: s.publicProductListQuery,
          response: { 200: listEnvelopeSchema(s.publicProductListItem) },
        },
      },
      async (request, reply) =>
        sendSerializedPage(
          reply,
          'Products',
          await products.listPublicProductsJson(ctx, request.query),
        ) as never,
    );

    app.get(
      `${prefix}/products/:slug`,
      {
        config: { access: access.public(), errors: [catalogErrors.productNotFound()] },
        schema: {
          tags: ['catalog'],
          summary: 'A published product by slug; an old slug answers the product with its current slug',
          params: s.productSlugParams,
          response: { 200: envelopeSchema(s.publicProductDetail) },
        },
      },
      async (request, reply) =>
        sendSerialized(
          reply,
          'Product',
          await products.getPublicProductJson(ctx, request.params.slug),
        ) as never,
    );
  }
}
