// Admin blog posts (/api/admin/blog/posts, Blog_*): reads 30 and writes 10 per minute per IP.
import { z } from 'zod';
import { access } from '../../../platform/auth/access';
import { currentUser } from '../../../platform/http/access-hook';
import { envelopeSchema, listEnvelopeSchema, ok, okWithMeta } from '../../../platform/http/envelope';
import { intIdParams } from '../../../platform/http/params';
import type { ApiApp } from '../../../platform/module';
import { catalogErrors } from '../../catalog';
import { blogErrors } from '../blog.errors';
import type { BlogAdminLimiters } from '../blog.limits';
import { blogPermissions } from '../blog.permissions';
import type { BlogDeps } from '../blog.service';
import * as s from './posts.schemas';
import * as posts from './posts.service';

/** What a post's references can be refused for: its category, SEO record, products and videos. */
const postWriteErrors = [
  blogErrors.categoryNotFound(0),
  blogErrors.postSeoNotFound(''),
  catalogErrors.linkedProductsNotFound([]),
  blogErrors.videoSeoInvalid([]),
];

export function postRoutes(app: ApiApp, deps: BlogDeps, limits: BlogAdminLimiters) {
  const tags = ['blog'];
  const one = { 200: envelopeSchema(s.adminPost) };

  app.get(
    '/api/admin/blog/posts',
    {
      config: { access: access.admin(blogPermissions.READ) },
      preHandler: limits.read,
      schema: {
        tags,
        summary: 'Blog posts of every status, with filters and search',
        querystring: s.adminPostListQuery,
        response: { 200: listEnvelopeSchema(s.adminPostListItem) },
      },
    },
    async (request) => {
      const { posts: data, meta } = await posts.listAdminPosts(deps, request.query);
      return okWithMeta(data, meta, 'Blog posts');
    },
  );

  app.get(
    '/api/admin/blog/posts/:id',
    {
      config: { access: access.admin(blogPermissions.READ), errors: [blogErrors.postNotFound()] },
      preHandler: limits.read,
      schema: {
        tags,
        summary: 'One blog post with its products, FAQs, CTA and videos',
        params: intIdParams,
        response: one,
      },
    },
    async (request) => ok(await posts.getAdminPost(deps, request.params.id), 'Blog post'),
  );

  app.post(
    '/api/admin/blog/posts',
    {
      config: { access: access.admin(blogPermissions.CREATE), errors: postWriteErrors },
      preHandler: limits.write,
      schema: {
        tags,
        summary: 'Create a blog post (draft unless status says otherwise); the slug comes from the title',
        body: s.createPostBody,
        response: { 201: envelopeSchema(s.adminPost) },
      },
    },
    async (request, reply) => {
      const post = await posts.createPost(deps, currentUser(request), request.body);
      reply.status(201);
      return ok(post, 'Blog post created');
    },
  );

  // Ours (docs/api-notes.md "Blog"): nothing is written, so the editor may ask as staff type.
  app.post(
    '/api/admin/blog/posts/sanitise-preview',
    {
      config: { access: access.admin(blogPermissions.UPDATE) },
      preHandler: limits.preview,
      schema: {
        tags,
        summary: 'What a save keeps of a post body after sanitising, and whether anything is removed',
        body: s.bodyPreviewRequest,
        response: { 200: envelopeSchema(s.bodyPreview) },
      },
    },
    async (request) => ok(posts.previewPostBody(request.body.body), 'Blog post body preview'),
  );

  app.put(
    '/api/admin/blog/posts/:id',
    {
      config: {
        access: access.admin(blogPermissions.UPDATE),
        errors: [blogErrors.postNotFound(), ...postWriteErrors],
      },
      preHandler: limits.write,
      schema: {
        tags,
        summary: 'Change fields of a blog post (partial); productIds, faqs, videos and cta replace whole',
        params: intIdParams,
        body: s.updatePostBody,
        response: one,
      },
    },
    async (request) =>
      ok(
        await posts.updatePost(deps, currentUser(request), request.params.id, request.body),
        'Blog post updated',
      ),
  );

  app.delete(
    '/api/admin/blog/posts/:id',
    {
      config: { access: access.admin(blogPermissions.DELETE), errors: [blogErrors.postNotFound()] },
      preHandler: limits.write,
      schema: {
        tags,
        summary: 'Delete a blog post with its FAQs, videos, product links and old slugs',
        params: intIdParams,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await posts.deletePost(deps, currentUser(request), request.params.id);
      return ok(null, 'Blog post deleted');
    },
  );

  for (const action of ['publish', 'unpublish'] as const) {
    app.post(
      `/api/admin/blog/posts/:id/${action}`,
      {
        config: {
          access: access.admin(blogPermissions.UPDATE),
          errors: [blogErrors.postNotFound(), blogErrors.invalidTransition('', 'publish')],
        },
        preHandler: limits.write,
        schema: {
          tags,
          summary:
            action === 'publish'
              ? 'Publish a draft post (a published one: 400 BLOG_POST_INVALID_STATUS_TRANSITION)'
              : 'Unpublish a published post back to draft (a draft: 400 BLOG_POST_INVALID_STATUS_TRANSITION)',
          params: intIdParams,
          response: one,
        },
      },
      async (request) =>
        ok(
          await posts.movePostStatus(deps, currentUser(request), request.params.id, action),
          action === 'publish' ? 'Blog post published' : 'Blog post unpublished',
        ),
    );
  }
}
