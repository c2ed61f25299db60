// The products list: search and every filter GET /api/admin/products offers (status, kind,
// category with its sub-categories, brand, tag, on sale or not), a sort, server-side pages.
import { Anchor, Badge, Box, Button, Group, Image, Select, SimpleGrid, Text, TextInput } from '@mantine/core';
import type { operations } from '@pasal/client';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Money } from '../../components/Formatted';
import { PagedTable, usePagedList } from '../../components/PagedTable';
import { Screen } from '../../components/Screen';
import { USER_TEXT } from '../../components/UserText';
import { formatCount } from '../../lib/format';
import { Can, useSession } from '../../session/session';
import {
  idOf,
  PRODUCT_KINDS,
  PRODUCT_STATUSES,
  type Product,
  useBrandChoices,
  useCategoryChoices,
  useTagChoices,
} from './catalog-api';
import { StatusBadge, useSearchText, useUrlFilters } from './catalog-ui';

type ListQuery = NonNullable<operations['adminListProducts']['parameters']['query']>;
const FILTERS = [
  'search',
  'status',
  'productKind',
  'categoryId',
  'brandId',
  'tag',
  'isSellable',
  'sort',
] as const;
const SORTS: NonNullable<ListQuery['sort']>[] = [
  'createdAt',
  'updatedAt',
  'title',
  'price',
  'rating',
  'relevance',
];

export function ProductsScreen() {
  const { t } = useTranslation('catalog');
  const { client, can } = useSession();
  const { values, set } = useUrlFilters(FILTERS);
  const categories = useCategoryChoices();
  const brands = useBrandChoices();
  const tags = useTagChoices();

  const searchBox = useSearchText(values, set);

  const query: ListQuery = {
    search: values.search,
    status: oneOf(values.status, PRODUCT_STATUSES),
    productKind: oneOf(values.productKind, PRODUCT_KINDS),
    categoryId: idOf(values.categoryId),
    brandId: idOf(values.brandId),
    tag: values.tag,
    isSellable: oneOf(values.isSellable, ['true', 'false'] as const),
    sort: oneOf(values.sort, SORTS),
  };
  const list = usePagedList<Product>({
    queryKey: ['catalog', 'products', query],
    fetchPage: ({ page, size }) =>
      client.list('/api/admin/products', { params: { query: { ...query, page, size } } }),
    action: t('actions.loadProducts'),
  });

  const option = (value: string, label: string) => ({ value, label });
  return (
    <Screen
      title={t('products.title')}
      actions={
        <Can permission="Products_CREATE">
          <Button component={Link} to="/catalog/products/new">
            {t('products.new')}
          </Button>
        </Can>
      }
    >
      <TextInput
        label={t('products.search')}
        description={t('products.searchHint')}
        type="search"
        {...searchBox}
      />
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
        <Select
          label={t('products.status')}
          placeholder={t('common.any')}
          clearable
          value={query.status ?? null}
          onChange={(value) => set('status', value)}
          data={PRODUCT_STATUSES.map((status) => option(status, t(`status.${status}`)))}
        />
        <Select
          label={t('products.kind')}
          placeholder={t('common.any')}
          clearable
          value={query.productKind ?? null}
          onChange={(value) => set('productKind', value)}
          data={PRODUCT_KINDS.map((kind) => option(kind, t(`kind.${kind}`)))}
        />
        <Select
          label={t('products.onSale')}
          placeholder={t('common.any')}
          clearable
          value={query.isSellable ?? null}
          onChange={(value) => set('isSellable', value)}
          data={[option('true', t('products.sellable')), option('false', t('products.notSellable'))]}
        />
        <Select
          label={t('products.sort')}
          value={query.sort ?? null}
          placeholder={t(query.search ? 'sort.relevance' : 'sort.createdAt')}
          clearable
          onChange={(value) => set('sort', value)}
          data={SORTS.map((sort) => option(sort, t(`sort.${sort}`)))}
        />
        <Select
          label={t('products.category')}
          placeholder={t('common.any')}
          clearable
          searchable
          value={values.categoryId ?? null}
          onChange={(value) => set('categoryId', value)}
          data={categories.data ?? []}
        />
        <Select
          label={t('products.brand')}
          placeholder={t('common.any')}
          clearable
          searchable
          value={values.brandId ?? null}
          onChange={(value) => set('brandId', value)}
          data={brands.data ?? []}
        />
        {can('Tags_READ') && (
          <Select
            label={t('products.tag')}
            placeholder={t('common.any')}
            clearable
            searchable
            value={values.tag ?? null}
            onChange={(value) => set('tag', value)}
            data={(tags.data ?? []).map((tag) => option(tag.slug, tag.label))}
          />
        )}
      </SimpleGrid>
      <PagedTable
        list={list}
        caption={t('products.caption')}
        emptyMessage={t(Object.values(query).some(Boolean) ? 'products.noneMatch' : 'products.none')}
        rowKey={(product) => product.id}
        columns={[
          {
            key: 'image',
            header: t('products.image'),
            cell: (product) =>
              product.images[0] ? (
                <Image
                  src={product.images[0].url}
                  alt={product.images[0].alt || product.title}
                  w={48}
                  h={48}
                  fit="cover"
                  radius="sm"
                />
              ) : (
                <Text size="xs" c="dimmed">
                  {t('products.noImage')}
                </Text>
              ),
          },
          {
            key: 'title',
            header: t('products.name'),
            cell: (product) => (
              <Box className={USER_TEXT}>
                <Anchor component={Link} to={`/catalog/products/${product.id}`}>
                  {product.title}
                </Anchor>
              </Box>
            ),
          },
          {
            key: 'status',
            header: t('products.status'),
            cell: (product) => (
              <Group gap={4}>
                <StatusBadge status={product.status} />
                {!product.isSellable && (
                  <Badge color="red.9" variant="filled">
                    {t('products.notSellable')}
                  </Badge>
                )}
              </Group>
            ),
          },
          { key: 'kind', header: t('products.kind'), cell: (product) => t(`kind.${product.productKind}`) },
          {
            key: 'price',
            header: t('products.price'),
            align: 'right',
            cell: (product) => (
              <>
                <Money amount={product.effectivePrice} fw={600} />
                {product.sp > 0 && product.sp < product.mrp && (
                  <Text size="xs" c="dimmed" td="line-through">
                    <Money amount={product.mrp} />
                  </Text>
                )}
              </>
            ),
          },
          {
            key: 'stock',
            header: t('products.stock'),
            align: 'right',
            cell: (product) =>
              product.stock ? (
                <Text span c={product.stock.available <= 0 ? 'red.9' : undefined} fw={600}>
                  {t('products.available', {
                    count: product.stock.available,
                    value: formatCount(product.stock.available),
                  })}
                </Text>
              ) : (
                <Text span size="sm" c="dimmed">
                  {t('products.noStockKept')}
                </Text>
              ),
          },
        ]}
      />
    </Screen>
  );
}

function oneOf<Value extends string>(
  value: string | undefined,
  allowed: readonly Value[],
): Value | undefined {
  return allowed.includes(value as Value) ? (value as Value) : undefined;
}
