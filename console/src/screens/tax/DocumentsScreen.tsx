// The tax invoices and the credit notes: one list each, the columns an accountant checks (number,
// BS and AD dates, buyer and PAN, taxable amount, VAT, total, CBMS sync), filtered by fiscal
// year, sync state and a search of number, buyer or PAN, kept in the address.
import {
  Anchor,
  Button,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterFold } from '../../components/FilterFold';
import { type Column, PagedTable, usePagedList } from '../../components/PagedTable';
import { Screen } from '../../components/Screen';
import { storeDateOf } from '../../lib/format';
import { useClient } from '../../session/session';
import {
  type DocumentKind,
  type DocumentListQuery,
  fetchDocuments,
  KIND_PATH,
  SYNC_STATUSES,
  type SyncStatus,
  type TaxDocument,
} from './tax-api';
import { fiscalYearOf, isFiscalYear, recentFiscalYears } from './tax-format';
import { DocumentDate, Paisa, SyncBadge } from './tax-ui';

export function InvoicesScreen() {
  return <DocumentsScreen kind="invoice" />;
}

export function CreditNotesScreen() {
  return <DocumentsScreen kind="creditNote" />;
}

interface Filters {
  fiscalYear: string | null;
  syncStatus: SyncStatus | null;
  search: string;
}

const SEARCH_MAX = 100;
const SEARCH_DELAY_MS = 350;

function filtersFrom(search: Record<string, unknown>): Filters {
  const text =
    typeof search.search === 'string' || typeof search.search === 'number' ? String(search.search) : '';
  return {
    fiscalYear: isFiscalYear(search.fy) ? search.fy : null,
    syncStatus: (SYNC_STATUSES as readonly unknown[]).includes(search.sync)
      ? (search.sync as SyncStatus)
      : null,
    search: text.trim().slice(0, SEARCH_MAX),
  };
}

function queryOf(filters: Filters, page: number, size: number): DocumentListQuery {
  return {
    page,
    size,
    ...(filters.fiscalYear ? { fiscalYear: filters.fiscalYear } : {}),
    ...(filters.syncStatus ? { syncStatus: filters.syncStatus } : {}),
    ...(filters.search ? { search: filters.search } : {}),
  };
}

function DocumentsScreen({ kind }: { kind: DocumentKind }) {
  const { t } = useTranslation('tax');
  const client = useClient();
  const navigate = useNavigate();
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const filters = useMemo(() => filtersFrom(search), [search]);
  const list = usePagedList<TaxDocument>({
    queryKey: ['tax', kind, 'list', filters],
    fetchPage: ({ page, size }) => fetchDocuments(client, kind, queryOf(filters, page, size)),
    action: t(`actions.load.${kind}`),
  });
  const apply = (next: Filters, replace = false) =>
    void navigate({
      to: '.',
      search: {
        fy: next.fiscalYear ?? undefined,
        sync: next.syncStatus ?? undefined,
        search: next.search || undefined,
        page: undefined,
      },
      replace,
    } as never);

  const columns: Column<TaxDocument>[] = [
    {
      key: 'number',
      header: t('list.columns.number'),
      cell: (doc) => (
        <Stack gap={0}>
          <Anchor
            component={Link}
            to={`${KIND_PATH[kind]}/${doc.id}`}
            fw={600}
            style={{ whiteSpace: 'nowrap' }}
          >
            {doc.number}
          </Anchor>
          <Text size="xs" c="dimmed">
            {doc.fiscalYear}
          </Text>
        </Stack>
      ),
    },
    { key: 'date', header: t('list.columns.date'), cell: (doc) => <DocumentDate doc={doc} /> },
    {
      key: 'buyer',
      header: t('list.columns.buyer'),
      cell: (doc) => (
        <Stack gap={0}>
          <Text size="sm">{doc.buyerName}</Text>
          <Text size="xs" c="dimmed">
            {doc.buyerPan ? t('detail.pan', { pan: doc.buyerPan }) : t('detail.noPan')}
          </Text>
        </Stack>
      ),
    },
    ...(kind === 'creditNote'
      ? [
          {
            key: 'reference',
            header: t('list.columns.reference'),
            cell: (doc: TaxDocument) => (
              <Stack gap={0}>
                {doc.referenceInvoiceId ? (
                  <Anchor component={Link} to={`${KIND_PATH.invoice}/${doc.referenceInvoiceId}`} size="sm">
                    {doc.referenceInvoiceNumber}
                  </Anchor>
                ) : null}
                <Text size="xs" c="dimmed">
                  {doc.reason}
                </Text>
              </Stack>
            ),
          },
        ]
      : []),
    {
      key: 'taxable',
      header: t('list.columns.taxable'),
      align: 'right',
      cell: (doc) => <Paisa amount={doc.taxableAmount} />,
    },
    {
      key: 'vat',
      header: t('list.columns.vat'),
      align: 'right',
      cell: (doc) => <Paisa amount={doc.vatAmount} />,
    },
    {
      key: 'total',
      header: t('list.columns.total'),
      align: 'right',
      cell: (doc) => <Paisa amount={doc.totalAmount} fw={600} />,
    },
    {
      key: 'sync',
      header: t('list.columns.sync'),
      cell: (doc) => (
        <Stack gap={2} align="flex-start">
          <SyncBadge status={doc.syncStatus} />
          {doc.syncStatus === 'failed' && doc.lastSyncReply && (
            <Text size="xs" c="red.9">
              {t('sync.lastReply', { reply: doc.lastSyncReply })}
            </Text>
          )}
        </Stack>
      ),
    },
  ];

  const filtered = filters.fiscalYear !== null || filters.syncStatus !== null || filters.search !== '';
  return (
    <Screen title={t(`list.title.${kind}`)}>
      <DocumentFilters filters={filters} onChange={apply} />
      <PagedTable
        list={list}
        columns={columns}
        rowKey={(doc) => doc.id}
        caption={t(`list.caption.${kind}`)}
        emptyMessage={filtered ? t('list.noMatch') : t(`list.none.${kind}`)}
      />
    </Screen>
  );
}

