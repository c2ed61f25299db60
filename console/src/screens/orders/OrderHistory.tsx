// The order's story: every status change with who made it, and the staff notes (notes stay in
// the back office; the customer never sees them).
import { Button, Group, Paper, Stack, Text, Textarea } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/DataTable';
import { StoreDateTime } from '../../components/Formatted';
import { EmptyState, FormError } from '../../components/StatePanels';
import { USER_TEXT } from '../../components/UserText';
import { fieldRules, textField, useFormErrors } from '../../lib/form-errors';
import { Can, useClient } from '../../session/session';
import { OrderStatusBadge, useGatewayName } from './OrderBadges';
import { Section } from './OrderSection';
import type { OrderCommands } from './order-commands';
import type { OrderDetail } from './orders-api';

export function OrderHistory({ order, commands }: { order: OrderDetail; commands: OrderCommands }) {
  return (
    <>
      <StatusHistory order={order} />
      <Notes order={order} commands={commands} />
    </>
  );
}

/** A note as the API gives it: the stored English and, when the server wrote it, its code. */
type CodedNote = Pick<OrderDetail['statusHistory'][number], 'notes' | 'noteCode'> & {
  noteParams?: Record<string, string> | null;
};

/**
 * A history row's note in the admin's language: a note the server wrote is worded from its code
 * (the gateway and failure reason named too); a note a person typed, or a code this console does
 * not know yet, shows as stored.
 */
export function useHistoryNote() {
  const { t } = useTranslation('orders');
  const gatewayName = useGatewayName();
  return (entry: CodedNote): string | null => {
    if (!entry.noteCode) return entry.notes;
    const params = entry.noteParams ?? {};
    return t(`historyNote.${entry.noteCode}`, {
      ...params,
      ...(params.gateway ? { gateway: gatewayName(params.gateway) } : {}),
      ...(params.reason
        ? { reason: t(`paymentFailure.${params.reason}`, { defaultValue: params.reason }) }
        : {}),
      defaultValue: entry.notes ?? '',
    });
  };
}

function StatusHistory({ order }: { order: OrderDetail }) {
  const { t } = useTranslation('orders');
  const noteOf = useHistoryNote();
  // History rows have no id; their place in the history is theirs alone (it only grows at the end).
  const rows = order.statusHistory.map((entry, place) => ({ ...entry, place }));
  const columns: Column<(typeof rows)[number]>[] = [
    {
      key: 'when',
      header: t('history.when'),
      cell: (entry) => <StoreDateTime value={entry.createdAt} size="sm" />,
    },
    {
      key: 'status',
      header: t('history.status'),
      cell: (entry) => <OrderStatusBadge status={entry.status} />,
    },
    {
      key: 'by',
      header: t('history.by'),
      cell: (entry) => (
        <>
          <Text size="sm">{entry.createdBy ?? t(`actor.${entry.actorType}`)}</Text>
          {entry.createdBy && (
            <Text size="xs" c="dimmed">
              {t(`actor.${entry.actorType}`)}
            </Text>
          )}
        </>
      ),
    },
    {
      key: 'notes',
      header: t('history.notes'),
      cell: (entry) => (
        <Text size="sm" className={USER_TEXT}>
          {noteOf(entry)}
        </Text>
      ),
    },
  ];
  return (
    <Section title={t('history.title')}>
      {order.statusHistory.length === 0 ? (
        <EmptyState message={t('history.none')} />
      ) : (
        <DataTable
          rows={rows}
          columns={columns}
          rowKey={(entry) => entry.place}
          caption={t('history.title')}
          captionHidden
          minWidth={520}
          verticalSpacing="xs"
        />
      )}
    </Section>
  );
}

function Notes({ order, commands }: { order: OrderDetail; commands: OrderCommands }) {
  const { t } = useTranslation('orders');
  return (
    <Section title={t('notes.title')}>
      <Stack gap="sm">
        {order.adminNotes.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('notes.none')}
          </Text>
        ) : (
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {order.adminNotes.map((note) => (
              <Paper key={note.id} component="li" withBorder p="sm" bg="gray.0">
                <Text size="sm" className={USER_TEXT} style={{ whiteSpace: 'pre-wrap' }}>
                  {note.note}
                </Text>
                <Text size="xs" c="dimmed" mt={4}>
                  {note.createdBy ?? t('actor.admin')} · <StoreDateTime value={note.createdAt} />
                </Text>
              </Paper>
            ))}
          </Stack>
        )}
        <Can permission="Orders_UPDATE">
          <AddNote order={order} commands={commands} />
        </Can>
      </Stack>
    </Section>
  );
}

/** The longest note the API takes (docs/api-notes.md, "Notes"). */
const NOTE_MAX_LENGTH = 2000;

function AddNote({ order, commands }: { order: OrderDetail; commands: OrderCommands }) {
  const { t } = useTranslation('orders');
  const client = useClient();
  const [note, setNote] = useState('');
  const errors = useFormErrors({ note: t('notes.new') });
  const add = useMutation({
    mutationFn: () =>
      client.post('/api/admin/orders/{id}/notes', {
        params: { path: { id: order.id } },
        body: { note: note.trim() },
      }),
    meta: { action: t('actions.note', { orderNumber: order.orderNumber }) },
    onSuccess: () => {
      setNote('');
      errors.clear();
      commands.done(t('notes.added'));
    },
    onError: errors.show,
  });
  // The API's rule (1 to 2,000 characters after trimming), checked here first: an empty or too
  // long note is named under the box, in the admin's language, and nothing is sent. A pasted
  // text is never cut short silently, so the box has no maxLength.
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (errors.check({ note: fieldRules.text(note, { required: true, maximum: NOTE_MAX_LENGTH }) }))
      add.mutate();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="xs">
        <FormError message={errors.formError} />
        <Textarea
          label={t('notes.new')}
          {...textField(errors, 'note', note, setNote)}
          withAsterisk
          autosize
          minRows={2}
          maxRows={12}
        />
        <Group justify="flex-end">
          <Button type="submit" variant="light" loading={add.isPending}>
            {t('notes.add')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
