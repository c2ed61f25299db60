// Blog posts: search (2 characters or more, as the API searches), status and category filters
// and the page, all kept in the address; each post with its category, status and dates.
import { Anchor, Box, Button, Select, SimpleGrid, Text, TextInput } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { FilterFold } from '../../components/FilterFold';
import { StoreDateTime } from '../../components/Formatted';
import { PagedTable, usePagedList } from '../../components/PagedTable';
import { Screen } from '../../components/Screen';
import { USER_TEXT } from '../../components/UserText';
import { Can, useSession } from '../../session/session';
import { idOf } from '../catalog/catalog-api';
import { StatusBadge, useSearchText, useUrlFilters } from '../catalog/catalog-ui';
import { type BlogPostListItem, POST_STATUSES, useBlogCategoryChoices } from './blog-api';

export function BlogPostsScreen() {
  const { t } = useTranslation('blog');
  const { client, can } = useSession();
  const { values, set } = useUrlFilters(['search', 'status', 'categoryId'] as const);
  const searchBox = useSearchText(values, set);
  const categories = useBlogCategoryChoices();
  const query = {
    // The API searches from 2 characters: a single one lists everything.
    search: values.search && values.search.length >= 2 ? values.search : undefined,
    status: POST_STATUSES.find((status) => status === values.status),
    categoryId: idOf(values.categoryId),
  };
  const list = usePagedList<BlogPostListItem>({
    queryKey: ['blog', 'posts', query],
    fetchPage: ({ page, size }) =>
      client.list('/api/admin/blog/posts', { params: { query: { ...query, page, size } } }),
    action: t('actions.loadPosts'),
  });
  const filtered = Object.values(query).some((value) => value !== undefined);

  return (
    <Screen
      title={t('posts.title')}
      actions={
        <Can permission="Blog_CREATE">
          <Button component={Link} to="/blog/posts/new">
            {t('posts.new')}
          </Button>
        </Can>
      }
    >
      <TextInput type="search" label={t('posts.search')} description={t('list.searchHint')} {...searchBox} />
      <FilterFold active={[query.status, query.categoryId].filter(Boolean).length}>
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <Select
            label={t('fields.status')}
            placeholder={t('list.any')}
            clearable
            value={query.status ?? null}
            onChange={(value) => set('status', value)}
            data={POST_STATUSES.map((status) => ({ value: status, label: t(`status.${status}`) }))}
          />
          <Select
            label={t('fields.category')}
            placeholder={t('list.any')}
            clearable
            searchable
            value={values.categoryId ?? null}
            onChange={(value) => set('categoryId', value)}
            data={categories.data ?? []}
          />
        </SimpleGrid>
      </FilterFold>
      <PagedTable
        list={list}
        caption={t('posts.caption')}
        emptyMessage={
          filtered ? t('posts.noneMatch') : can('Blog_CREATE') ? t('posts.noneCreate') : t('posts.none')
        }
        rowKey={(post) => post.id}
        columns={[
          {
            key: 'title',
            header: t('fields.title'),
            cell: (post) => (
              <Box className={USER_TEXT}>
                <Anchor component={Link} to={`/blog/posts/${post.id}`} fw={600}>
                  {post.title}
                </Anchor>
                <Text size="xs" c="dimmed">
                  /{post.slug}
                </Text>
              </Box>
            ),
          },
          {
            key: 'category',
            header: t('fields.category'),
            cell: (post) => post.category?.name ?? t('posts.uncategorised'),
          },
          { key: 'status', header: t('fields.status'), cell: (post) => <StatusBadge status={post.status} /> },
          {
            key: 'date',
            header: t('fields.displayDate'),
            cell: (post) =>
              post.displayDate ? <StoreDateTime value={post.displayDate} stacked /> : <Text span>—</Text>,
          },
          {
            key: 'updated',
            header: t('fields.updated'),
            cell: (post) => <StoreDateTime value={post.updatedAt} stacked />,
          },
        ]}
      />
    </Screen>
  );
}
