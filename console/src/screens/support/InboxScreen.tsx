// The support inbox: inquiries and tickets in one list, newest activity first, with the open
// conversation beside it. It is live: the console joins the realtime room of every conversation
// on the list, so a new message moves its conversation to the top (and appears in the open one)
// without a reload. The API has no staff-wide event for a conversation that did not exist when
// the list loaded, so the list also asks again every few seconds while the tab is visible.
import {
  Badge,
  Button,
  Grid,
  Group,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NoAccess } from '../../app/fallbacks';
import { StoreDateTime } from '../../components/Formatted';
import { Screen } from '../../components/Screen';
import { StateBadge } from '../../components/StateBadge';
import { EmptyState, ErrorState, LoadingState } from '../../components/StatePanels';
import { formatCount } from '../../lib/format';
import { type LiveConnection, liveCall, useLiveEvent, useLiveEvents } from '../../lib/live-events';
import { useSession } from '../../session/session';
import { Conversation } from './Conversation';
import { StatusBadge } from './StatusBadge';
import {
  ANY_STATUSES,
  type ConversationKind,
  fetchInbox,
  type InboxFilters,
  type InboxItem,
  inboxKey,
  liveNames,
} from './support-api';

const PAGE = 30;
/**
 * A new conversation is announced live (below); this slow re-read is only a safety net, e.g.
 * for an admin whose role reads the list but is not among those the announcement goes to.
 */
const NEW_CONVERSATIONS_EVERY_MS = 60_000;
/** The staff notifications (`admin.notification`) that announce a new conversation. */
const NEW_CONVERSATION_NOTICES = new Set(['support.inquiry.created', 'support.request.created']);

interface InboxSearch {
  kind?: unknown;
  status?: unknown;
  q?: unknown;
  mine?: unknown;
}

function filtersFrom(search: InboxSearch, myId: string | undefined): InboxFilters {
  const kind = search.kind === 'inquiries' || search.kind === 'tickets' ? search.kind : 'all';
  const status = ANY_STATUSES.find((s) => s === search.status);
  const q = typeof search.q === 'string' && search.q.trim() ? search.q.trim() : undefined;
  const mine = search.mine === true || search.mine === 'true';
  return { kind, status, search: q, assignedAdminId: mine ? myId : undefined };
}

export function InboxScreen() {
  const { t } = useTranslation('support');
  const { can, admin } = useSession();
  const may = { inquiries: can('SupportInquiries_READ'), tickets: can('SupportRequests_READ') };
  if (!may.inquiries && !may.tickets) return <NoAccess permission="SupportInquiries_READ" />;
  return (
    <Screen title={t('inbox.title')}>
      <Inbox may={may} myId={admin?.id} />
    </Screen>
  );
}

