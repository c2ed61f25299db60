// Blog: posts and categories written in the back office (linked products, FAQs, a
// call-to-action and videos), and the published posts the storefront and the app read,
// with their schema.org structured data. Public reads are cached until the next admin write.
import type { PasalModule } from '../../platform/module';
import { blogAdminLimiters } from './blog.limits';
import { blogPermissions } from './blog.permissions';
import type { BlogDeps } from './blog.service';
import { categoryRoutes } from './categories/categories.routes';
import { postRoutes } from './posts/posts.routes';
import { publicBlogRoutes } from './public/public.routes';

export type { BlogDeps } from './blog.service';
export { createCategory as createBlogCategory } from './categories/categories.service';
export { createPost as createBlogPost, movePostStatus as moveBlogPostStatus } from './posts/posts.service';

export const blogModule: PasalModule = {
  name: 'blog',
  tags: {
    blog: 'Blog categories and posts in the back office.',
    'blog (public)': 'Published blog posts and categories.',
  },
  permissions: [{ module: blogPermissions.module, codes: blogPermissions.codes }],
  register(ctx) {
    const deps: BlogDeps = { ...ctx, log: ctx.log };
    const limits = blogAdminLimiters(ctx.app);
    categoryRoutes(ctx.app, deps, limits);
    postRoutes(ctx.app, deps, limits);
    publicBlogRoutes(ctx.app, deps);
  },
};
