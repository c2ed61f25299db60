// Categories: the tree of the shop's departments (a category may sit under another), searched
// and paged; create, edit, deactivate, and delete one that holds no products or sub-categories.
import { Button, Group, Select, SimpleGrid, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PagedTable, usePagedList } from '../../components/PagedTable';
import { Screen } from '../../components/Screen';
import { WholeNumberInput } from '../../components/WholeNumberInput';
import { fieldRules, textField, valueField } from '../../lib/form-errors';
import { wholeNumberText } from '../../lib/whole-number';
import { Can, useSession } from '../../session/session';
import { type Category, idOf, useCategoryChoices } from './catalog-api';
import {
  ActiveSwitch,
  changedSlug,
  checkedSave,
  FormDialog,
  ImageUploadPicker,
  NameSlugFields,
  useCatalogFormErrors,
  useRefreshingMutation,
} from './catalog-forms';
import {
  ActiveBadge,
  ActiveFilter,
  activeFilterOf,
  numberOf,
  RowActions,
  useSearchText,
  useUrlFilters,
} from './catalog-ui';

export function CategoriesScreen() {
  const { t } = useTranslation('catalog');
  const { client } = useSession();
  const { values, set } = useUrlFilters(['search', 'isActive'] as const);
  const searchBox = useSearchText(values, set);
  const choices = useCategoryChoices();
  const pathOf = (id: number | null) =>
    id === null ? '—' : (choices.data?.find((choice) => choice.value === String(id))?.label ?? `#${id}`);

  const isActive = activeFilterOf(values.isActive);
  const list = usePagedList<Category>({
    queryKey: ['catalog', 'categories', { search: values.search, isActive }],
    fetchPage: ({ page, size }) =>
      client.list('/api/admin/categories', {
        params: { query: { page, size, search: values.search, isActive, sort: 'name', order: 'asc' } },
      }),
    action: t('actions.loadCategories'),
  });
  const [editing, setEditing] = useState<Category | 'new' | null>(null);
  const remove = useRefreshingMutation({
    mutationFn: (id: number) => client.delete('/api/admin/categories/{id}', { params: { path: { id } } }),
    refreshes: ['catalog', 'categories'],
    action: t('actions.deleteCategory'),
  });

  return (
    <Screen
      title={t('categories.title')}
      actions={
        <Can permission="Categories_CREATE">
          <Button onClick={() => setEditing('new')}>{t('categories.new')}</Button>
        </Can>
      }
    >
      <Group align="flex-end" grow>
        <TextInput type="search" label={t('categories.search')} {...searchBox} />
        <ActiveFilter value={isActive} onChange={(value) => set('isActive', value)} />
      </Group>
      <PagedTable
        list={list}
        caption={t('categories.caption')}
        emptyMessage={t('categories.none')}
        rowKey={(category) => category.id}
        columns={[
          {
            key: 'name',
            header: t('fields.name'),
            cell: (category) => (category.parentId === null ? category.name : pathOf(category.id)),
          },
          { key: 'slug', header: t('fields.slug'), cell: (category) => category.slug },
          { key: 'parent', header: t('categories.parent'), cell: (category) => pathOf(category.parentId) },
          {
            key: 'position',
            header: t('categories.position'),
            align: 'right',
            cell: (category) => category.position,
          },
          {
            key: 'active',
            header: t('fields.status'),
            cell: (category) => <ActiveBadge active={category.isActive} />,
          },
          {
            key: 'actions',
            header: t('common.actions'),
            cell: (category) => (
              <RowActions
                name={category.name}
                editPermission="Categories_UPDATE"
                onEdit={() => setEditing(category)}
                deletePermission="Categories_DELETE"
                deleteTitle={t('categories.deleteTitle')}
                deleteMessage={t('categories.deleteMessage', { name: category.name })}
                onDelete={() => remove.mutateAsync(category.id)}
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

function CategoryDialog({ category, onClose }: { category: Category | null; onClose(): void }) {
  const { t } = useTranslation('catalog');
  const { client } = useSession();
  const choices = useCategoryChoices();
  const [name, setName] = useState(category?.name ?? '');
  const [slug, setSlug] = useState(category?.slug ?? '');
  const [parentId, setParentId] = useState<string | null>(
    category?.parentId ? String(category.parentId) : null,
  );
  const [description, setDescription] = useState(category?.description ?? '');
  const [imageUrl, setImageUrl] = useState(category?.imageUrl ?? '');
  const [position, setPosition] = useState(wholeNumberText(category?.position ?? 0));
  const [isActive, setIsActive] = useState(category?.isActive ?? true);
  const errors = useCatalogFormErrors({
    name: t('fields.name'),
    slug: t('fields.slug'),
    parentId: t('categories.parent'),
    description: t('fields.description'),
    imageUrl: t('categories.imageUrl'),
    position: t('categories.position'),
    isActive: t('common.active'),
  });
  const save = useRefreshingMutation({
    mutationFn: () => {
      const body = {
        name: name.trim(),
        parentId: idOf(parentId) ?? null,
        description: description.trim() || null,
        imageUrl: imageUrl.trim() || null,
        position: numberOf(position) ?? 0,
        isActive,
        ...changedSlug(slug, category?.slug),
      };
      return category
        ? client.patch('/api/admin/categories/{id}', { params: { path: { id: category.id } }, body })
        : client.post('/api/admin/categories', { body });
    },
    refreshes: ['catalog', 'categories'],
    onSuccess: onClose,
    onError: errors.show,
    action: category ? t('actions.saveCategory', { name: category.name }) : t('actions.createCategory'),
  });
  // A category cannot sit under itself (the API also refuses its descendants).
  const parents = (choices.data ?? []).filter((choice) => choice.value !== String(category?.id));
  return (
    <FormDialog
      onClose={onClose}
      title={category ? t('categories.editTitle', { name: category.name }) : t('categories.newTitle')}
      label={t('categories.formLabel')}
      errors={errors}
      save={checkedSave(save, () =>
        errors.check({
          name: fieldRules.text(name, { required: true, maximum: 120 }),
          position: fieldRules.whole(position, { minimum: 0, maximum: 1_000_000 }),
        }),
      )}
      creating={!category}
    >
      <NameSlugFields
        name={name}
        onName={setName}
        slug={slug}
        onSlug={setSlug}
        errors={errors}
        slugTaken="CATEGORY_SLUG_EXISTS"
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label={t('categories.parent')}
          placeholder={t('categories.topLevel')}
          searchable
          clearable
          {...valueField(errors, 'parentId', parentId, setParentId)}
          data={parents}
          error={
            errors.of('parentId') ?? (errors.code === 'CATEGORY_PARENT_INVALID' ? errors.message : undefined)
          }
        />
        <WholeNumberInput
          label={t('categories.position')}
          description={t('categories.positionHint')}
          {...valueField(errors, 'position', position, setPosition)}
        />
      </SimpleGrid>
      <Textarea
        label={t('fields.description')}
        autosize
        minRows={2}
        {...textField(errors, 'description', description, setDescription)}
      />
      <TextInput label={t('categories.imageUrl')} {...textField(errors, 'imageUrl', imageUrl, setImageUrl)} />
      <ImageUploadPicker label={t('fields.uploadImage')} onUploaded={setImageUrl} />
      <ActiveSwitch checked={isActive} onChange={setIsActive} />
    </FormDialog>
  );
}
