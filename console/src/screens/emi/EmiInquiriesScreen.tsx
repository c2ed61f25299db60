// EMI inquiries: who asked to pay a product in instalments, the product as it was when they
// asked (title and price kept by the API), the banks they chose (a deactivated one still
// shown), and where the shop is with them (status and note). Filters live in the address.
import { Button, Group, Modal, NativeSelect, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Money, StoreDateTime } from '../../components/Formatted';
import { LongTextarea } from '../../components/LongTextarea';
import { type Column, PagedTable, usePagedList } from '../../components/PagedTable';
import { Screen } from '../../components/Screen';
import { StateBadge } from '../../components/StateBadge';
import { FormError } from '../../components/StatePanels';
import { USER_TEXT } from '../../components/UserText';
import { textField, useFormErrors } from '../../lib/form-errors';
import { Can, useClient } from '../../session/session';
import { type EmiInquiry, INQUIRY_STATUSES, type InquiryListQuery, type InquiryStatus } from './emi-api';

const COLOURS: Record<InquiryStatus, string> = {
  new: 'yellow',
  contacted: 'blue',
  approved: 'green',
  rejected: 'red',
  closed: 'gray',
};

export function EmiInquiriesScreen() {
  const { t } = useTranslation('emi');
  const client = useClient();
  const navigate = useNavigate();
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const filters = useMemo(
    () => ({
      status: (INQUIRY_STATUSES as readonly unknown[]).includes(search.status)
        ? (search.status as InquiryStatus)
        : null,
      search: typeof search.search === 'string' ? search.search.trim().slice(0, 200) : '',
    }),
    [search],
  );
  const [text, setText] = useState(filters.search);
  const list = usePagedList<EmiInquiry>({
    queryKey: ['emi', 'inquiries', filters],
    fetchPage: ({ page, size }) => {
      const query: InquiryListQuery = { page, size };
      if (filters.status) query.status = filters.status;
      if (filters.search) query.search = filters.search;
      return client.list('/api/admin/emi/inquiries', { params: { query } });
    },
    action: t('actions.loadInquiries'),
  });
  const apply = (next: typeof filters) =>
    void navigate({
      to: '.',
      search: { status: next.status ?? undefined, search: next.search || undefined, page: undefined },
    } as never);

  const columns: Column<EmiInquiry>[] = [
    {
      key: 'at',
      header: t('inquiries.columns.at'),
      cell: (inquiry) => <StoreDateTime value={inquiry.createdAt} size="sm" stacked />,
    },
    {
      key: 'customer',
      header: t('inquiries.columns.customer'),
      cell: (inquiry) => (
        <Stack gap={0} className={USER_TEXT}>
          <Text size="sm" fw={600}>
            {inquiry.customerName}
          </Text>
          <Text size="xs" c="dimmed">
            {inquiry.customerEmail} · {inquiry.customerMobile}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'product',
      header: t('inquiries.columns.product'),
      cell: (inquiry) => (
        <Stack gap={0} className={USER_TEXT}>
          <Text size="sm">{inquiry.productTitle}</Text>
          <Text size="xs" c="dimmed">
            {t('inquiries.snapshot')} <Money amount={inquiry.productSp} />
          </Text>
        </Stack>
      ),
    },
    {
      key: 'terms',
      header: t('inquiries.columns.terms'),
      cell: (inquiry) => (
        <Stack gap={0}>
          <Text size="sm">
            {t('inquiries.down')} <Money amount={inquiry.downPaymentAmount} />
          </Text>
          <Text size="xs" c="dimmed">
            {inquiry.hasCreditCard ? t('inquiries.card') : t('inquiries.noCard')}
          </Text>
          <Text size="xs" c="dimmed">
            {inquiry.banks
              .map((b) => (b.isActive ? b.name : t('inquiries.inactiveBank', { name: b.name })))
              .join(', ')}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'status',
      header: t('inquiries.columns.status'),
      cell: (inquiry) => (
        <Stack gap={4} align="flex-start">
          <StateBadge color={COLOURS[inquiry.status]}>{t(`status.${inquiry.status}`)}</StateBadge>
          {inquiry.statusNote && (
            <Text size="xs" className={USER_TEXT}>
              {inquiry.statusNote}
            </Text>
          )}
          <Can permission="EmiInquiries_UPDATE">
            <StatusChange inquiry={inquiry} />
          </Can>
        </Stack>
      ),
    },
  ];

  return (
    <Screen title={t('inquiries.title')}>
      <Paper
        withBorder
        p="md"
        component="form"
        role="search"
        aria-label={t('inquiries.filters')}
        onSubmit={(event) => {
          event.preventDefault();
          apply({ ...filters, search: text.trim() });
        }}
      >
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <TextInput
            type="search"
            label={t('inquiries.search')}
            placeholder={t('inquiries.searchPlaceholder')}
            value={text}
            maxLength={200}
            onChange={(event) => setText(event.currentTarget.value)}
          />
          <NativeSelect
            label={t('inquiries.status')}
            data={[
              { value: '', label: t('inquiries.any') },
              ...INQUIRY_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) })),
            ]}
            value={filters.status ?? ''}
            onChange={(event) =>
              apply({ ...filters, status: (event.currentTarget.value || null) as InquiryStatus | null })
            }
          />
          <Group align="flex-end">
            <Button type="submit" variant="default">
              {t('inquiries.find')}
            </Button>
          </Group>
        </SimpleGrid>
      </Paper>
      <PagedTable
        list={list}
        columns={columns}
        rowKey={(inquiry) => inquiry.id}
        caption={t('inquiries.caption')}
        emptyMessage={t('inquiries.none')}
      />
    </Screen>
  );
}

function StatusChange({ inquiry }: { inquiry: EmiInquiry }) {
  const { t } = useTranslation('emi');
  const client = useClient();
  const queryClient = useQueryClient();
  const [opened, setOpened] = useState(false);
  const [status, setStatus] = useState<InquiryStatus>(inquiry.status);
  const [note, setNote] = useState(inquiry.statusNote ?? '');
  const errors = useFormErrors(['status', 'note']);
  const save = useMutation({
    mutationFn: () =>
      client.patch('/api/admin/emi/inquiries/{id}/status', {
        params: { path: { id: inquiry.id } },
        body: { status, ...(note.trim() ? { note: note.trim() } : {}) },
      }),
    meta: { action: t('actions.status', { name: inquiry.customerName }) },
    onSuccess: () => {
      setOpened(false);
      void queryClient.invalidateQueries({ queryKey: ['emi'] });
    },
    onError: errors.show,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const title = t('inquiries.changeOf', { name: inquiry.customerName });
  return (
    <>
      {/* The name says whose inquiry, starting with the words the button shows (axe: label-content-name-mismatch). */}
      <Button
        size="compact-xs"
        variant="subtle"
        onClick={() => setOpened(true)}
        aria-label={t('inquiries.changeFor', { name: inquiry.customerName })}
      >
        {t('inquiries.change')}
      </Button>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={title}
        closeButtonProps={{ 'aria-label': t('close') }}
      >
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <FormError message={errors.formError} />
            <NativeSelect
              label={t('inquiries.status')}
              data={INQUIRY_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
              value={status}
              onChange={(event) => setStatus(event.currentTarget.value as InquiryStatus)}
              error={errors.of('status')}
            />
            <LongTextarea
              limit={2000}
              label={t('inquiries.note')}
              {...textField(errors, 'note', note, setNote)}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpened(false)}>
                {t('cancel')}
              </Button>
              <Button type="submit" loading={save.isPending}>
                {t('inquiries.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
