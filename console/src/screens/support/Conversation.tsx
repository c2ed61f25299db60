// One conversation of the inbox: who wrote, the messages (live), the reply box, and what staff
// do with it (assign, change status, close). Live messages come from the room the inbox keeps
// this conversation in; after every (re)connect the conversation asks the server for what it
// missed since the last `seq` it saw, and reloads by REST when the server says there is a gap.
import {
  Anchor,
  Button,
  Group,
  Paper,
  ScrollArea,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import type { PasalClient } from '@pasal/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StoreDateTime } from '../../components/Formatted';
import { StateBadge } from '../../components/StateBadge';
import { ErrorState, FormError, LoadingState } from '../../components/StatePanels';
import { textField, useFormErrors } from '../../lib/form-errors';
import { type LiveConnection, type LiveEnvelope, liveCall, useLiveEvent } from '../../lib/live-events';
import { useSession } from '../../session/session';
import { StatusBadge } from './StatusBadge';
import {
  type ConversationKind,
  conversationKey,
  INQUIRY_STATUSES,
  type InquiryDetail,
  type InquiryStatus,
  inboxKey,
  liveNames,
  TICKET_STATUSES,
  type TicketDetail,
  type TicketStatus,
} from './support-api';

type Detail = InquiryDetail | TicketDetail;
type Message = Detail['messages'][number];

function fetchConversation(client: PasalClient, kind: ConversationKind, id: number): Promise<Detail> {
  return kind === 'inquiry'
    ? client.get('/api/admin/support-inquiries/{id}', { params: { path: { id } } })
    : client.get('/api/admin/support-requests/{id}', { params: { path: { id } } });
}

const isInquiry = (kind: ConversationKind, detail: Detail): detail is InquiryDetail =>
  kind === 'inquiry' && 'trackingCode' in detail;

export function Conversation({
  kind,
  id,
  live,
}: {
  kind: ConversationKind;
  id: number;
  live: LiveConnection;
}) {
  const { t } = useTranslation('support');
  const { client } = useSession();
  const key = conversationKey(kind, id);
  const detail = useQuery({
    queryKey: key,
    queryFn: () => fetchConversation(client, kind, id),
    meta: { action: t('conversation.action') },
  });
  useLiveMessages(kind, id, live);

  if (detail.isPending) return <LoadingState />;
  if (detail.isError) return <ErrorState error={detail.error} onRetry={() => detail.refetch()} />;
  return <ConversationView kind={kind} detail={detail.data} />;
}

/** Appends live messages to the cached conversation, and catches up after every (re)connect. */
function useLiveMessages(kind: ConversationKind, id: number, live: LiveConnection) {
  const queryClient = useQueryClient();
  const names = liveNames[kind];
  const key = conversationKey(kind, id);
  // The last seq of this room applied here; null until the first join tells where the room is.
  const lastSeq = useRef<number | null>(null);

  const append = (events: LiveEnvelope[]) => {
    const messages = events
      .filter((event) => names.parentOf(event.data) === id)
      .map((event) => event.data as unknown as Message);
    for (const event of events) {
      if (event.seq !== undefined && (lastSeq.current === null || event.seq > lastSeq.current)) {
        lastSeq.current = event.seq;
      }
    }
    if (messages.length === 0) return;
    queryClient.setQueryData<Detail>(key, (current) => {
      if (!current) return current;
      const known = new Set(current.messages.map((m) => m.id));
      const fresh = messages.filter((m) => !known.has(m.id));
      return fresh.length ? ({ ...current, messages: [...current.messages, ...fresh] } as Detail) : current;
    });
  };
  // The message is shown at once; the conversation's other fields (a visitor's message may
  // reopen it) are read again in the background.
  const refreshDetail = () => void queryClient.invalidateQueries({ queryKey: key });

  const catchingUp = useRef(false);
  const catchUp = async () => {
    const socket = live.socket;
    if (!socket || catchingUp.current) return;
    catchingUp.current = true;
    try {
      if (lastSeq.current === null) {
        // First connection: where the room stands, then the messages as of now by REST.
        const joined = await liveCall<{ latestSeq: number | null }>(socket, names.join, names.payload(id));
        if (!joined.ok) return;
        lastSeq.current = joined.latestSeq ?? 0;
        refreshDetail();
        return;
      }
      for (;;) {
        const answer = await liveCall<{
          events: LiveEnvelope[];
          gap: boolean;
          hasMore: boolean;
          latestSeq: number | null;
        }>(socket, names.sync, { ...names.payload(id), afterSeq: lastSeq.current });
        if (!answer.ok) return;
        if (answer.gap) {
          // Older events are gone: the REST detail is the whole truth.
          lastSeq.current = answer.latestSeq ?? lastSeq.current;
          refreshDetail();
          return;
        }
        append(answer.events);
        if (!answer.hasMore) break;
      }
      refreshDetail();
    } finally {
      catchingUp.current = false;
    }
  };
  const catchUpRef = useRef(catchUp);
  catchUpRef.current = catchUp;

  useEffect(() => {
    if (live.connected && live.socket) void catchUpRef.current();
  }, [live.connected, live.socket]);

  useLiveEvent(live, names.event, (envelope) => {
    if (names.parentOf(envelope.data) !== id) return;
    // A hole in the sequence: something was missed (a lost packet, a restart); ask for it.
    if (lastSeq.current !== null && envelope.seq !== undefined && envelope.seq > lastSeq.current + 1) {
      void catchUpRef.current();
      return;
    }
    append([envelope]);
    refreshDetail();
  });
}

function ConversationView({ kind, detail }: { kind: ConversationKind; detail: Detail }) {
  const { t } = useTranslation('support');
  const { can } = useSession();
  const mayUpdate = can(kind === 'inquiry' ? 'SupportInquiries_UPDATE' : 'SupportRequests_UPDATE');
  const closed = detail.status === 'closed' || detail.status === 'spam';
  const inquiry = isInquiry(kind, detail) ? detail : null;

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="conversation-title">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Stack gap={4} style={{ minWidth: 0 }}>
            <Title order={2} size="h3" id="conversation-title">
              {detail.subject}
            </Title>
            <Group gap="xs">
              <StateBadge variant="outline" color="gray">
                {t(`kind.${kind}`)}
              </StateBadge>
              <StatusBadge status={detail.status} />
              <Text size="sm" c="dimmed">
                {t(`category.${detail.category}`, { defaultValue: detail.category })}
                {inquiry ? ` · ${inquiry.trackingCode}` : ` · #${detail.id}`}
              </Text>
            </Group>
          </Stack>
        </Group>

        <WhoWrote kind={kind} detail={detail} />

        <Messages messages={detail.messages} />

        {mayUpdate && !closed && <ReplyBox kind={kind} id={detail.id} />}
        {closed && <Text c="dimmed">{t('conversation.closedNoReply')}</Text>}
        {mayUpdate && <Actions kind={kind} detail={detail} />}
      </Stack>
    </Paper>
  );
}

