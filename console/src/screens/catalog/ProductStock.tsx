// A physical product's stock: what is on hand, held by carts and unpaid orders, and free to sell;
// an adjustment (add or remove units, or set the counted stock, always with a reason); and the
// ledger of every change, newest first.
import {
  Badge,
  Button,
  Group,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Figure } from '../../components/Figure';
import { StoreDateTime } from '../../components/Formatted';
import { PagedTable } from '../../components/PagedTable';
import { FormError } from '../../components/StatePanels';
import { WholeNumberInput } from '../../components/WholeNumberInput';
import { fieldRules, textField } from '../../lib/form-errors';
import { formatCount } from '../../lib/format';
import { Can, useSession } from '../../session/session';
import type { Product, StockLedgerEntry } from './catalog-api';
import { handleSubmit, useCatalogFormErrors } from './catalog-forms';
import { numberOf, useLocalPagedList } from './catalog-ui';

export function ProductStock({ product }: { product: Product }) {
  const { t } = useTranslation('catalog');
  const { client } = useSession();
  const stock = product.stock ?? { onHand: 0, reserved: 0, available: 0 };
  const ledger = useLocalPagedList<StockLedgerEntry>({
    queryKey: ['catalog', 'product', product.id, 'ledger'],
    fetchPage: ({ page, size }) =>
      client.list('/api/admin/products/{id}/stock/ledger', {
        params: { path: { id: product.id }, query: { page, size } },
      }),
    action: t('actions.loadLedger'),
  });
  const signed = (value: number) => (value > 0 ? `+${formatCount(value)}` : formatCount(value));

  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, xs: 3 }}>
        <Figure label={t('stock.onHand')} value={formatCount(stock.onHand)} />
        <Figure
          label={t('stock.reserved')}
          value={formatCount(stock.reserved)}
          hint={t('stock.reservedHint')}
        />
        <Figure label={t('stock.available')} value={formatCount(stock.available)} />
      </SimpleGrid>
      <Can permission="Inventory_UPDATE">
        <AdjustStock product={product} />
      </Can>
      <section aria-labelledby="stock-ledger-title">
        <Title order={2} size="h4" mb="sm" id="stock-ledger-title">
          {t('stock.ledger')}
        </Title>
        <PagedTable
          list={ledger}
          caption={t('stock.ledgerCaption', { title: product.title })}
          emptyMessage={t('stock.ledgerEmpty')}
          rowKey={(entry) => entry.id}
          columns={[
            {
              key: 'when',
              header: t('stock.when'),
              cell: (entry) => <StoreDateTime value={entry.createdAt} />,
            },
            {
              key: 'source',
              header: t('stock.source'),
              cell: (entry) => <Badge variant="outline">{t(`stock.sources.${entry.source}`)}</Badge>,
            },
            { key: 'reason', header: t('stock.reason'), cell: (entry) => entry.reason },
            {
              key: 'onHandDelta',
              header: t('stock.onHandChange'),
              align: 'right',
              cell: (entry) => (entry.onHandDelta === 0 ? '—' : signed(entry.onHandDelta)),
            },
            {
              key: 'reservedDelta',
              header: t('stock.reservedChange'),
              align: 'right',
              cell: (entry) => (entry.reservedDelta === 0 ? '—' : signed(entry.reservedDelta)),
            },
            {
              key: 'after',
              header: t('stock.after'),
              align: 'right',
              cell: (entry) =>
                t('stock.afterValue', {
                  onHand: formatCount(entry.onHand),
                  reserved: formatCount(entry.reserved),
                }),
            },
          ]}
        />
      </section>
    </Stack>
  );
}

/** The API's bound on a stock change or count, in units (stock.schemas.ts). */
const MAX_UNITS = 1_000_000_000;

function AdjustStock({ product }: { product: Product }) {
  const { t } = useTranslation('catalog');
  const { client } = useSession();
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<'delta' | 'onHand'>('delta');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const errors = useCatalogFormErrors({
    delta: t('stock.delta'),
    onHand: t('stock.counted'),
    reason: t('stock.reason'),
  });

  const adjust = useMutation({
    mutationFn: () => {
      const value = numberOf(amount) as number;
      const body =
        mode === 'delta' ? { delta: value, reason: reason.trim() } : { onHand: value, reason: reason.trim() };
      return client.patch('/api/admin/products/{id}/stock', { params: { path: { id: product.id } }, body });
    },
    onSuccess: () => {
      setAmount('');
      setReason('');
      errors.clear();
      void queryClient.invalidateQueries({ queryKey: ['catalog', 'product', product.id] });
      void queryClient.invalidateQueries({ queryKey: ['catalog', 'products'] });
    },
    onError: errors.show,
    meta: { action: t('actions.adjustStock', { title: product.title }) },
  });

  return (
    <Paper
      withBorder
      p="md"
      component="form"
      onSubmit={handleSubmit(() => {
        const check =
          mode === 'delta'
            ? {
                delta: fieldRules.whole(amount, {
                  required: true,
                  allowNegative: true,
                  minimum: -MAX_UNITS,
                  maximum: MAX_UNITS,
                }),
              }
            : { onHand: fieldRules.whole(amount, { required: true, minimum: 0, maximum: MAX_UNITS }) };
        if (errors.check({ ...check, reason: fieldRules.text(reason, { required: true, maximum: 500 }) }))
          adjust.mutate();
      })}
      noValidate
      aria-label={t('stock.adjust')}
    >
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('stock.adjust')}
        </Title>
        <FormError message={errors.message} />
        <SegmentedControl
          value={mode}
          onChange={(value) => {
            setMode(value as 'delta' | 'onHand');
            errors.clear();
          }}
          data={[
            { value: 'delta', label: t('stock.modeDelta') },
            { value: 'onHand', label: t('stock.modeCount') },
          ]}
          aria-label={t('stock.mode')}
        />
        <Group align="flex-start" grow>
          <WholeNumberInput
            label={mode === 'delta' ? t('stock.delta') : t('stock.counted')}
            description={mode === 'delta' ? t('stock.deltaHint') : t('stock.countedHint')}
            allowNegative={mode === 'delta'}
            value={amount}
            onChange={(value) => {
              setAmount(value);
              errors.clear(mode);
            }}
            error={errors.of(mode)}
          />
          <TextInput
            label={t('stock.reason')}
            description={t('stock.reasonHint')}
            {...textField(errors, 'reason', reason, setReason)}
          />
        </Group>
        <Group justify="flex-end">
          <Button type="submit" loading={adjust.isPending}>
            {t('stock.apply')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
