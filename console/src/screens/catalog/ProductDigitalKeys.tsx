// A digital product's licence keys: masked (the API never shows a stored key again), filtered by
// status; add keys in bulk, one a line; revoke a key that is still available.
import { Badge, Button, Group, Paper, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StoreDateTime } from '../../components/Formatted';
import { PagedTable } from '../../components/PagedTable';
import { FormError } from '../../components/StatePanels';
import { textField } from '../../lib/form-errors';
import { formatCount } from '../../lib/format';
import { Can, useSession } from '../../session/session';
import type { DigitalKey, Product } from './catalog-api';
import { handleSubmit, useCatalogFormErrors, useRefreshingMutation } from './catalog-forms';
import { ConfirmButton, useLocalPagedList } from './catalog-ui';

const KEY_STATUSES: DigitalKey['status'][] = ['available', 'assigned', 'revoked'];

export function ProductDigitalKeys({ product }: { product: Product }) {
  const { t } = useTranslation('catalog');
  const { client } = useSession();
  const [status, setStatus] = useState<DigitalKey['status'] | null>(null);
  const keys = useLocalPagedList<DigitalKey>({
    queryKey: ['catalog', 'product', product.id, 'keys', status],
    fetchPage: ({ page, size }) =>
      client.list('/api/admin/products/{id}/digital-keys', {
        params: { path: { id: product.id }, query: { page, size, status: status ?? undefined } },
      }),
    size: 20,
    action: t('actions.loadKeys'),
  });
  const revoke = useRefreshingMutation({
    mutationFn: (keyId: string) =>
      client.post('/api/admin/products/{id}/digital-keys/{keyId}/revoke', {
        params: { path: { id: product.id, keyId } },
      }),
    refreshes: ['catalog', 'product', product.id, 'keys'],
    action: t('actions.revokeKey'),
  });

  return (
    <Stack gap="lg">
      <Can permission="DigitalKeys_CREATE">
        <AddKeys product={product} />
      </Can>
      <section aria-labelledby="digital-keys-title">
        <Group justify="space-between" align="flex-end" mb="sm">
          <Title order={2} size="h4" id="digital-keys-title">
            {t('keys.title')}
          </Title>
          <Select
            label={t('keys.status')}
            placeholder={t('common.any')}
            clearable
            value={status}
            onChange={(value) => {
              setStatus(value as DigitalKey['status'] | null);
              keys.setPage(1);
            }}
            data={KEY_STATUSES.map((value) => ({ value, label: t(`keys.statuses.${value}`) }))}
          />
        </Group>
        <PagedTable
          list={keys}
          caption={t('keys.caption', { title: product.title })}
          emptyMessage={t('keys.none')}
          rowKey={(key) => key.id}
          columns={[
            {
              key: 'value',
              header: t('keys.key'),
              cell: (key) => <Text ff="monospace">{key.maskedValue || '••••'}</Text>,
            },
            {
              key: 'status',
              header: t('keys.status'),
              cell: (key) => (
                <Badge
                  variant="filled"
                  color={
                    key.status === 'available' ? 'teal.9' : key.status === 'assigned' ? 'blue.9' : 'gray.7'
                  }
                >
                  {t(`keys.statuses.${key.status}`)}
                </Badge>
              ),
            },
            { key: 'added', header: t('keys.added'), cell: (key) => <StoreDateTime value={key.createdAt} /> },
            {
              key: 'actions',
              header: t('common.actions'),
              cell: (key) =>
                key.status === 'available' ? (
                  <Can permission="DigitalKeys_UPDATE">
                    <ConfirmButton
                      size="xs"
                      label={t('keys.revoke')}
                      aria-label={t('keys.revokeKey', { key: key.maskedValue })}
                      title={t('keys.revokeTitle')}
                      message={t('keys.revokeMessage', { key: key.maskedValue })}
                      confirmLabel={t('keys.revoke')}
                      onConfirm={() => revoke.mutateAsync(key.id)}
                    />
                  </Can>
                ) : null,
            },
          ]}
        />
      </section>
    </Stack>
  );
}

function AddKeys({ product }: { product: Product }) {
  const { t } = useTranslation('catalog');
  const { client } = useSession();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const errors = useCatalogFormErrors(['text']);
  const add = useMutation({
    mutationFn: () =>
      client.post('/api/admin/products/{id}/digital-keys', {
        params: { path: { id: product.id } },
        body: { text },
      }),
    onSuccess: () => {
      setText('');
      errors.clear();
      void queryClient.invalidateQueries({ queryKey: ['catalog', 'product', product.id, 'keys'] });
    },
    onError: errors.show,
    meta: { action: t('actions.addKeys') },
  });
  return (
    <Paper
      withBorder
      p="md"
      component="form"
      onSubmit={handleSubmit(() => add.mutate())}
      noValidate
      aria-label={t('keys.add')}
    >
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('keys.add')}
        </Title>
        <FormError message={errors.message} />
        <Textarea
          label={t('keys.text')}
          description={t('keys.textHint')}
          autosize
          minRows={3}
          maxRows={12}
          ff="monospace"
          {...textField(errors, 'text', text, setText)}
        />
        <Group justify="space-between">
          <Text size="sm" role="status">
            {add.data
              ? t('keys.result', {
                  added: formatCount(add.data.added),
                  duplicates: formatCount(add.data.duplicates),
                })
              : ''}
          </Text>
          <Button type="submit" loading={add.isPending} disabled={text.trim() === ''}>
            {t('keys.addButton')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
