// Tags: short labels shoppers filter by ("Handmade", "Gift"); create, rename, delete (a deleted
// tag is taken off every product).
import { Button, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StoreDateTime } from '../../components/Formatted';
import { PagedTable, usePagedList } from '../../components/PagedTable';
import { Screen } from '../../components/Screen';
import { Can, useSession } from '../../session/session';
import type { Tag } from './catalog-api';
import {
  changedSlug,
  FormDialog,
  NameSlugFields,
  useCatalogFormErrors,
  useRefreshingMutation,
} from './catalog-forms';
import { RowActions, useSearchText, useUrlFilters } from './catalog-ui';

export function TagsScreen() {
  const { t } = useTranslation('catalog');
  const { client } = useSession();
  const { values, set } = useUrlFilters(['search'] as const);
  const searchBox = useSearchText(values, set);
  const list = usePagedList<Tag>({
    queryKey: ['catalog', 'tags', { search: values.search }],
    fetchPage: ({ page, size }) =>
      client.list('/api/admin/tags', {
        params: { query: { page, size, search: values.search, sort: 'name', order: 'asc' } },
      }),
    action: t('actions.loadTags'),
  });
  const [editing, setEditing] = useState<Tag | 'new' | null>(null);
  const remove = useRefreshingMutation({
    mutationFn: (id: number) => client.delete('/api/admin/tags/{id}', { params: { path: { id } } }),
    refreshes: ['catalog', 'tags'],
    action: t('actions.deleteTag'),
  });

  return (
    <Screen
      title={t('tags.title')}
      actions={
        <Can permission="Tags_CREATE">
          <Button onClick={() => setEditing('new')}>{t('tags.new')}</Button>
        </Can>
      }
    >
      <TextInput type="search" label={t('tags.search')} {...searchBox} />
      <PagedTable
        list={list}
        caption={t('tags.caption')}
        emptyMessage={t('tags.none')}
        rowKey={(tag) => tag.id}
        columns={[
          { key: 'name', header: t('fields.name'), cell: (tag) => tag.name },
          { key: 'slug', header: t('fields.slug'), cell: (tag) => tag.slug },
          {
            key: 'updated',
            header: t('fields.updated'),
            cell: (tag) => <StoreDateTime value={tag.updatedAt} />,
          },
          {
            key: 'actions',
            header: t('common.actions'),
            cell: (tag) => (
              <RowActions
                name={tag.name}
                editPermission="Tags_UPDATE"
                onEdit={() => setEditing(tag)}
                deletePermission="Tags_DELETE"
                deleteTitle={t('tags.deleteTitle')}
                deleteMessage={t('tags.deleteMessage', { name: tag.name })}
                onDelete={() => remove.mutateAsync(tag.id)}
              />
            ),
          },
        ]}
      />
      {editing && <TagDialog tag={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </Screen>
  );
}

function TagDialog({ tag, onClose }: { tag: Tag | null; onClose(): void }) {
  const { t } = useTranslation('catalog');
  const { client } = useSession();
  const [name, setName] = useState(tag?.name ?? '');
  const [slug, setSlug] = useState(tag?.slug ?? '');
  const errors = useCatalogFormErrors(['name', 'slug']);
  const save = useRefreshingMutation({
    mutationFn: () => {
      const body = {
        name: name.trim(),
        ...changedSlug(slug, tag?.slug),
      };
      return tag
        ? client.patch('/api/admin/tags/{id}', { params: { path: { id: tag.id } }, body })
        : client.post('/api/admin/tags', { body });
    },
    refreshes: ['catalog', 'tags'],
    onSuccess: onClose,
    onError: errors.show,
    action: tag ? t('actions.saveTag', { name: tag.name }) : t('actions.createTag'),
  });
  return (
    <FormDialog
      onClose={onClose}
      title={tag ? t('tags.editTitle', { name: tag.name }) : t('tags.newTitle')}
      label={t('tags.formLabel')}
      errors={errors}
      save={save}
      creating={!tag}
    >
      <NameSlugFields
        name={name}
        onName={setName}
        slug={slug}
        onSlug={setSlug}
        errors={errors}
        slugTaken="TAG_SLUG_EXISTS"
      />
    </FormDialog>
  );
}
