// Admin blog categories (/api/admin/blog/categories, Blog_*), under the blog admin limits.
import { z } from 'zod';
import { access } from '../../../platform/auth/access';
import { currentUser } from '../../../platform/http/access-hook';
import { envelopeSchema, listEnvelopeSchema, ok, okWithMeta } from '../../../platform/http/envelope';
import { intIdParams } from '../../../platform/http/params';
import type { ApiApp } from '../../../platform/module';
import { blogErrors } from '../blog.errors';
import type { BlogAdminLimiter } from '../blog.limits';
import { blogPermissions } from '../blog.permissions';
import type { BlogDeps } from '../blog.service';
import * as s from './categories.schemas';
import * as categories from './categories.service';

export function categoryRoutes(
  app: ApiApp,
  deps: BlogDeps,
  limits: { read: BlogAdminLimiter; write: BlogAdminLimiter },
) {
  const tags = ['blog'];
  const one = { 200: envelopeSchema(s.adminCategory) };

  app.get(
    '/api/admin/blog/categories',
    {
      config: { access: access.admin(blogPermissions.READ) },
      preHandler: limits.read,
      schema: {
        tags,
        summary: 'Blog categories with their post counts',
        querystring: s.adminCategoryListQuery,
        response: { 200: listEnvelopeSchema(s.adminCategory) },
      },
    },
    async (request) => {
      const { categories: data, meta } = await categories.listAdminCategories(deps, request.query);
      return okWithMeta(data, meta, 'Blog categories');
    },
  );

  app.get(
    '/api/admin/blog/categories/:id',
    {
      config: { access: access.admin(blogPermissions.READ), errors: [blogErrors.categoryNotFound(0)] },
      preHandler: limits.read,
      schema: { tags, summary: 'One blog category', params: intIdParams, response: one },
    },
    async (request) => ok(await categories.getAdminCategory(deps, request.params.id), 'Blog category'),
  );

  app.post(
    '/api/admin/blog/categories',
    {
      config: { access: access.admin(blogPermissions.CREATE), errors: [blogErrors.categorySlugExists('')] },
      preHandler: limits.write,
      schema: {
        tags,
        summary: 'Create a blog category; its slug comes from the name (taken: 409)',
        body: s.categoryBody,
        response: { 201: envelopeSchema(s.adminCategory) },
      },
    },
    async (request, reply) => {
      const category = await categories.createCategory(deps, currentUser(request), request.body);
      reply.status(201);
      return ok(category, 'Blog category created');
    },
  );

  app.put(
    '/api/admin/blog/categories/:id',
    {
      config: {
        access: access.admin(blogPermissions.UPDATE),
        errors: [blogErrors.categoryNotFound(0), blogErrors.categorySlugExists('')],
      },
      preHandler: limits.write,
      schema: {
        tags,
        summary: 'Change the name (and so the slug) or description of a blog category',
        params: intIdParams,
        body: s.updateCategoryBody,
        response: one,
      },
    },
    async (request) =>
      ok(
        await categories.updateCategory(deps, currentUser(request), request.params.id, request.body),
        'Blog category updated',
      ),
  );

  app.delete(
    '/api/admin/blog/categories/:id',
    {
      config: {
        access: access.admin(blogPermissions.DELETE),
        errors: [blogErrors.categoryNotFound(0), blogErrors.categoryNotEmpty()],
      },
      preHandler: limits.write,
      schema: {
        tags,
        summary: 'Delete an empty blog category (with posts: 409 BLOG_CATEGORY_NOT_EMPTY)',
        params: intIdParams,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await categories.deleteCategory(deps, currentUser(request), request.params.id);
      return ok(null, 'Blog category deleted');
    },
  );
}
