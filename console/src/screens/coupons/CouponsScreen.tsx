// Coupons: the list (search by code, active or not, in the address) with a summary line and
// "used / limit" per coupon; a dialog to create or edit one with every rule the API has
// (percent or fixed, cap, minimum order, window, usage limits, products and categories);
// deactivate and activate; delete. Each action shows only to a role the API lets do it.
import {
  Button,
  Group,
  MultiSelect,
  NativeSelect,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../components/Formatted';
import { PagedTable, usePagedList } from '../../components/PagedTable';
import { ProductsPicker } from '../../components/ProductPicker';
import { Screen } from '../../components/Screen';
import { StateBadge } from '../../components/StateBadge';
import { StoreDateTimeInput } from '../../components/StoreDateTimeInput';
import { WholeNumberInput } from '../../components/WholeNumberInput';
import { textField, valueField } from '../../lib/form-errors';
import { formatCount } from '../../lib/format';
import { useStoreTimeZone } from '../../lib/store-time-zone';
import { wholeNumberText } from '../../lib/whole-number';
import { Can, useSession } from '../../session/session';
import { useCategoryChoices } from '../catalog/catalog-api';
import { FormDialog, useCatalogFormErrors, useRefreshingMutation } from '../catalog/catalog-forms';
import {
  activeFilterOf,
  MoneyInput,
  numberOf,
  RowActions,
  useSearchText,
  useUrlFilters,
} from '../catalog/catalog-ui';
import { type Coupon, couponSummary } from './coupon-summary';

export function CouponsScreen() {
  const { t } = useTranslation('coupons');
  const { client, can } = useSession();
  const language = useLanguage();
  const timeZone = useStoreTimeZone();
  const { values, set } = useUrlFilters(['search', 'active'] as const);
  const searchBox = useSearchText(values, set);
  const active = activeFilterOf(values.active);
  const list = usePagedList<Coupon>({
    queryKey: ['coupons', 'list', { search: values.search, active }],
    fetchPage: ({ page, size }) =>
      client.list('/api/admin/coupons', {
        params: {
          query: {
            page,
            size,
            sort: 'createdAt',
            order: 'desc',
            ...(values.search ? { search: values.search } : {}),
            ...(active ? { isActive: active } : {}),
          },
        },
      }),
    action: t('actions.load'),
  });
  const [editing, setEditing] = useState<Coupon | 'new' | null>(null);
  const refreshes = ['coupons'];
  const toggle = useRefreshingMutation({
    mutationFn: (coupon: Coupon) =>
      client.patch('/api/admin/coupons/{id}', {
        params: { path: { id: coupon.id } },
        body: { isActive: !coupon.isActive },
      }),
    refreshes,
    action: t('actions.toggle'),
  });
  const remove = useRefreshingMutation({
    mutationFn: (id: number) => client.delete('/api/admin/coupons/{id}', { params: { path: { id } } }),
    refreshes,
    action: t('actions.delete'),
  });

  return (
    <Screen
      title={t('list.title')}
      actions={
        <Can permission="Coupons_CREATE">
          <Button onClick={() => setEditing('new')}>{t('list.new')}</Button>
        </Can>
      }
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput type="search" label={t('list.search')} {...searchBox} />
        <NativeSelect
          label={t('list.state')}
          value={active ?? ''}
          onChange={(event) => set('active', event.currentTarget.value)}
          data={[
            { value: '', label: t('list.any') },
            { value: 'true', label: t('state.active') },
            { value: 'false', label: t('state.inactive') },
          ]}
        />
      </SimpleGrid>
      <PagedTable
        list={list}
        caption={t('list.caption')}
        emptyMessage={values.search || active ? t('list.noMatch') : t('list.none')}
        rowKey={(coupon) => coupon.id}
        columns={[
          {
            key: 'code',
            header: t('fields.code'),
            cell: (coupon) => (
              <Text fw={700} ff="monospace">
                {coupon.code}
              </Text>
            ),
          },
          {
            key: 'summary',
            header: t('list.summary'),
            cell: (coupon) => (
              <Text size="sm" maw={460}>
                {couponSummary(coupon, t, language, timeZone)}
              </Text>
            ),
          },
          {
            key: 'used',
            header: t('list.used'),
            align: 'right',
            cell: (coupon) => (
              <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                {coupon.usageLimit === null
                  ? formatCount(coupon.usedCount)
                  : `${formatCount(coupon.usedCount)} / ${formatCount(coupon.usageLimit)}`}
              </Text>
            ),
          },
          {
            key: 'state',
            header: t('list.state'),
            cell: (coupon) => (
              <StateBadge color={coupon.isActive ? 'teal' : 'gray'}>
                {coupon.isActive ? t('state.active') : t('state.inactive')}
              </StateBadge>
            ),
          },
          {
            key: 'actions',
            header: t('list.actions'),
            cell: (coupon) => (
              <Group gap="xs" wrap="nowrap">
                {can('Coupons_UPDATE') && (
                  <Button
                    size="xs"
                    variant="default"
                    loading={toggle.isPending && toggle.variables?.id === coupon.id}
                    onClick={() => toggle.mutate(coupon)}
                    aria-label={t(coupon.isActive ? 'list.deactivateNamed' : 'list.activateNamed', {
                      code: coupon.code,
                    })}
                  >
                    {coupon.isActive ? t('list.deactivate') : t('list.activate')}
                  </Button>
                )}
                <RowActions
                  name={coupon.code}
                  editPermission="Coupons_UPDATE"
                  onEdit={() => setEditing(coupon)}
                  deletePermission="Coupons_DELETE"
                  deleteTitle={t('list.deleteTitle')}
                  deleteMessage={t('list.deleteMessage', { code: coupon.code })}
                  onDelete={() => remove.mutateAsync(coupon.id)}
                />
              </Group>
            ),
          },
        ]}
      />
      {editing && (
        <CouponDialog coupon={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </Screen>
  );
}

const FIELDS = [
  'code',
  'discountType',
  'value',
  'maxDiscount',
  'minOrderTotal',
  'startsAt',
  'endsAt',
  'usageLimit',
  'perCustomerLimit',
  'productIds',
  'categoryIds',
  'isActive',
] as const;

function CouponDialog({ coupon, onClose }: { coupon: Coupon | null; onClose(): void }) {
  const { t } = useTranslation('coupons');
  const { client } = useSession();
  const language = useLanguage();
  const timeZone = useStoreTimeZone();
  const categories = useCategoryChoices();
  const [code, setCode] = useState(coupon?.code ?? '');
  const [discountType, setDiscountType] = useState<Coupon['discountType']>(coupon?.discountType ?? 'percent');
  const [value, setValue] = useState(wholeNumberText(coupon?.value));
  const [maxDiscount, setMaxDiscount] = useState(wholeNumberText(coupon?.maxDiscount));
  const [minOrderTotal, setMinOrderTotal] = useState(wholeNumberText(coupon?.minOrderTotal));
  const [startsAt, setStartsAt] = useState<string | null>(coupon?.startsAt ?? null);
  const [endsAt, setEndsAt] = useState<string | null>(coupon?.endsAt ?? null);
  const [usageLimit, setUsageLimit] = useState(wholeNumberText(coupon?.usageLimit));
  const [perCustomerLimit, setPerCustomerLimit] = useState(wholeNumberText(coupon?.perCustomerLimit));
  const [productIds, setProductIds] = useState<number[]>(coupon?.productIds ?? []);
  const [categoryIds, setCategoryIds] = useState<number[]>(coupon?.categoryIds ?? []);
  const [isActive, setActive] = useState(coupon?.isActive ?? true);
  const errors = useCatalogFormErrors(FIELDS);
  const nullable = (raw: string) => numberOf(raw) ?? null;

  const body = {
    code: code.trim(),
    discountType,
    value: numberOf(value) as number,
    maxDiscount: discountType === 'percent' ? nullable(maxDiscount) : null,
    minOrderTotal: nullable(minOrderTotal),
    startsAt,
    endsAt,
    usageLimit: nullable(usageLimit),
    perCustomerLimit: nullable(perCustomerLimit),
    productIds,
    categoryIds,
    isActive,
  };
  const save = useRefreshingMutation({
    mutationFn: () =>
      coupon
        ? client.patch('/api/admin/coupons/{id}', { params: { path: { id: coupon.id } }, body })
        : client.post('/api/admin/coupons', { body }),
    refreshes: ['coupons'],
    onSuccess: onClose,
    onError: errors.show,
    action: coupon ? t('actions.save', { code: coupon.code }) : t('actions.create'),
  });
  // The summary of what is being typed, as the list will show it.
  const preview =
    numberOf(value) !== undefined
      ? couponSummary(
          {
            ...body,
            id: 0,
            usedCount: coupon?.usedCount ?? 0,
            createdAt: '',
            updatedAt: '',
            value: numberOf(value) as number,
          },
          t,
          language,
          timeZone,
        )
      : null;

  return (
    <FormDialog
      onClose={onClose}
      title={coupon ? t('form.editTitle', { code: coupon.code }) : t('form.newTitle')}
      label={t('form.label')}
      errors={errors}
      save={save}
      creating={!coupon}
    >
      <TextInput
        label={t('fields.code')}
        description={t('form.codeHelp')}
        withAsterisk
        maxLength={50}
        {...textField(errors, 'code', code, (next) => setCode(next.toUpperCase()))}
      />
      <Stack gap={4}>
        <Text size="sm" fw={500} id="coupon-kind">
          {t('fields.discountType')}
        </Text>
        <SegmentedControl
          aria-labelledby="coupon-kind"
          value={discountType}
          onChange={(next) => setDiscountType(next as Coupon['discountType'])}
          data={[
            { value: 'percent', label: t('kind.percent') },
            { value: 'fixed', label: t('kind.fixed') },
          ]}
        />
      </Stack>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        {discountType === 'percent' ? (
          <WholeNumberInput
            label={t('fields.percent')}
            withAsterisk
            rightSection="%"
            {...valueField(errors, 'value', value, setValue)}
          />
        ) : (
          <MoneyInput
            label={t('fields.amount')}
            withAsterisk
            {...valueField(errors, 'value', value, setValue)}
          />
        )}
        {discountType === 'percent' && (
          <MoneyInput
            label={t('fields.maxDiscount')}
            description={t('form.optional')}
            {...valueField(errors, 'maxDiscount', maxDiscount, setMaxDiscount)}
          />
        )}
        <MoneyInput
          label={t('fields.minOrderTotal')}
          description={t('form.optional')}
          {...valueField(errors, 'minOrderTotal', minOrderTotal, setMinOrderTotal)}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <StoreDateTimeInput
          label={t('fields.startsAt')}
          zoneNote={t('form.zoneNote')}
          {...valueField(errors, 'startsAt', startsAt, setStartsAt)}
        />
        <StoreDateTimeInput
          label={t('fields.endsAt')}
          zoneNote={t('form.zoneNote')}
          {...valueField(errors, 'endsAt', endsAt, setEndsAt)}
        />
        <WholeNumberInput
          label={t('fields.usageLimit')}
          description={t('form.usageLimitHelp')}
          {...valueField(errors, 'usageLimit', usageLimit, setUsageLimit)}
        />
        <WholeNumberInput
          label={t('fields.perCustomerLimit')}
          description={t('form.optional')}
          {...valueField(errors, 'perCustomerLimit', perCustomerLimit, setPerCustomerLimit)}
        />
      </SimpleGrid>
      <ProductsPicker
        label={t('fields.productIds')}
        description={t('form.scopeHelp')}
        action={t('actions.loadProducts')}
        nothingFound={t('form.noProduct')}
        {...valueField(errors, 'productIds', productIds, setProductIds)}
      />
      <MultiSelect
        label={t('fields.categoryIds')}
        description={t('form.scopeHelp')}
        searchable
        clearable
        data={categories.data ?? []}
        value={categoryIds.map(String)}
        onChange={(next) => {
          setCategoryIds(next.map(Number));
          errors.clear('categoryIds');
        }}
        error={errors.of('categoryIds')}
      />
      <Switch
        label={t('fields.isActive')}
        checked={isActive}
        onChange={(event) => {
          setActive(event.currentTarget.checked);
          errors.clear('isActive');
        }}
      />
      {preview && (
        <Text size="sm" role="status" aria-label={t('form.summary')}>
          <Text span fw={600}>
            {t('form.summary')}:
          </Text>{' '}
          {preview}
        </Text>
      )}
    </FormDialog>
  );
}
