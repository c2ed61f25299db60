// Shipping districts: Nepal's 77 districts in their 7 provinces, each with the delivery fee in
// NPR and whether the store ships there. Districts are fixed (the API neither adds nor deletes
// them); staff set the fee and switch delivery on or off.
import { Button, Group, Select, Switch, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Money, useDistrictName } from '../../components/Formatted';
import { PagedTable, usePagedList } from '../../components/PagedTable';
import { Screen } from '../../components/Screen';
import { fieldRules, valueField } from '../../lib/form-errors';
import { wholeNumberText } from '../../lib/whole-number';
import { useSession } from '../../session/session';
import { PROVINCES, type Province, type ShippingDistrict } from './catalog-api';
import { checkedSave, FormDialog, useCatalogFormErrors, useRefreshingMutation } from './catalog-forms';
import {
  ActiveFilter,
  activeFilterOf,
  MoneyInput,
  numberOf,
  useSearchText,
  useUrlFilters,
} from './catalog-ui';

type Sort = 'name' | 'province' | 'shippingFee' | 'updatedAt';
const SORTS: Sort[] = ['name', 'province', 'shippingFee', 'updatedAt'];

export function ShippingDistrictsScreen() {
  const { t } = useTranslation('catalog');
  const { client, can } = useSession();
  const nameOf = useDistrictName();
  const { values, set } = useUrlFilters(['search', 'province', 'isActive', 'sort'] as const);
  const searchBox = useSearchText(values, set);
  const province = PROVINCES.includes(values.province as Province)
    ? (values.province as Province)
    : undefined;
  const isActive = activeFilterOf(values.isActive);
  const sort = SORTS.includes(values.sort as Sort) ? (values.sort as Sort) : undefined;
  const list = usePagedList<ShippingDistrict>({
    queryKey: ['catalog', 'shipping-districts', { search: values.search, province, isActive, sort }],
    fetchPage: ({ page, size }) =>
      client.list('/api/admin/shipping-districts', {
        params: { query: { page, size, search: values.search, province, isActive, sort } },
      }),
    size: 25,
    action: t('actions.loadDistricts'),
  });
  const [editing, setEditing] = useState<ShippingDistrict | null>(null);

  return (
    <Screen title={t('districts.title')}>
      <Text size="sm" c="dimmed">
        {t('districts.intro')}
      </Text>
      <Group align="flex-end" grow>
        <TextInput type="search" label={t('districts.search')} {...searchBox} />
        <Select
          label={t('districts.province')}
          placeholder={t('common.any')}
          clearable
          value={province ?? null}
          onChange={(value) => set('province', value)}
          data={PROVINCES.map((value) => ({ value, label: t(`provinces.${value}`) }))}
        />
        <ActiveFilter
          value={isActive}
          onChange={(value) => set('isActive', value)}
          labelKey="districts.delivery"
        />
        <Select
          label={t('products.sort')}
          placeholder={t('districts.sorts.name')}
          clearable
          value={sort ?? null}
          onChange={(value) => set('sort', value)}
          data={SORTS.map((value) => ({ value, label: t(`districts.sorts.${value}`) }))}
        />
      </Group>
      <PagedTable
        list={list}
        caption={t('districts.caption')}
        emptyMessage={t('districts.none')}
        rowKey={(district) => district.id}
        columns={[
          { key: 'name', header: t('districts.district'), cell: (district) => nameOf(district.name) },
          {
            key: 'province',
            header: t('districts.province'),
            cell: (district) => t(`provinces.${district.province}`),
          },
          {
            key: 'fee',
            header: t('districts.fee'),
            align: 'right',
            cell: (district) => <Money amount={district.shippingFee} />,
          },
          {
            key: 'active',
            header: t('districts.delivery'),
            cell: (district) => (
              <Text span size="sm" c={district.isActive ? 'teal.9' : 'gray.7'} fw={600}>
                {district.isActive ? t('districts.ships') : t('districts.noDelivery')}
              </Text>
            ),
          },
          ...(can('ShippingDistricts_UPDATE')
            ? [
                {
                  key: 'actions',
                  header: t('common.actions'),
                  cell: (district: ShippingDistrict) => (
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() => setEditing(district)}
                      aria-label={t('common.editNamed', { name: nameOf(district.name) })}
                    >
                      {t('common.edit')}
                    </Button>
                  ),
                },
              ]
            : []),
        ]}
      />
      {editing && <DistrictDialog district={editing} onClose={() => setEditing(null)} />}
    </Screen>
  );
}

function DistrictDialog({ district, onClose }: { district: ShippingDistrict; onClose(): void }) {
  const { t } = useTranslation('catalog');
  const { client } = useSession();
  const name = useDistrictName()(district.name);
  const [fee, setFee] = useState(wholeNumberText(district.shippingFee));
  const [isActive, setIsActive] = useState(district.isActive);
  const errors = useCatalogFormErrors({
    shippingFee: t('districts.fee'),
    isActive: t('districts.shipsHere'),
  });
  const save = useRefreshingMutation({
    mutationFn: () =>
      client.patch('/api/admin/shipping-districts/{id}', {
        params: { path: { id: district.id } },
        body: { shippingFee: numberOf(fee), isActive },
      }),
    refreshes: ['catalog', 'shipping-districts'],
    onSuccess: onClose,
    onError: errors.show,
    action: t('actions.saveDistrict', { name }),
  });
  return (
    <FormDialog
      onClose={onClose}
      title={t('districts.editTitle', { name, province: t(`provinces.${district.province}`) })}
      label={t('districts.formLabel')}
      errors={errors}
      save={checkedSave(save, () =>
        errors.check({
          shippingFee: fieldRules.whole(fee, { required: true, minimum: 0, maximum: 1_000_000 }),
        }),
      )}
    >
      <MoneyInput
        label={t('districts.fee')}
        description={t('districts.feeHint')}
        {...valueField(errors, 'shippingFee', fee, setFee)}
      />
      <Switch
        label={t('districts.shipsHere')}
        checked={isActive}
        onChange={(event) => setIsActive(event.currentTarget.checked)}
      />
    </FormDialog>
  );
}
