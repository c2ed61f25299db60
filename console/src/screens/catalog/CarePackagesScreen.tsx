// Care packages: the cover (extended warranty, servicing) sold with products, each with its
// pricing tiers and the rules saying which products it may be bought with.
import { Anchor, Button, Group, Text, TextInput } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Money } from '../../components/Formatted';
import { PagedTable, usePagedList } from '../../components/PagedTable';
import { Screen } from '../../components/Screen';
import { formatCount } from '../../lib/format';
import { Can, useSession } from '../../session/session';
import type { CarePackage } from './catalog-api';
import { ActiveBadge, ActiveFilter, activeFilterOf, useSearchText, useUrlFilters } from './catalog-ui';

export function CarePackagesScreen() {
  const { t } = useTranslation('catalog');
  const { client } = useSession();
  const { values, set } = useUrlFilters(['search', 'isActive'] as const);
  const searchBox = useSearchText(values, set);
  const isActive = activeFilterOf(values.isActive);
  const list = usePagedList<CarePackage>({
    queryKey: ['catalog', 'care-packages', { search: values.search, isActive }],
    fetchPage: ({ page, size }) =>
      client.list('/api/admin/care-packages', {
        params: { query: { page, size, search: values.search, isActive, sort: 'name', order: 'asc' } },
      }),
    action: t('actions.loadCarePackages'),
  });

  return (
    <Screen
      title={t('carePackages.title')}
      actions={
        <Can permission="CarePackages_CREATE">
          <Button component={Link} to="/catalog/care-packages/new">
            {t('carePackages.new')}
          </Button>
        </Can>
      }
    >
      <Group align="flex-end" grow>
        <TextInput type="search" label={t('carePackages.search')} {...searchBox} />
        <ActiveFilter value={isActive} onChange={(value) => set('isActive', value)} />
      </Group>
      <PagedTable
        list={list}
        caption={t('carePackages.caption')}
        emptyMessage={t('carePackages.none')}
        rowKey={(carePackage) => carePackage.id}
        columns={[
          {
            key: 'name',
            header: t('fields.name'),
            cell: (carePackage) => (
              <Anchor component={Link} to={`/catalog/care-packages/${carePackage.id}`}>
                {carePackage.name}
              </Anchor>
            ),
          },
          {
            key: 'tiers',
            header: t('carePackages.tiers'),
            cell: (carePackage) => {
              const active = carePackage.tiers.filter((tier) => tier.isActive);
              return active.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {t('carePackages.noActiveTier')}
                </Text>
              ) : (
                <Text size="sm">
                  {active.map((tier, index) => (
                    <span key={tier.id}>
                      {index > 0 && ' · '}
                      {tier.label} (
                      {t('carePackages.months', {
                        count: tier.durationMonths,
                        value: formatCount(tier.durationMonths),
                      })}
                      , <Money amount={tier.price} />)
                    </span>
                  ))}
                </Text>
              );
            },
          },
          {
            key: 'rules',
            header: t('carePackages.covers'),
            cell: (carePackage) => <RulesSummary rules={carePackage.rules} />,
          },
          {
            key: 'active',
            header: t('fields.status'),
            cell: (carePackage) => <ActiveBadge active={carePackage.isActive} />,
          },
        ]}
      />
    </Screen>
  );
}

function RulesSummary({ rules }: { rules: CarePackage['rules'] }) {
  const { t } = useTranslation('catalog');
  const parts = [
    rules.categoryIds.length > 0 && t('carePackages.rulesCategories', { count: rules.categoryIds.length }),
    rules.brandIds.length > 0 && t('carePackages.rulesBrands', { count: rules.brandIds.length }),
    rules.productIds.length > 0 && t('carePackages.rulesProducts', { count: rules.productIds.length }),
  ].filter(Boolean);
  const hasPrice = rules.minPrice !== null || rules.maxPrice !== null;
  if (parts.length === 0 && !hasPrice) return <Text size="sm">{t('carePackages.rulesAll')}</Text>;
  return (
    <Text size="sm">
      {parts.join(', ')}
      {hasPrice && (
        <>
          {parts.length > 0 && '; '}
          {t('carePackages.priceRange')} {rules.minPrice !== null ? <Money amount={rules.minPrice} /> : '…'} –{' '}
          {rules.maxPrice !== null ? <Money amount={rules.maxPrice} /> : '…'}
        </>
      )}
    </Text>
  );
}
