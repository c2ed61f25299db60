// The blog: categories, and the posts of the storefront's journal with their rich-text body,
// cover image, linked products, FAQs, call-to-action and SEO record; publish and unpublish.
// Each screen loads lazily; the body's editor loads only with the post editor.
import {
  type AnyRoute,
  createRoute,
  lazyRouteComponent as lazy,
  type RouteComponent,
} from '@tanstack/react-router';
import type { ScreenArea } from '../../app/area';
import type { PermissionCode } from '../../session/session';

function screen(parent: AnyRoute, path: string, permission: PermissionCode, component: RouteComponent) {
  return createRoute({ getParentRoute: () => parent, path, staticData: { permission }, component });
}

export const blogArea: ScreenArea = {
  namespace: 'blog',
  menu: [
    { labelKey: 'blog:menu.posts', path: '/blog/posts', permission: 'Blog_READ' },
    { labelKey: 'blog:menu.categories', path: '/blog/categories', permission: 'Blog_READ' },
  ],
  routes: (parent) => [
    screen(
      parent,
      '/blog/posts',
      'Blog_READ',
      lazy(() => import('./BlogPostsScreen'), 'BlogPostsScreen'),
    ),
    // "new" is a fixed segment, so it wins over the post id below.
    screen(
      parent,
      '/blog/posts/new',
      'Blog_CREATE',
      lazy(() => import('./BlogPostScreen'), 'NewBlogPostScreen'),
    ),
    screen(
      parent,
      '/blog/posts/$postId',
      'Blog_READ',
      lazy(() => import('./BlogPostScreen'), 'BlogPostScreen'),
    ),
    screen(
      parent,
      '/blog/categories',
      'Blog_READ',
      lazy(() => import('./BlogCategoriesScreen'), 'BlogCategoriesScreen'),
    ),
  ],
};