function DocumentFilters({
  filters,
  onChange,
}: {
  filters: Filters;
  onChange(next: Filters, replace?: boolean): void;
}) {
  const { t } = useTranslation('tax');
  const [text, setText] = useState(filters.search);
  useEffect(() => {
    setText((typed) => (typed.trim() === filters.search ? typed : filters.search));
  }, [filters.search]);
  useEffect(() => {
    if (text.trim() === filters.search) return;
    const timer = setTimeout(() => onChange({ ...filters, search: text.trim() }, true), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, filters, onChange]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() !== filters.search) onChange({ ...filters, search: text.trim() });
  };
  const years = recentFiscalYears(fiscalYearOf(storeDateOf(new Date())), 5);
  return (
    <Paper withBorder p="md" component="form" role="search" aria-label={t('filters.title')} onSubmit={submit}>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <TextInput
            type="search"
            label={t('filters.search')}
            placeholder={t('filters.searchPlaceholder')}
            value={text}
            maxLength={SEARCH_MAX}
            onChange={(event) => setText(event.currentTarget.value)}
          />
          <FilterFold active={[filters.fiscalYear, filters.syncStatus].filter(Boolean).length}>
            <NativeSelect
              label={t('filters.fiscalYear')}
              data={[{ value: '', label: t('filters.any') }, ...years.map((y) => ({ value: y, label: y }))]}
              value={filters.fiscalYear ?? ''}
              onChange={(event) => onChange({ ...filters, fiscalYear: event.currentTarget.value || null })}
            />
            <NativeSelect
              label={t('filters.sync')}
              data={[
                { value: '', label: t('filters.any') },
                ...SYNC_STATUSES.map((s) => ({ value: s, label: t(`sync.status.${s}`) })),
              ]}
              value={filters.syncStatus ?? ''}
              onChange={(event) =>
                onChange({ ...filters, syncStatus: (event.currentTarget.value || null) as SyncStatus | null })
              }
            />
          </FilterFold>
        </SimpleGrid>
        {(filters.fiscalYear || filters.syncStatus || filters.search) && (
          <Group>
            <Button
              variant="subtle"
              size="xs"
              onClick={() => onChange({ fiscalYear: null, syncStatus: null, search: '' })}
            >
              {t('filters.clear')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
