// Blog categories: the list with how many posts each holds (published of all); create, rename
// or describe one; delete one that holds no post (a category with posts is refused, and the
// refusal is said in the admin's language).
import { Button, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StoreDateTime } from '../../components/Formatted';
import { PagedTable, usePagedList } from '../../components/PagedTable';
import { Screen } from '../../components/Screen';
import { USER_TEXT } from '../../components/UserText';
import { textField } from '../../lib/form-errors';
import { formatCount } from '../../lib/format';
import { Can, useSession } from '../../session/session';
import { FormDialog, useCatalogFormErrors, useRefreshingMutation } from '../catalog/catalog-forms';
import { RowActions, useSearchText, useUrlFilters } from '../catalog/catalog-ui';
import type { BlogCategory } from './blog-api';

export function BlogCategoriesScreen() {
  const { t } = useTranslation('blog');
  const { client } = useSession();
  const { values, set } = useUrlFilters(['search'] as const);
  const searchBox = useSearchText(values, set);
  // The API searches from 2 characters: a single one lists everything.
  const search = values.search && values.search.length >= 2 ? values.search : undefined;
  const list = usePagedList<BlogCategory>({
    queryKey: ['blog', 'categories', 'list', { search }],
    fetchPage: ({ page, size }) =>
      client.list('/api/admin/blog/categories', {
        params: { query: { page, size, sort: 'name', order: 'asc', ...(search ? { search } : {}) } },
      }),
    action: t('actions.loadCategories'),
  });
  const [editing, setEditing] = useState<BlogCategory | 'new' | null>(null);
  const remove = useRefreshingMutation({
    mutationFn: (id: number) =>
      client.delete('/api/admin/blog/categories/{id}', { params: { path: { id } } }),
    refreshes: ['blog', 'categories'],
    action: t('actions.deleteCategory'),
  });

  return (
    <Screen
      title={t('categories.title')}
      actions={
        <Can permission="Blog_CREATE">
          <Button onClick={() => setEditing('new')}>{t('categories.new')}</Button>
        </Can>
      }
    >
      <TextInput
        type="search"
        label={t('categories.search')}
        description={t('list.searchHint')}
        {...searchBox}
      />
      <PagedTable
        list={list}
        caption={t('categories.caption')}
        emptyMessage={search ? t('categories.noneMatch') : t('categories.none')}
        rowKey={(category) => category.id}
        columns={[
          {
            key: 'name',
            header: t('fields.name'),
            cell: (category) => (
              <div className={USER_TEXT}>
                <Text fw={600}>{category.name}</Text>
                {category.description && (
                  <Text size="sm" c="dimmed">
                    {category.description}
                  </Text>
                )}
              </div>
            ),
          },
          { key: 'slug', header: t('fields.slug'), cell: (category) => category.slug },
          {
            key: 'posts',
            header: t('categories.posts'),
            align: 'right',
            cell: (category) =>
              t('categories.postCount', {
                published: formatCount(category.publishedPostCount),
                all: formatCount(category.postCount),
              }),
          },
          {
            key: 'updated',
            header: t('fields.updated'),
            cell: (category) => <StoreDateTime value={category.updatedAt} />,
          },
          {
            key: 'actions',
            header: t('list.actions'),
            cell: (category) => (
              <RowActions
                name={category.name}
                editPermission="Blog_UPDATE"
                onEdit={() => setEditing(category)}
                deletePermission="Blog_DELETE"
                deleteTitle={t('categories.deleteTitle')}
                deleteMessage={t('categories.deleteMessage', { name: category.name })}
                onDelete={() => remove.mutateAsync(category.id)}
                errorNamespace="blog"
              />
            ),
          },
        ]}
      />
      {editing && (
        <CategoryDialog category={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </Screen>
  );
}

function CategoryDialog({ category, onClose }: { category: BlogCategory | null; onClose(): void }) {
  const { t } = useTranslation('blog');
  const { client } = useSession();
  const [name, setName] = useState(category?.name ?? '');
  const [description, setDescription] = useState(category?.description ?? '');
  const errors = useCatalogFormErrors(
    { name: t('fields.name'), description: t('fields.description') },
    'blog',
  );
  const save = useRefreshingMutation({
    mutationFn: () => {
      const body = { name: name.trim(), description: description.trim() || null };
      return category
        ? client.put('/api/admin/blog/categories/{id}', { params: { path: { id: category.id } }, body })
        : client.post('/api/admin/blog/categories', { body });
    },
    refreshes: ['blog', 'categories'],
    onSuccess: onClose,
    onError: errors.show,
    action: category ? t('actions.saveCategory', { name: category.name }) : t('actions.createCategory'),
  });
  return (
    <FormDialog
      onClose={onClose}
      title={category ? t('categories.editTitle', { name: category.name }) : t('categories.newTitle')}
      label={t('categories.formLabel')}
      errors={errors}
      save={save}
      creating={!category}
    >
      <TextInput
        label={t('fields.name')}
        withAsterisk
        description={t('categories.slugHint')}
        {...textField(errors, 'name', name, setName)}
        error={
          errors.of('name') ??
          (errors.code === 'BLOG_CATEGORY_SLUG_ALREADY_EXISTS' ? (errors.message ?? undefined) : undefined)
        }
      />
      <Textarea
        label={t('fields.description')}
        autosize
        minRows={2}
        {...textField(errors, 'description', description, setDescription)}
      />
    </FormDialog>
  );
}
