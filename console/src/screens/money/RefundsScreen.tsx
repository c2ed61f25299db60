// The refunds queue (GET /api/admin/refunds): every refund by where it stands (to decide, owed,
// given back, rejected), the state and search kept in the address; requested ones are decided
// and owed ones marked as given back right here, with the order page's own dialogs.
import { Button, Group, Paper, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PagedTable, usePagedList } from '../../components/PagedTable';
import { Screen } from '../../components/Screen';
import { useAddressFilters } from '../../lib/address-filters';
import { useNarrowScreen } from '../../lib/narrow-screen';
import { useSearchBox } from '../../lib/search-box';
import { useClient } from '../../session/session';
import { CommandStatus, useOrderCommands } from '../orders/order-commands';
import { fetchRefunds, type QueuedRefund, REFUND_STATES } from './money-api';
import {
  type RefundFilters,
  refundFiltersFrom,
  refundQueryOf,
  SEARCH_MAX,
  searchOfRefunds,
} from './money-filters';
import { useRefundColumns } from './refund-columns';

export function RefundsScreen() {
  const { t } = useTranslation('money');
  const client = useClient();
  const narrow = useNarrowScreen();
  const commands = useOrderCommands();
  const { filters, apply } = useAddressFilters(refundFiltersFrom, searchOfRefunds);
  const list = usePagedList<QueuedRefund>({
    queryKey: ['orders', 'refunds', filters],
    fetchPage: ({ page, size }) => fetchRefunds(client, refundQueryOf(filters, page, size)),
    action: t('actions.loadRefunds'),
  });
  const box = useSearchBox(filters.search, (text) => apply({ ...filters, search: text }, true));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    box.commit();
  };
  const columns = useRefundColumns<QueuedRefund>(commands);
  const empty = filters.search ? t('refunds.noMatch') : t(`refunds.empty.${filters.state ?? 'all'}`);

  return (
    <Screen title={t('refunds.title')}>
      <Text size="sm" c="dimmed">
        {t('refunds.intro')}
      </Text>
      <Paper
        withBorder
        p="md"
        component="form"
        role="search"
        aria-label={t('filters.title')}
        onSubmit={submit}
      >
        <Stack gap="sm">
          <Text size="sm" fw={500} id="refund-state">
            {t('refunds.show')}
          </Text>
          <SegmentedControl
            aria-labelledby="refund-state"
            orientation={narrow ? 'vertical' : 'horizontal'}
            fullWidth={narrow}
            value={filters.state ?? 'all'}
            onChange={(value) =>
              apply({ ...filters, state: value === 'all' ? null : (value as RefundFilters['state']) })
            }
            data={[
              { value: 'all', label: t('refundState.all') },
              ...REFUND_STATES.map((s) => ({ value: s, label: t(`refundState.${s}`) })),
            ]}
          />
          <TextInput
            type="search"
            label={t('filters.search')}
            placeholder={t('refunds.searchPlaceholder')}
            value={box.text}
            maxLength={SEARCH_MAX}
            onChange={(event) => box.setText(event.currentTarget.value)}
          />
          {filters.search && (
            <Group>
              <Button variant="subtle" size="xs" onClick={() => apply({ ...filters, search: '' })}>
                {t('filters.clear')}
              </Button>
            </Group>
          )}
        </Stack>
      </Paper>
      <CommandStatus commands={commands} />
      <PagedTable
        list={list}
        columns={[columns.order, columns.reason, columns.amount, columns.state]}
        rowKey={(r) => r.id}
        caption={t('refunds.caption')}
        emptyMessage={empty}
      />
    </Screen>
  );
}