function WhoWrote({ kind, detail }: { kind: ConversationKind; detail: Detail }) {
  const { t } = useTranslation('support');
  const { can } = useSession();
  const inquiry = isInquiry(kind, detail) ? detail : null;
  const linkedTicket = inquiry?.supportRequestId ?? null;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
      {inquiry && (inquiry.guestName || inquiry.guestEmail || inquiry.guestPhone) && (
        <Field label={t('conversation.contact')}>
          {[inquiry.guestName, inquiry.guestEmail, inquiry.guestPhone].filter(Boolean).join(' · ')}
          {inquiry.guestEmail && (
            <Text span size="xs" c="dimmed">
              {' '}
              (
              {inquiry.emailVerifiedAt ? t('conversation.emailVerified') : t('conversation.emailNotVerified')}
              )
            </Text>
          )}
        </Field>
      )}
      <Field label={t('conversation.account')}>
        {detail.customerId ? (
          <CustomerName customerId={detail.customerId} name={detail.customerName} />
        ) : (
          t('conversation.noAccount')
        )}
      </Field>
      <Field label={t('conversation.opened')}>
        <StoreDateTime value={detail.createdAt} />
      </Field>
      {linkedTicket !== null && (
        <Field label={t('conversation.linkedTicket')}>
          {can('SupportRequests_READ') ? (
            <Anchor component={Link} to={`/support/tickets/${linkedTicket}`}>
              #{linkedTicket}
            </Anchor>
          ) : (
            `#${linkedTicket}`
          )}
        </Field>
      )}
      {'resolutionNote' in detail && detail.resolutionNote && (
        <Field label={t('conversation.resolutionNote')}>{detail.resolutionNote}</Field>
      )}
    </SimpleGrid>
  );
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{children}</Text>
    </div>
  );
}

/** The customer's name and email, linked to their page, when the role may read customers. */
function CustomerName({ customerId, name }: { customerId: string; name: string | null }) {
  const { t } = useTranslation('support');
  const { client, can } = useSession();
  const mayRead = can('Customers_READ');
  const customer = useQuery({
    queryKey: ['customers', customerId],
    queryFn: () => client.get('/api/admin/customers/{id}', { params: { path: { id: customerId } } }),
    enabled: mayRead,
    meta: { action: t('conversation.customerAction') },
  });
  // Without Customers_READ the conversation still names its customer (the inbox does too).
  if (!mayRead) return <>{name ?? t('conversation.customerAccount')}</>;
  const label = customer.data
    ? `${customer.data.name} · ${customer.data.email}`
    : (name ?? t('conversation.customerAccount'));
  return (
    <Anchor component={Link} to={`/customers/${customerId}`}>
      {label}
    </Anchor>
  );
}