function Inbox({ may, myId }: { may: { inquiries: boolean; tickets: boolean }; myId: string | undefined }) {
  const { t } = useTranslation('support');
  const { client } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const search = useSearch({ strict: false }) as InboxSearch;
  const params = useParams({ strict: false }) as { inquiryId?: string; ticketId?: string };
  const filters = filtersFrom(search, myId);
  const [limit, setLimit] = useState(PAGE);
  const [searchText, setSearchText] = useState(filters.search ?? '');
  const [debouncedSearch] = useDebouncedValue(searchText.trim(), 300);

  const setFilter = (
    next: Partial<Record<'kind' | 'status' | 'q' | 'mine', string | boolean | undefined>>,
  ) => {
    setLimit(PAGE);
    void navigate({
      to: '.',
      search: (previous: Record<string, unknown>) => ({ ...previous, ...next }),
      replace: true,
    } as never);
  };
  // The search box writes the URL once the admin pauses typing.
  const currentQ = filters.search ?? '';
  const setFilterRef = useRef(setFilter);
  setFilterRef.current = setFilter;
  useEffect(() => {
    if (debouncedSearch !== currentQ) setFilterRef.current({ q: debouncedSearch || undefined });
  }, [debouncedSearch, currentQ]);

  const inbox = useQuery({
    queryKey: [...inboxKey, filters, limit, may],
    queryFn: () => fetchInbox(client, filters, limit, may),
    placeholderData: keepPreviousData,
    refetchInterval: NEW_CONVERSATIONS_EVERY_MS,
    meta: { action: t('inbox.action') },
  });

  const open = params.inquiryId
    ? { kind: 'inquiry' as const, id: Number(params.inquiryId) }
    : params.ticketId
      ? { kind: 'ticket' as const, id: Number(params.ticketId) }
      : null;
  const validOpen = open && Number.isInteger(open.id) && open.id > 0 ? open : null;

  const live = useLiveEvents();
  const items = inbox.data?.items ?? [];
  useRooms(live, items, validOpen);
  // A message in any conversation on the list reorders the list.
  const refreshList = () => void queryClient.invalidateQueries({ queryKey: inboxKey });
  useLiveEvent(live, liveNames.inquiry.event, refreshList);
  useLiveEvent(live, liveNames.ticket.event, refreshList);
  // A new inquiry or ticket reaches staff as an admin notification on the same connection.
  useLiveEvent<unknown>(live, 'admin.notification', (notice) => {
    const type = (notice as { type?: unknown }).type;
    if (typeof type === 'string' && NEW_CONVERSATION_NOTICES.has(type)) refreshList();
  });
  // Whatever happened while the socket was away is read again: REST is the source of truth.
  useEffect(() => {
    if (live.connected) void queryClient.invalidateQueries({ queryKey: inboxKey });
  }, [live.connected, queryClient]);

  const showKinds = may.inquiries && may.tickets;
  const statusOptions = ANY_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }));

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Group align="flex-end" wrap="wrap">
          {showKinds && (
            <SegmentedControl
              aria-label={t('inbox.kind')}
              value={filters.kind}
              onChange={(kind) => setFilter({ kind: kind === 'all' ? undefined : kind })}
              data={[
                { value: 'all', label: t('inbox.kinds.all') },
                { value: 'inquiries', label: t('inbox.kinds.inquiries') },
                { value: 'tickets', label: t('inbox.kinds.tickets') },
              ]}
            />
          )}
          <Select
            label={t('inbox.status')}
            placeholder={t('inbox.anyStatus')}
            data={statusOptions}
            value={filters.status ?? null}
            onChange={(status) => setFilter({ status: status ?? undefined })}
            clearable
            w={180}
          />
          <TextInput
            label={t('inbox.search')}
            description={t('inbox.searchHint')}
            value={searchText}
            onChange={(event) => setSearchText(event.currentTarget.value)}
            w={260}
          />
          <Switch
            label={t('inbox.mine')}
            checked={Boolean(filters.assignedAdminId)}
            onChange={(event) => setFilter({ mine: event.currentTarget.checked ? true : undefined })}
            mb={6}
          />
        </Group>
        <LiveBadge live={live} />
      </Group>

      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 5 }}>
          {inbox.isPending ? (
            <LoadingState />
          ) : inbox.isError && !inbox.data ? (
            <ErrorState error={inbox.error} onRetry={() => inbox.refetch()} />
          ) : items.length === 0 ? (
            <EmptyState message={t('inbox.empty')} />
          ) : (
            <Stack gap="xs">
              <Text size="sm" c="dimmed" aria-live="polite">
                {t('inbox.count', { shown: formatCount(items.length), total: formatCount(inbox.data.total) })}
              </Text>
              <nav aria-label={t('inbox.listLabel')}>
                <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                  {items.map((item) => (
                    <li key={`${item.kind}:${item.id}`}>
                      <InboxLine
                        item={item}
                        active={validOpen?.kind === item.kind && validOpen.id === item.id}
                        myId={myId}
                      />
                    </li>
                  ))}
                </Stack>
              </nav>
              {inbox.data.more && (
                <Button
                  variant="default"
                  onClick={() => setLimit((n) => n + PAGE)}
                  loading={inbox.isFetching}
                >
                  {t('inbox.showMore')}
                </Button>
              )}
            </Stack>
          )}
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          {validOpen ? (
            <Conversation
              key={`${validOpen.kind}:${validOpen.id}`}
              kind={validOpen.kind}
              id={validOpen.id}
              live={live}
            />
          ) : (
            <Paper withBorder p="xl">
              <Text c="dimmed">{t('inbox.pick')}</Text>
            </Paper>
          )}
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

