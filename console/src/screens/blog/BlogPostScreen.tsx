// One blog post: write a new one (`/blog/posts/new`), or see and change one (`/blog/posts/12`)
// with its SEO record; publish it or take it back to draft as its status allows (draft →
// published, published → draft); delete it. Each action shows only to a role that may use it.
import { Button, Group, Tabs, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { StoreDateTime } from '../../components/Formatted';
import { Screen } from '../../components/Screen';
import { isRefused } from '../../lib/api-errors';
import { Can, useSession } from '../../session/session';
import { idOf } from '../catalog/catalog-api';
import {
  ConfirmButton,
  pendingRecordScreen,
  StatusBadge,
  useDescribeCatalogError,
} from '../catalog/catalog-ui';
import { SeoRecordEditor } from '../catalog/ProductSeo';
import type { BlogPost } from './blog-api';
import { PostForm } from './PostForm';

export function NewBlogPostScreen() {
  const { t } = useTranslation('blog');
  return (
    <Screen title={t('post.newTitle')}>
      <PostForm />
    </Screen>
  );
}

export function BlogPostScreen() {
  const { t } = useTranslation('blog');
  const { client, can } = useSession();
  const queryClient = useQueryClient();
  const params = useParams({ strict: false }) as { postId?: string };
  const id = idOf(params.postId);
  const post = useQuery({
    queryKey: ['blog', 'post', id],
    queryFn: () => client.get('/api/admin/blog/posts/{id}', { params: { path: { id: id as number } } }),
    enabled: id !== undefined,
    meta: { action: t('actions.loadPost') },
  });
  const pending = pendingRecordScreen({
    title: t('post.title'),
    id,
    query: post,
    notFound: t('post.notFound'),
    loadFailed: t('post.loadFailed'),
  });
  if (pending || !post.data) return pending;

  const data = post.data;
  return (
    <Screen title={data.title} actions={<PostActions post={data} />}>
      <Group gap="sm">
        <StatusBadge status={data.status} />
        <Text size="sm" c="dimmed">
          {t('post.updated')} <StoreDateTime value={data.updatedAt} />
        </Text>
        {data.publishedAt && (
          <Text size="sm" c="dimmed">
            · {t('post.published')} <StoreDateTime value={data.publishedAt} />
          </Text>
        )}
      </Group>
      {data.previousSlugs.length > 0 && (
        <Text size="sm" c="dimmed">
          {t('post.previousSlugs', { slugs: data.previousSlugs.join(', ') })}
        </Text>
      )}
      <Tabs defaultValue="details" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="details">{t('post.tabs.details')}</Tabs.Tab>
          {can('Seo_READ') && <Tabs.Tab value="seo">{t('post.tabs.seo')}</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="details" pt="md">
          {/* Keyed by the version: a save (or another admin's) starts the form from the new record. */}
          <PostForm key={data.updatedAt} post={data} />
        </Tabs.Panel>
        <Tabs.Panel value="seo" pt="md">
          <SeoRecordEditor
            seoId={data.seoId}
            mayAttach={can('Blog_UPDATE')}
            noneYet={t('post.noSeo')}
            action={t('actions.saveSeo', { title: data.title })}
            attach={async (seoId) => {
              const updated = await client.put('/api/admin/blog/posts/{id}', {
                params: { path: { id: data.id } },
                body: { seoId },
              });
              queryClient.setQueryData(['blog', 'post', data.id], updated);
            }}
          />
        </Tabs.Panel>
      </Tabs>
    </Screen>
  );
}

/** Publish or back to draft, as the post's status allows; delete. */
function PostActions({ post }: { post: BlogPost }) {
  const { t } = useTranslation('blog');
  const { client } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const describe = useDescribeCatalogError('blog');
  const path = { params: { path: { id: post.id } } };
  const move = useMutation({
    mutationFn: (action: 'publish' | 'unpublish') =>
      action === 'publish'
        ? client.post('/api/admin/blog/posts/{id}/publish', path)
        : client.post('/api/admin/blog/posts/{id}/unpublish', path),
    onSuccess: (updated) => {
      queryClient.setQueryData(['blog', 'post', post.id], updated);
      void queryClient.invalidateQueries({ queryKey: ['blog', 'posts'] });
      void queryClient.invalidateQueries({ queryKey: ['blog', 'categories'] });
    },
    meta: { action: t('actions.changeStatus', { title: post.title }) },
  });
  const action = post.status === 'draft' ? 'publish' : 'unpublish';
  return (
    <Group gap="xs">
      {move.isError && !isRefused(move.error) && (
        <Text role="alert" size="sm" c="red.9">
          {describe(move.error)}
        </Text>
      )}
      <Can permission="Blog_UPDATE">
        <Button
          variant={action === 'publish' ? 'filled' : 'default'}
          onClick={() => move.mutate(action)}
          loading={move.isPending}
        >
          {t(`post.${action}`)}
        </Button>
      </Can>
      <Can permission="Blog_DELETE">
        <ConfirmButton
          label={t('post.delete')}
          title={t('post.deleteTitle')}
          message={t('post.deleteMessage', { title: post.title })}
          confirmLabel={t('post.delete')}
          errorNamespace="blog"
          onConfirm={async () => {
            await client.delete('/api/admin/blog/posts/{id}', path);
            queryClient.removeQueries({ queryKey: ['blog', 'post', post.id] });
            await queryClient.invalidateQueries({ queryKey: ['blog', 'posts'] });
            void queryClient.invalidateQueries({ queryKey: ['blog', 'categories'] });
            void navigate({ to: '/blog/posts' });
          }}
        />
      </Can>
    </Group>
  );
}