function Messages({ messages }: { messages: Message[] }) {
  const { t } = useTranslation('support');
  const viewport = useRef<HTMLDivElement>(null);
  const count = messages.length;
  // The newest message in view, as a chat would: on open and whenever one arrives.
  useEffect(() => {
    const element = viewport.current;
    if (element && count > 0) element.scrollTo({ top: element.scrollHeight });
  }, [count]);
  return (
    <ScrollArea.Autosize mah={420} viewportRef={viewport} type="auto">
      {/* A log: screen readers announce messages that arrive while the conversation is open. */}
      <Stack gap="xs" role="log" aria-live="polite" aria-label={t('conversation.messages')} tabIndex={0}>
        {messages.map((message) => (
          <MessageBubble key={message.id} message={message} />
        ))}
      </Stack>
    </ScrollArea.Autosize>
  );
}

function MessageBubble({ message }: { message: Message }) {
  const { t } = useTranslation('support');
  const fromStaff = message.authorType === 'admin';
  const system = message.authorType === 'system';
  // A message the server wrote (the greeting) is worded in the admin's language; the visitor
  // reads the stored English body.
  const bodyCode = 'bodyCode' in message ? message.bodyCode : null;
  return (
    <Paper
      withBorder
      p="sm"
      ml={fromStaff ? 'xl' : 0}
      mr={fromStaff ? 0 : 'xl'}
      bg={
        fromStaff ? 'var(--mantine-primary-color-light)' : system ? 'var(--mantine-color-gray-0)' : undefined
      }
    >
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" fw={600}>
          {system ? t('author.systemName') : message.authorName}{' '}
          <Text span size="xs" c="dimmed" fw={400}>
            ({t(`author.${message.authorType}`)})
          </Text>
        </Text>
        <Text size="xs" c="dimmed">
          <StoreDateTime value={message.createdAt} />
        </Text>
      </Group>
      <Text size="sm" mt={4} style={{ whiteSpace: 'pre-wrap' }} fs={system ? 'italic' : undefined}>
        {bodyCode ? t(`systemMessage.${bodyCode}`, { defaultValue: message.body }) : message.body}
      </Text>
    </Paper>
  );
}