function LiveBadge({ live }: { live: LiveConnection }) {
  const { t } = useTranslation('support');
  return (
    <StateBadge color={live.connected ? 'teal' : 'gray'} size="lg" role="status">
      {live.connected ? t('live.on') : live.refusedWith ? t('live.refused') : t('live.connecting')}
    </StateBadge>
  );
}

function InboxLine({ item, active, myId }: { item: InboxItem; active: boolean; myId: string | undefined }) {
  const { t } = useTranslation('support');
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const to = item.kind === 'inquiry' ? `/support/inquiries/${item.id}` : `/support/tickets/${item.id}`;
  // An account holder by the account's name (a guest may have typed another one); then what a
  // guest gave; the plain word only when neither is known (an account since anonymised).
  const who =
    item.customerName ??
    item.guestName ??
    item.guestEmail ??
    (item.customerId ? t('inbox.customer') : t('inbox.guest'));
  return (
    <UnstyledButton
      component={Link}
      to={to}
      search={search as never}
      aria-current={active ? 'page' : undefined}
      display="block"
      w="100%"
    >
      <Paper
        withBorder
        p="sm"
        bg={active ? 'var(--mantine-primary-color-light)' : undefined}
        style={{ borderLeft: item.awaitingStaff ? '4px solid var(--mantine-color-orange-7)' : undefined }}
      >
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text fw={600} truncate>
              {item.subject}
            </Text>
            <Text size="sm" c="dimmed" truncate>
              {who}
              {item.trackingCode ? ` · ${item.trackingCode}` : ''}
            </Text>
            <Text size="xs" c="dimmed">
              <StoreDateTime value={item.updatedAt} />
            </Text>
          </Stack>
          <Stack gap={4} align="flex-end" style={{ flexShrink: 0 }}>
            <StateBadge variant="outline" color="gray">
              {t(`kind.${item.kind}`)}
            </StateBadge>
            <StatusBadge status={item.status} />
            {item.awaitingStaff && <StateBadge color="orange">{t('inbox.awaitingStaff')}</StateBadge>}
            {item.assignedAdminId && item.assignedAdminId === myId && (
              <Badge color="indigo" variant="filled" tt="none" fw={600}>
                {t('inbox.assignedToMe')}
              </Badge>
            )}
          </Stack>
        </Group>
        {active && <VisuallyHidden>{t('inbox.opened')}</VisuallyHidden>}
      </Paper>
    </UnstyledButton>
  );
}

/**
 * Keeps the socket in the room of every conversation on the list and of the open one: joins
 * the new ones, leaves those that dropped off. The inbox alone decides membership (a socket is
 * in a room or not; two owners would leave each other's rooms). Rooms belong to a connection,
 * so after a reconnect all are joined again; the open conversation then syncs what it missed.
 */
function useRooms(
  live: LiveConnection,
  items: InboxItem[],
  open: { kind: ConversationKind; id: number } | null,
) {
  const joined = useRef(new Set<string>());
  const openKey = open ? `${open.kind}:${open.id}` : null;
  const wantedKey = useMemo(() => {
    const keys = new Set(items.map((item) => `${item.kind}:${item.id}`));
    if (openKey) keys.add(openKey);
    return [...keys].sort().join(',');
  }, [items, openKey]);
  useEffect(() => {
    if (!live.connected) joined.current.clear();
  }, [live.connected]);
  useEffect(() => {
    const socket = live.socket;
    if (!socket || !live.connected) return;
    const want = new Set(wantedKey ? wantedKey.split(',') : []);
    for (const key of want) {
      if (joined.current.has(key)) continue;
      joined.current.add(key);
      const [kind, id] = key.split(':') as [ConversationKind, string];
      void liveCall(socket, liveNames[kind].join, liveNames[kind].payload(Number(id))).then((answer) => {
        if (!answer.ok) joined.current.delete(key);
      });
    }
    for (const key of [...joined.current]) {
      if (want.has(key)) continue;
      joined.current.delete(key);
      const [kind, id] = key.split(':') as [ConversationKind, string];
      void liveCall(socket, liveNames[kind].leave, liveNames[kind].payload(Number(id)));
    }
  }, [live.socket, live.connected, wantedKey]);
}
