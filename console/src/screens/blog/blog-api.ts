// The blog's records as the API answers them (types from the generated client), and the
// category choices the posts list and the post editor share.
import type { components } from '@pasal/client';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../session/session';

export type BlogCategory = components['schemas']['AdminBlogCategory'];
export type BlogPost = components['schemas']['AdminBlogPost'];
export type BlogPostListItem = components['schemas']['AdminBlogPostListItem'];
export type BlogPostStatus = BlogPost['status'];

export const POST_STATUSES: readonly BlogPostStatus[] = ['draft', 'published'];

/** Every blog category as a Select choice (the id as text), by name. */
export function useBlogCategoryChoices() {
  const { client } = useSession();
  const { t } = useTranslation('blog');
  return useQuery({
    queryKey: ['blog', 'categories', 'choices'],
    queryFn: async () => {
      const rows = await client.get('/api/admin/blog/categories', {
        params: { query: { pagination: 'false', sort: 'name', order: 'asc' } },
      });
      return rows.map((category) => ({ value: String(category.id), label: category.name }));
    },
    staleTime: 60_000,
    meta: { action: t('actions.loadCategories') },
  });
}
