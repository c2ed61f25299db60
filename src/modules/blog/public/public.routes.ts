// The public blog of the storefront (/api/blogs) and its mobile mirror (/api/mobile/blogs).
import { z } from 'zod';
import { access } from '../../../platform/auth/access';
import { envelopeSchema, ok } from '../../../platform/http/envelope';
import type { ApiApp } from '../../../platform/module';
import { blogErrors } from '../blog.errors';
import { postSlugParams } from '../blog.schemas';
import type { BlogDeps } from '../blog.service';
import { publicCategory } from '../categories/categories.schemas';
import { listPublicCategories } from '../categories/categories.service';
import * as s from './public.schemas';
import { getPublicPost, listPublicPosts } from './public.service';

export function publicBlogRoutes(app: ApiApp, deps: BlogDeps) {
  const tags = ['blog (public)'];
  for (const prefix of ['/api/blogs', '/api/mobile/blogs']) {
    app.get(
      prefix,
      {
        config: { access: access.public(), operation: 'listBlogPosts' },
        schema: {
          tags,
          summary: 'Published blog posts',
          querystring: s.publicPostListQuery,
          response: { 200: s.publicPostListEnvelope },
        },
      },
      async (request) => {
        const page = await listPublicPosts(deps, request.query);
        return {
          message: 'Blog posts',
          data: page.posts,
          count: page.count,
          currentPage: page.currentPage,
          totalPage: page.totalPage,
        };
      },
    );

    app.get(
      `${prefix}/categories`,
      {
        config: { access: access.public(), operation: 'listBlogCategories' },
        schema: {
          tags,
          summary: 'Blog categories with their published post counts',
          response: { 200: envelopeSchema(z.array(publicCategory)) },
        },
      },
      async () => ok(await listPublicCategories(deps), 'Blog categories'),
    );

    app.get(
      `${prefix}/:slug`,
      {
        config: {
          access: access.public(),
          operation: 'getBlogPostBySlug',
          errors: [blogErrors.postNotFound()],
        },
        schema: {
          tags,
          summary:
            'A published post by slug; an old slug answers the post with its current slug (no redirect)',
          params: postSlugParams,
          response: { 200: envelopeSchema(s.publicPostDetail) },
        },
      },
      async (request) => ok(await getPublicPost(deps, request.params.slug), 'Blog post'),
    );
  }
}
