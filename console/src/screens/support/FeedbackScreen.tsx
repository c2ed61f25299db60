// Customers' feedback (bug reports, feature requests, general feedback), newest first, with the
// review action that marks an item as read by staff.
import { Anchor, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { components } from '@pasal/client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StoreDateTime } from '../../components/Formatted';
import { type Column, PagedTable, usePagedList } from '../../components/PagedTable';
import { Screen } from '../../components/Screen';
import { useSession } from '../../session/session';
import { StatusBadge } from './StatusBadge';

type Feedback = components['schemas']['Feedback'];
const CATEGORIES = ['bug_report', 'feature_request', 'general_feedback'] as const;

export function FeedbackScreen() {
  const { t } = useTranslation('support');
  const { client, can } = useSession();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<'new' | 'reviewed' | null>(null);
  const [category, setCategory] = useState<(typeof CATEGORIES)[number] | null>(null);
  const [searchText, setSearchText] = useState('');
  const [search] = useDebouncedValue(searchText.trim(), 300);
  const filters = {
    status: status ?? undefined,
    category: category ?? undefined,
    search: search || undefined,
  };

  const list = usePagedList<Feedback>({
    queryKey: ['support', 'feedback', filters],
    fetchPage: ({ page, size }) =>
      client.list('/api/admin/feedback', { params: { query: { page, size, ...filters } } }),
    action: t('feedback.action'),
  });
  const review = useMutation({
    mutationFn: (id: number) => client.patch('/api/admin/feedback/{id}/review', { params: { path: { id } } }),
    meta: { action: t('feedback.reviewAction') },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['support', 'feedback'] }),
  });

  const columns: Column<Feedback>[] = [
    {
      key: 'received',
      header: t('feedback.received'),
      cell: (f) => <StoreDateTime value={f.createdAt} size="sm" />,
    },
    { key: 'category', header: t('feedback.category'), cell: (f) => t(`feedbackCategory.${f.category}`) },
    {
      key: 'feedback',
      header: t('feedback.feedback'),
      cell: (f) => (
        <Stack gap={2} maw={480}>
          <Text size="sm" fw={600}>
            {f.subject}
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {f.message}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'customer',
      header: t('feedback.customer'),
      cell: (f) =>
        can('Customers_READ') ? (
          <Anchor component={Link} to={`/customers/${f.customerId}`} size="sm">
            {t('feedback.openCustomer')}
          </Anchor>
        ) : (
          '—'
        ),
    },
    {
      key: 'status',
      header: t('feedback.status'),
      cell: (f) => (
        <Stack gap={4} align="flex-start">
          <StatusBadge status={f.status} />
          {f.reviewedAt && (
            <Text size="xs" c="dimmed">
              <StoreDateTime value={f.reviewedAt} />
            </Text>
          )}
        </Stack>
      ),
    },
  ];
  if (can('Feedback_UPDATE')) {
    columns.push({
      key: 'review',
      header: <span>{t('feedback.actions')}</span>,
      cell: (f) =>
        f.status === 'new' ? (
          <Button
            size="xs"
            variant="default"
            onClick={() => review.mutate(f.id)}
            loading={review.isPending && review.variables === f.id}
            aria-label={t('feedback.reviewNamed', { subject: f.subject })}
          >
            {t('feedback.review')}
          </Button>
        ) : null,
    });
  }

  return (
    <Screen title={t('feedback.title')}>
      <Group align="flex-end" wrap="wrap">
        <Select
          label={t('feedback.status')}
          placeholder={t('inbox.anyStatus')}
          data={[
            { value: 'new', label: t('status.new') },
            { value: 'reviewed', label: t('status.reviewed') },
          ]}
          value={status}
          onChange={(value) => {
            setStatus(value as typeof status);
            list.setPage(1);
          }}
          clearable
          w={180}
        />
        <Select
          label={t('feedback.category')}
          placeholder={t('feedback.anyCategory')}
          data={CATEGORIES.map((c) => ({ value: c, label: t(`feedbackCategory.${c}`) }))}
          value={category}
          onChange={(value) => {
            setCategory(value as typeof category);
            list.setPage(1);
          }}
          clearable
          w={200}
        />
        <TextInput
          label={t('feedback.search')}
          value={searchText}
          onChange={(event) => {
            setSearchText(event.currentTarget.value);
            list.setPage(1);
          }}
          w={260}
        />
      </Group>
      <PagedTable
        list={list}
        columns={columns}
        rowKey={(f) => f.id}
        caption={t('feedback.caption')}
        emptyMessage={t('feedback.empty')}
      />
    </Screen>
  );
}
