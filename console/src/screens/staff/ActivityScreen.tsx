// The activity log: what admins (and the server itself) did, newest first, filtered by admin,
// by the kind of record and its id, and by a period of the store's calendar. Actions and kinds of
// record are named in the console's language (unknown ones fall back to their code in words);
// amounts in the server's summaries read as money everywhere else does.
import { Anchor, Button, Group, Select, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StoreDateTime, useLanguage } from '../../components/Formatted';
import { type Column, PagedTable, usePagedList } from '../../components/PagedTable';
import { Screen } from '../../components/Screen';
import { FormError } from '../../components/StatePanels';
import { StoreDateInput } from '../../components/StoreDateInput';
import { fieldErrorsOf } from '../../lib/api-errors';
import { formatMoneyInText } from '../../lib/format';
import { useStoreTimeZone } from '../../lib/store-time-zone';
import { useSession } from '../../session/session';
import { type ActivityEntry as Entry, useActivityWords } from './activity-words';

/** The offset of `timeZone` from UTC at `instant`, in milliseconds. */
function zoneOffsetMs(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant a store-calendar day begins (`2025-11-26` in Asia/Kathmandu is 18:15 UTC the day
 * before). The API takes instants; the admin thinks in the store's days, whatever their laptop's zone.
 */
export function startOfStoreDay(date: string, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d);
  // Twice: the offset at the guess may differ from the offset at the answer (a DST change).
  const guess = wall - zoneOffsetMs(wall, timeZone);
  return new Date(wall - zoneOffsetMs(guess, timeZone));
}

function nextDay(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Where an entry's record lives in the console, for the kinds that have a screen of their own. */
const RECORD_PATHS: Record<string, (id: string) => string> = {
  order: (id) => `/orders/${id}`,
  product: (id) => `/catalog/products/${id}`,
  invoice: (id) => `/tax/invoices/${id}`,
  credit_note: (id) => `/tax/credit-notes/${id}`,
  support_inquiry: (id) => `/support/inquiries/${id}`,
  support_request: (id) => `/support/tickets/${id}`,
  repair_request: (id) => `/repairs/${id}`,
  webhook: (id) => `/settings/webhooks/${id}`,
};

function recordPath(entry: Entry): string | null {
  const path = RECORD_PATHS[entry.entityType];
  return entry.entityId && path ? path(entry.entityId) : null;
}

export function ActivityScreen() {
  const { t } = useTranslation('staff');
  const { client } = useSession();
  const language = useLanguage();
  const timeZone = useStoreTimeZone();
  const { admins, actionName, kindName, adminName } = useActivityWords();
  const [adminId, setAdminId] = useState<string | null>(null);
  const [entityType, setEntityType] = useState<string | null>(null);
  const [entityIdText, setEntityIdText] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [entityId] = useDebouncedValue(entityIdText.trim(), 300);
  const kinds = Object.keys(t('activity.kinds', { returnObjects: true }) as Record<string, string>)
    .map((kind) => ({ value: kind, label: kindName(kind) }))
    .sort((a, b) => a.label.localeCompare(b.label, language));
  const filters = {
    adminId: adminId ?? undefined,
    entityType: entityType ?? undefined,
    entityId: entityId || undefined,
    from: DATE.test(from) ? startOfStoreDay(from, timeZone).toISOString() : undefined,
    // Inclusive: up to the last millisecond of the chosen day.
    to: DATE.test(to)
      ? new Date(startOfStoreDay(nextDay(to), timeZone).getTime() - 1).toISOString()
      : undefined,
  };

  const list = usePagedList<Entry>({
    queryKey: ['staff', 'activity', filters],
    fetchPage: ({ page, size }) =>
      client.list('/api/admin/activity', { params: { query: { page, size, order: 'desc', ...filters } } }),
    action: t('activity.action'),
  });
  // The API checks the period (`to` not before `from`): its word goes under the filters.
  const queryErrors = list.query.error ? fieldErrorsOf(list.query.error, 'querystring') : {};
  const reset = () => {
    setAdminId(null);
    setEntityType(null);
    setEntityIdText('');
    setFrom('');
    setTo('');
    list.setPage(1);
  };
  const changed =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      list.setPage(1);
    };

  const columns: Column<Entry>[] = [
    { key: 'when', header: t('activity.when'), cell: (e) => <StoreDateTime value={e.createdAt} size="sm" /> },
    {
      key: 'admin',
      header: t('activity.admin'),
      cell: (e) =>
        e.adminId === null ? (
          <Text span size="sm" c="dimmed">
            {adminName(null)}
          </Text>
        ) : (
          (adminName(e.adminId) ?? (
            <Text span size="xs" ff="monospace">
              {e.adminId}
            </Text>
          ))
        ),
    },
    { key: 'action', header: t('activity.actionColumn'), cell: (e) => actionName(e.action) },
    {
      key: 'record',
      header: t('activity.record'),
      cell: (e) => {
        const path = recordPath(e);
        const kind = kindName(e.entityType);
        const label = e.entityId ? t('activity.recordLabel', { kind, id: e.entityId }) : kind;
        return path ? (
          <Anchor component={Link} to={path} size="sm">
            {label}
          </Anchor>
        ) : (
          label
        );
      },
    },
    { key: 'summary', header: t('activity.summary'), cell: (e) => formatMoneyInText(e.summary, language) },
  ];

  return (
    <Screen title={t('activity.title')}>
      <Group align="flex-end" wrap="wrap">
        {admins && (
          <Select
            label={t('activity.admin')}
            placeholder={t('activity.anyAdmin')}
            data={admins.map((a) => ({ value: a.id, label: a.name }))}
            value={adminId}
            onChange={changed(setAdminId)}
            searchable
            clearable
            w={220}
          />
        )}
        <Select
          label={t('activity.entityType')}
          placeholder={t('activity.anyKind')}
          data={kinds}
          value={entityType}
          onChange={changed(setEntityType)}
          searchable
          clearable
          w={200}
        />
        <TextInput
          label={t('activity.entityId')}
          value={entityIdText}
          onChange={(event) => changed(setEntityIdText)(event.currentTarget.value)}
          w={160}
        />
        <StoreDateInput
          label={t('activity.from')}
          value={from}
          onChange={changed(setFrom)}
          error={queryErrors.from}
          w={200}
        />
        <StoreDateInput
          label={t('activity.to')}
          value={to}
          onChange={changed(setTo)}
          error={queryErrors.to}
          w={200}
        />
        <Button variant="default" onClick={reset}>
          {t('activity.reset')}
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        {t('activity.zone', { timeZone })}
      </Text>
      {Object.keys(queryErrors).length > 0 && (
        <FormError message={t('activity.badFilters')} title={t('activity.badFiltersTitle')} />
      )}
      <PagedTable
        list={list}
        columns={columns}
        rowKey={(e) => e.id}
        caption={t('activity.caption')}
        emptyMessage={t('activity.empty')}
      />
    </Screen>
  );
}
