// One product: create it (`/catalog/products/new`) or see and edit it (`/catalog/products/12`)
// with its images, prices in NPR, category, brand, tags and specifications; publish, unpublish
// or archive it; and, beside the details, its stock and ledger (physical products), its SEO
// record, and its licence keys (digital products).
import { Button, Group, Tabs, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { StoreDateTime } from '../../components/Formatted';
import { Screen } from '../../components/Screen';
import { isRefused } from '../../lib/api-errors';
import { Can, useSession } from '../../session/session';
import { idOf, type Product } from './catalog-api';
import { ConfirmButton, pendingRecordScreen, StatusBadge, useDescribeCatalogError } from './catalog-ui';
import { ProductDigitalKeys } from './ProductDigitalKeys';
import { ProductForm } from './ProductForm';
import { ProductSeo } from './ProductSeo';
import { ProductStock } from './ProductStock';

export function NewProductScreen() {
  const { t } = useTranslation('catalog');
  return (
    <Screen title={t('product.newTitle')}>
      <ProductForm />
    </Screen>
  );
}

export function ProductScreen() {
  const { t } = useTranslation('catalog');
  const { client, can } = useSession();
  const params = useParams({ strict: false }) as { productId?: string };
  const id = idOf(params.productId);
  const product = useQuery({
    queryKey: ['catalog', 'product', id],
    queryFn: () => client.get('/api/admin/products/{id}', { params: { path: { id: id as number } } }),
    enabled: id !== undefined,
    meta: { action: t('actions.loadProduct') },
  });

  const pending = pendingRecordScreen({
    title: t('product.title'),
    id,
    query: product,
    notFound: t('product.notFound'),
    loadFailed: t('product.loadFailed'),
  });
  if (pending || !product.data) return pending;

  const data = product.data;
  const physical = data.productKind === 'physical';
  const digital = data.productKind === 'digital';
  return (
    <Screen title={data.title} actions={<StatusActions product={data} />}>
      <Group gap="sm">
        <StatusBadge status={data.status} />
        <Text size="sm" c="dimmed">
          {t('product.updated')} <StoreDateTime value={data.updatedAt} />
        </Text>
        {data.publishedAt && (
          <Text size="sm" c="dimmed">
            · {t('product.published')} <StoreDateTime value={data.publishedAt} />
          </Text>
        )}
      </Group>
      <Tabs defaultValue="details" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="details">{t('product.tabs.details')}</Tabs.Tab>
          {physical && can('Inventory_READ') && <Tabs.Tab value="stock">{t('product.tabs.stock')}</Tabs.Tab>}
          {can('Seo_READ') && <Tabs.Tab value="seo">{t('product.tabs.seo')}</Tabs.Tab>}
          {digital && can('DigitalKeys_READ') && <Tabs.Tab value="keys">{t('product.tabs.keys')}</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="details" pt="md">
          {/* Keyed by the version: a save (or another admin's) starts the form from the new record. */}
          <ProductForm key={data.updatedAt} product={data} />
        </Tabs.Panel>
        {physical && (
          <Tabs.Panel value="stock" pt="md">
            <ProductStock product={data} />
          </Tabs.Panel>
        )}
        <Tabs.Panel value="seo" pt="md">
          <ProductSeo product={data} />
        </Tabs.Panel>
        {digital && (
          <Tabs.Panel value="keys" pt="md">
            <ProductDigitalKeys product={data} />
          </Tabs.Panel>
        )}
      </Tabs>
    </Screen>
  );
}

/** Publish, back to draft, archive: the moves the product's status allows, for who may make them. */
function StatusActions({ product }: { product: Product }) {
  const { t } = useTranslation('catalog');
  const { client } = useSession();
  const queryClient = useQueryClient();
  const path = { params: { path: { id: product.id } } };
  const move = useMutation({
    mutationFn: (action: 'publish' | 'unpublish' | 'archive') =>
      action === 'publish'
        ? client.post('/api/admin/products/{id}/publish', path)
        : action === 'unpublish'
          ? client.post('/api/admin/products/{id}/unpublish', path)
          : client.delete('/api/admin/products/{id}', path),
    onSuccess: (updated) => {
      queryClient.setQueryData(['catalog', 'product', product.id], updated);
      void queryClient.invalidateQueries({ queryKey: ['catalog', 'products'] });
    },
    meta: { action: t('actions.changeStatus', { title: product.title }) },
  });
  const describe = useDescribeCatalogError();
  return (
    <Group gap="xs">
      {move.isError && !isRefused(move.error) && (
        <Text role="alert" size="sm" c="red.9">
          {describe(move.error)}
        </Text>
      )}
      <Can permission="Products_UPDATE">
        {product.status !== 'published' && (
          <Button
            onClick={() => move.mutate('publish')}
            loading={move.isPending && move.variables === 'publish'}
          >
            {t('product.publish')}
          </Button>
        )}
        {product.status !== 'draft' && (
          <Button
            variant="default"
            onClick={() => move.mutate('unpublish')}
            loading={move.isPending && move.variables === 'unpublish'}
          >
            {product.status === 'published' ? t('product.unpublish') : t('product.restoreDraft')}
          </Button>
        )}
      </Can>
      <Can permission="Products_DELETE">
        {product.status !== 'archived' && (
          <ConfirmButton
            label={t('product.archive')}
            title={t('product.archiveTitle')}
            message={t('product.archiveMessage', { title: product.title })}
            confirmLabel={t('product.archive')}
            onConfirm={() => move.mutateAsync('archive')}
          />
        )}
      </Can>
    </Group>
  );
}
