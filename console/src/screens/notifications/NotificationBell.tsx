// The bell in the header: how many of the admin's notifications are unread, and the newest
// twenty in a panel with "mark read" on each and "mark all read". New ones arrive on the live
// connection (`admin.notification`, the notification itself) and the feed is read again; after
// a reconnect it is read again too (REST is the source of truth). Fits a 390 px phone: the
// panel is as wide as the screen allows.
import {
  ActionIcon,
  Anchor,
  Box,
  Button,
  Group,
  Indicator,
  Popover,
  Stack,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StoreDateTime } from '../../components/Formatted';
import { ErrorState, LoadingState } from '../../components/StatePanels';
import { formatCount } from '../../lib/format';
import { useLiveEvent, useLiveEvents } from '../../lib/live-events';
import { useClient } from '../../session/session';
import {
  feedKey,
  fetchFeed,
  markAllRead,
  markRead,
  type StaffNotification,
  targetOf,
} from './notifications-api';

/** A safety net for a socket that is down without saying so. */
const REREAD_EVERY_MS = 120_000;

export function NotificationBell() {
  const { t } = useTranslation('notifications');
  const client = useClient();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const live = useLiveEvents();

  const feed = useQuery({
    queryKey: feedKey,
    queryFn: () => fetchFeed(client),
    refetchInterval: REREAD_EVERY_MS,
    meta: { action: t('actions.load') },
  });
  const reread = () => void queryClient.invalidateQueries({ queryKey: feedKey });
  useLiveEvent(live, 'admin.notification', reread);
  useEffect(() => {
    if (live.connected) void queryClient.invalidateQueries({ queryKey: feedKey });
  }, [live.connected, queryClient]);

  const readOne = useMutation({
    mutationFn: (id: string) => markRead(client, id),
    onSuccess: reread,
    meta: { action: t('actions.markRead') },
  });
  const readAll = useMutation({
    mutationFn: () => markAllRead(client),
    onSuccess: reread,
    meta: { action: t('actions.markAllRead') },
  });

  const unread = feed.data?.unread ?? 0;
  const label =
    unread > 0 ? t('bell.labelUnread', { count: unread, shown: formatCount(unread) }) : t('bell.label');

  return (
    <Popover
      opened={open}
      onChange={setOpen}
      position="bottom-end"
      width="min(380px, calc(100vw - 16px))"
      shadow="md"
      withinPortal
      trapFocus
      returnFocus
    >
      <Popover.Target>
        {/* The button itself is the target: Mantine gives it aria-expanded and aria-controls. */}
        {/* Overflow shown: the count sits on the button's corner, and the button's own clipping
            cut it to a sliver. */}
        <ActionIcon
          variant="default"
          size="lg"
          aria-label={label}
          onClick={() => setOpen((o) => !o)}
          style={{ overflow: 'visible' }}
        >
          <Indicator
            label={unread > 99 ? '99+' : formatCount(unread)}
            size={16}
            color="red.8"
            disabled={unread === 0}
            offset={-2}
            aria-hidden
          >
            <BellIcon />
          </Indicator>
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown p={0} role="dialog" aria-label={t('panel.title')}>
        <Group
          justify="space-between"
          px="sm"
          py="xs"
          wrap="nowrap"
          style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
        >
          <Text fw={700} size="sm">
            {t('panel.title')}
          </Text>
          <Button
            variant="subtle"
            size="compact-xs"
            disabled={unread === 0}
            loading={readAll.isPending}
            onClick={() => readAll.mutate()}
          >
            {t('actions.markAllRead')}
          </Button>
        </Group>
        <Box style={{ maxHeight: 'min(70vh, 480px)', overflowY: 'auto' }}>
          {feed.isPending ? (
            <LoadingState />
          ) : feed.isError ? (
            <Box p="sm">
              <ErrorState error={feed.error} onRetry={() => void feed.refetch()} />
            </Box>
          ) : feed.data.items.length === 0 ? (
            <Text c="dimmed" size="sm" p="md" ta="center">
              {t('panel.empty')}
            </Text>
          ) : (
            <Stack
              gap={0}
              component="ul"
              style={{ listStyle: 'none', margin: 0, padding: 0 }}
              aria-label={t('panel.list')}
            >
              {feed.data.items.map((n) => (
                <FeedItem
                  key={n.id}
                  notification={n}
                  marking={readOne.isPending && readOne.variables === n.id}
                  onRead={() => readOne.mutate(n.id)}
                  onOpen={() => {
                    if (!n.isRead) readOne.mutate(n.id);
                    setOpen(false);
                  }}
                />
              ))}
            </Stack>
          )}
        </Box>
      </Popover.Dropdown>
    </Popover>
  );
}

function FeedItem({
  notification: n,
  marking,
  onRead,
  onOpen,
}: {
  notification: StaffNotification;
  marking: boolean;
  onRead(): void;
  onOpen(): void;
}) {
  const { t, i18n } = useTranslation('notifications');
  const to = targetOf(n);
  // Known kinds have their title in the admin's language; the body is the API's own words
  // (names, subjects, numbers). Dots would nest the key: the locale files write them as `_`.
  const titleKey = `types.${n.type.replaceAll('.', '_')}`;
  const title = i18n.exists(titleKey, { ns: 'notifications' }) ? t(titleKey) : n.title;
  return (
    <Box
      component="li"
      px="sm"
      py="xs"
      style={{
        borderBottom: '1px solid var(--mantine-color-gray-2)',
        background: n.isRead ? undefined : 'var(--mantine-color-blue-0)',
      }}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap={6} wrap="nowrap">
            {!n.isRead && (
              <Box
                component="span"
                w={8}
                h={8}
                style={{ borderRadius: 4, background: 'var(--mantine-color-blue-8)', flex: 'none' }}
              />
            )}
            {to ? (
              <Anchor component={Link} to={to} size="sm" fw={n.isRead ? 400 : 700} onClick={onOpen}>
                {title}
              </Anchor>
            ) : (
              <Text size="sm" fw={n.isRead ? 400 : 700}>
                {title}
              </Text>
            )}
            {!n.isRead && <VisuallyHidden>{t('item.unread')}</VisuallyHidden>}
          </Group>
          <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
            {n.body}
          </Text>
          <StoreDateTime value={n.createdAt} size="xs" c="dimmed" />
        </Stack>
        {!n.isRead && (
          <UnstyledButton
            onClick={onRead}
            disabled={marking}
            aria-label={t('item.markReadNamed', { title })}
            style={{
              fontSize: 'var(--mantine-font-size-xs)',
              color: 'var(--mantine-color-blue-8)',
              whiteSpace: 'nowrap',
              padding: 4,
            }}
          >
            {t('actions.markRead')}
          </UnstyledButton>
        )}
      </Group>
    </Box>
  );
}

function BellIcon() {
  return (
    <svg
      width="20"
      height="20"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M10 5a2 2 0 1 1 4 0a7 7 0 0 1 4 6v3a4 4 0 0 0 2 3h-16a4 4 0 0 0 2 -3v-3a7 7 0 0 1 4 -6" />
      <path d="M9 17v1a3 3 0 0 0 6 0v-1" />
    </svg>
  );
}
