// Brands: the makers a product names, with their logo; create, edit, deactivate, and delete one
// no product uses.
import { Button, Group, Image, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PagedTable, usePagedList } from '../../components/PagedTable';
import { Screen } from '../../components/Screen';
import { textField } from '../../lib/form-errors';
import { Can, useSession } from '../../session/session';
import type { Brand } from './catalog-api';
import {
  ActiveSwitch,
  changedSlug,
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
  RowActions,
  useSearchText,
  useUrlFilters,
} from './catalog-ui';

export function BrandsScreen() {
  const { t } = useTranslation('catalog');
  const { client } = useSession();
  const { values, set } = useUrlFilters(['search', 'isActive'] as const);
  const searchBox = useSearchText(values, set);
  const isActive = activeFilterOf(values.isActive);
  const list = usePagedList<Brand>({
    queryKey: ['catalog', 'brands', { search: values.search, isActive }],
    fetchPage: ({ page, size }) =>
      client.list('/api/admin/brands', {
        params: { query: { page, size, search: values.search, isActive, sort: 'name', order: 'asc' } },
      }),
    action: t('actions.loadBrands'),
  });
  const [editing, setEditing] = useState<Brand | 'new' | null>(null);
  const remove = useRefreshingMutation({
    mutationFn: (id: number) => client.delete('/api/admin/brands/{id}', { params: { path: { id } } }),
    refreshes: ['catalog', 'brands'],
    action: t('actions.deleteBrand'),
  });

  return (
    <Screen
      title={t('brands.title')}
      actions={
        <Can permission="Brands_CREATE">
          <Button onClick={() => setEditing('new')}>{t('brands.new')}</Button>
        </Can>
      }
    >
      <Group align="flex-end" grow>
        <TextInput type="search" label={t('brands.search')} {...searchBox} />
        <ActiveFilter value={isActive} onChange={(value) => set('isActive', value)} />
      </Group>
      <PagedTable
        list={list}
        caption={t('brands.caption')}
        emptyMessage={t('brands.none')}
        rowKey={(brand) => brand.id}
        columns={[
          {
            key: 'logo',
            header: t('brands.logo'),
            cell: (brand) =>
              brand.logoUrl ? (
                <Image
                  src={brand.logoUrl}
                  alt={t('brands.logoOf', { name: brand.name })}
                  w={40}
                  h={40}
                  fit="contain"
                />
              ) : (
                <Text size="xs" c="dimmed">
                  —
                </Text>
              ),
          },
          { key: 'name', header: t('fields.name'), cell: (brand) => brand.name },
          { key: 'slug', header: t('fields.slug'), cell: (brand) => brand.slug },
          {
            key: 'active',
            header: t('fields.status'),
            cell: (brand) => <ActiveBadge active={brand.isActive} />,
          },
          {
            key: 'actions',
            header: t('common.actions'),
            cell: (brand) => (
              <RowActions
                name={brand.name}
                editPermission="Brands_UPDATE"
                onEdit={() => setEditing(brand)}
                deletePermission="Brands_DELETE"
                deleteTitle={t('brands.deleteTitle')}
                deleteMessage={t('brands.deleteMessage', { name: brand.name })}
                onDelete={() => remove.mutateAsync(brand.id)}
              />
            ),
          },
        ]}
      />
      {editing && <BrandDialog brand={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </Screen>
  );
}

function BrandDialog({ brand, onClose }: { brand: Brand | null; onClose(): void }) {
  const { t } = useTranslation('catalog');
  const { client } = useSession();
  const [name, setName] = useState(brand?.name ?? '');
  const [slug, setSlug] = useState(brand?.slug ?? '');
  const [logoUrl, setLogoUrl] = useState(brand?.logoUrl ?? '');
  const [isActive, setIsActive] = useState(brand?.isActive ?? true);
  const errors = useCatalogFormErrors(['name', 'slug', 'logoUrl', 'isActive']);
  const save = useRefreshingMutation({
    mutationFn: () => {
      const body = {
        name: name.trim(),
        logoUrl: logoUrl.trim() || null,
        isActive,
        ...changedSlug(slug, brand?.slug),
      };
      return brand
        ? client.patch('/api/admin/brands/{id}', { params: { path: { id: brand.id } }, body })
        : client.post('/api/admin/brands', { body });
    },
    refreshes: ['catalog', 'brands'],
    onSuccess: onClose,
    onError: errors.show,
    action: brand ? t('actions.saveBrand', { name: brand.name }) : t('actions.createBrand'),
  });
  return (
    <FormDialog
      onClose={onClose}
      title={brand ? t('brands.editTitle', { name: brand.name }) : t('brands.newTitle')}
      label={t('brands.formLabel')}
      errors={errors}
      save={save}
      creating={!brand}
    >
      <NameSlugFields
        name={name}
        onName={setName}
        slug={slug}
        onSlug={setSlug}
        errors={errors}
        slugTaken="BRAND_SLUG_EXISTS"
      />
      <TextInput label={t('brands.logoUrl')} {...textField(errors, 'logoUrl', logoUrl, setLogoUrl)} />
      <ImageUploadPicker label={t('brands.uploadLogo')} onUploaded={setLogoUrl} />
      <ActiveSwitch checked={isActive} onChange={setIsActive} />
    </FormDialog>
  );
}