function ReplyBox({ kind, id }: { kind: ConversationKind; id: number }) {
  const { t } = useTranslation('support');
  const { client } = useSession();
  const queryClient = useQueryClient();
  const errors = useFormErrors(['body']);
  const [body, setBody] = useState('');
  const reply = useMutation({
    mutationFn: (text: string): Promise<Detail> =>
      kind === 'inquiry'
        ? client.post('/api/admin/support-inquiries/{id}/messages', {
            params: { path: { id } },
            body: { body: text },
          })
        : client.post('/api/admin/support-requests/{id}/messages', {
            params: { path: { id } },
            body: { body: text },
          }),
    meta: { action: t('conversation.replyAction') },
    onSuccess: (answer) => {
      setBody('');
      errors.clear();
      // The answer is the conversation with the reply; the live event for it is then a no-op.
      queryClient.setQueryData(conversationKey(kind, id), answer);
      void queryClient.invalidateQueries({ queryKey: inboxKey });
    },
    onError: (error) => errors.show(error),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    reply.mutate(body);
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="xs">
        <FormError message={errors.formError} />
        <Textarea
          label={t('conversation.reply')}
          {...textField(errors, 'body', body, setBody)}
          autosize
          minRows={3}
          maxRows={10}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={reply.isPending} disabled={!body.trim()}>
            {t('conversation.send')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Assign, change status, close: each answers the updated conversation. */
function Actions({ kind, detail }: { kind: ConversationKind; detail: Detail }) {
  const { t } = useTranslation('support');
  const { client, admin, can } = useSession();
  const queryClient = useQueryClient();
  const id = detail.id;
  const done = (answer: unknown) => {
    queryClient.setQueryData(conversationKey(kind, id), answer as Detail);
    void queryClient.invalidateQueries({ queryKey: inboxKey });
  };

  // Other admins to assign to, when the role may list them; else only oneself (or nobody).
  const admins = useQuery({
    queryKey: ['support', 'admins'],
    queryFn: () =>
      client.get('/api/admin/users', {
        params: { query: { pagination: false, isActive: 'true', sort: 'name', order: 'asc' } },
      }),
    enabled: can('AdminUsers_READ'),
    staleTime: 5 * 60_000,
    meta: { action: t('actions.loadAdmins') },
  });
  const assignOptions = new Map<string, string>();
  if (admin) assignOptions.set(admin.id, t('actions.me', { name: admin.name }));
  for (const a of admins.data ?? []) if (a.id !== admin?.id) assignOptions.set(a.id, a.name);
  if (detail.assignedAdminId && !assignOptions.has(detail.assignedAdminId)) {
    assignOptions.set(detail.assignedAdminId, t('actions.anotherAdmin'));
  }

  const assign = useMutation({
    mutationFn: (assignedAdminId: string | null) =>
      kind === 'inquiry'
        ? client.patch('/api/admin/support-inquiries/{id}/assign', {
            params: { path: { id } },
            body: { assignedAdminId },
          })
        : client.patch('/api/admin/support-requests/{id}/assign', {
            params: { path: { id } },
            body: { assignedAdminId },
          }),
    meta: { action: t('actions.assignAction') },
    onSuccess: done,
  });

  const statusErrors = useFormErrors(['status', 'resolutionNote']);
  const [status, setStatus] = useState<string>(detail.status);
  const [note, setNote] = useState('');
  useEffect(() => setStatus(detail.status), [detail.status]);
  const changeStatus = useMutation({
    mutationFn: (next: { status: string; resolutionNote?: string }): Promise<Detail> =>
      kind === 'inquiry'
        ? client.patch('/api/admin/support-inquiries/{id}/status', {
            params: { path: { id } },
            body: { status: next.status as InquiryStatus },
          })
        : client.patch('/api/admin/support-requests/{id}/status', {
            params: { path: { id } },
            body: { status: next.status as TicketStatus, resolutionNote: next.resolutionNote },
          }),
    meta: { action: t('actions.statusAction') },
    onSuccess: (answer) => {
      setNote('');
      statusErrors.clear();
      done(answer);
    },
    onError: (error) => statusErrors.show(error),
  });
  const statuses: readonly string[] = kind === 'inquiry' ? INQUIRY_STATUSES : TICKET_STATUSES;
  // A ticket's resolution note goes only with resolved or closed (the API refuses it otherwise).
  const takesNote = kind === 'ticket' && (status === 'resolved' || status === 'closed');
  const assignError = assign.error;

  return (
    <Stack gap="sm" component="section" aria-label={t('actions.title')}>
      <Title order={3} size="h5">
        {t('actions.title')}
      </Title>
      <Group align="flex-end" wrap="wrap">
        <Select
          label={t('actions.assignedTo')}
          placeholder={t('actions.nobody')}
          data={[...assignOptions].map(([value, label]) => ({ value, label }))}
          value={detail.assignedAdminId}
          onChange={(value) => assign.mutate(value)}
          clearable
          disabled={assign.isPending}
          w={240}
        />
        {admin && detail.assignedAdminId !== admin.id && (
          <Button variant="default" onClick={() => assign.mutate(admin.id)} loading={assign.isPending}>
            {t('actions.assignToMe')}
          </Button>
        )}
      </Group>
      {assignError && <FormError message={t('actions.assignFailed')} />}

      <form
        onSubmit={(event) => {
          event.preventDefault();
          changeStatus.mutate({ status, resolutionNote: takesNote && note.trim() ? note.trim() : undefined });
        }}
        noValidate
      >
        <Stack gap="xs">
          <FormError message={statusErrors.formError} />
          <Group align="flex-end" wrap="wrap">
            <Select
              label={t('actions.status')}
              data={statuses.map((s) => ({ value: s, label: t(`status.${s}`) }))}
              value={status}
              onChange={(value) => {
                if (value) setStatus(value);
                statusErrors.clear('status');
              }}
              error={statusErrors.of('status')}
              allowDeselect={false}
              w={200}
            />
            <Button
              type="submit"
              variant="default"
              disabled={status === detail.status}
              loading={changeStatus.isPending}
            >
              {t('actions.changeStatus')}
            </Button>
            {detail.status !== 'closed' && (
              <Button
                color="gray.8"
                onClick={() => changeStatus.mutate({ status: 'closed' })}
                loading={changeStatus.isPending}
              >
                {t('actions.close')}
              </Button>
            )}
          </Group>
          {takesNote && (
            <Textarea
              label={t('actions.resolutionNote')}
              {...textField(statusErrors, 'resolutionNote', note, setNote)}
              autosize
              minRows={2}
            />
          )}
        </Stack>
      </form>
    </Stack>
  );
}
