// Webhooks: the endpoints of other systems the store tells what happened, with their health
// (state, last delivery, failed deliveries in a row), and adding one: its URL and the events it
// hears, grouped by area. Its signing secret is shown once, right after.
import {
  Anchor,
  Button,
  Checkbox,
  Group,
  Modal,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StoreDateTime } from '../../components/Formatted';
import { type Column, PagedTable, usePagedList } from '../../components/PagedTable';
import { Screen } from '../../components/Screen';
import { StateBadge } from '../../components/StateBadge';
import { ErrorState, FormError, LoadingState } from '../../components/StatePanels';
import { isPasalError } from '../../lib/api-errors';
import { textField, useFormErrors } from '../../lib/form-errors';
import { formatCount } from '../../lib/format';
import { useSession } from '../../session/session';
import { WebhookSecret } from './WebhookSecret';
import { endpointState, STATE_COLOURS, useEventTypeGroups, type WebhookEndpoint } from './webhooks-api';

export function WebhooksScreen() {
  const { t } = useTranslation('settings');
  const { client, can } = useSession();
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const list = usePagedList<WebhookEndpoint>({
    queryKey: ['webhooks', 'list'],
    fetchPage: ({ page, size }) => client.list('/api/admin/webhooks', { params: { query: { page, size } } }),
    action: t('webhooks.action'),
  });

  const columns: Column<WebhookEndpoint>[] = [
    {
      key: 'url',
      header: t('webhooks.url'),
      cell: (w) => (
        <Stack gap={2}>
          <Anchor
            component={Link}
            to={`/settings/webhooks/${w.id}`}
            size="sm"
            fw={600}
            style={{ wordBreak: 'break-all' }}
          >
            {w.url}
          </Anchor>
          {w.description && (
            <Text size="xs" c="dimmed">
              {w.description}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'events',
      header: t('webhooks.events'),
      cell: (w) => <Text size="sm">{t('webhooks.eventCount', { count: w.events.length })}</Text>,
    },
    {
      key: 'state',
      header: t('webhooks.state'),
      cell: (w) => {
        const state = endpointState(w);
        return <StateBadge color={STATE_COLOURS[state]}>{t(`state.${state}`)}</StateBadge>;
      },
    },
    {
      key: 'health',
      header: t('webhooks.health'),
      cell: (w) => (
        <Stack gap={2}>
          <Text size="sm">
            {w.lastDeliveryAt ? (
              <>
                {t(`deliveryStatus.${w.lastDeliveryStatus ?? 'pending'}`)} ·{' '}
                <StoreDateTime value={w.lastDeliveryAt} />
              </>
            ) : (
              t('webhooks.noDelivery')
            )}
          </Text>
          {w.consecutiveFailures > 0 && (
            <Text size="xs" c="red.8">
              {t('webhooks.failuresInRow', {
                count: w.consecutiveFailures,
                n: formatCount(w.consecutiveFailures),
              })}
            </Text>
          )}
        </Stack>
      ),
    },
  ];

  return (
    <Screen
      title={t('webhooks.title')}
      actions={can('Webhooks_CREATE') && <Button onClick={() => setAdding(true)}>{t('webhooks.add')}</Button>}
    >
      <Text size="sm" c="dimmed">
        {t('webhooks.intro')}
      </Text>
      <PagedTable
        list={list}
        columns={columns}
        rowKey={(w) => w.id}
        caption={t('webhooks.caption')}
        emptyMessage={t('webhooks.empty')}
      />
      {adding && (
        <AddWebhook
          onClose={() => setAdding(false)}
          onCreated={(created) => {
            setAdding(false);
            setSecret(created);
          }}
        />
      )}
      {secret && (
        <WebhookSecret secret={secret} title={t('secret.createdTitle')} onClose={() => setSecret(null)} />
      )}
    </Screen>
  );
}

function AddWebhook({ onClose, onCreated }: { onClose: () => void; onCreated: (secret: string) => void }) {
  const { t } = useTranslation('settings');
  const { client } = useSession();
  const queryClient = useQueryClient();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const errors = useFormErrors(['url', 'events', 'description']);
  const catalogue = useEventTypeGroups();

  const save = useMutation({
    mutationFn: () =>
      client.post('/api/admin/webhooks', {
        body: {
          url: url.trim(),
          events: events as never,
          description: description.trim() || null,
        },
      }),
    meta: { action: t('form.createAction') },
    onSuccess: (created) => {
      void queryClient.invalidateQueries({ queryKey: ['webhooks', 'list'] });
      onCreated(created.secret);
    },
    onError: (error) => errors.show(error),
  });
  const toggle = (type: string, on: boolean) => {
    setEvents((current) => (on ? [...new Set([...current, type])] : current.filter((e) => e !== type)));
    errors.clear('events');
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const refused = isPasalError(save.error, 'WEBHOOK_URL_NOT_ALLOWED');
  const eventsError = errors.of('events');

  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('form.close') }}
      opened
      onClose={onClose}
      size="xl"
      title={t('form.createTitle')}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <FormError message={refused ? t('errorCodes.WEBHOOK_URL_NOT_ALLOWED') : errors.formError} />
          <TextInput
            label={t('form.url')}
            description={t('form.urlHint')}
            placeholder="https://"
            {...textField(errors, 'url', url, setUrl)}
            required
          />
          <Textarea
            label={t('form.description')}
            {...textField(errors, 'description', description, setDescription)}
            autosize
            minRows={1}
          />
          <Group justify="space-between">
            <Text fw={600} size="sm" id="webhook-events">
              {t('form.events')}
            </Text>
            <Text size="sm" c="dimmed">
              {t('webhooks.eventCount', { count: events.length })}
            </Text>
          </Group>
          {eventsError && (
            <Text c="red.8" size="sm" role="alert">
              {eventsError}
            </Text>
          )}
          {catalogue.query.isPending ? (
            <LoadingState />
          ) : catalogue.query.isError ? (
            <ErrorState error={catalogue.query.error} onRetry={() => catalogue.query.refetch()} />
          ) : (
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" aria-labelledby="webhook-events">
              {catalogue.groups
                .filter(([area]) => area !== 'webhooks')
                .map(([area, types]) => (
                  <fieldset
                    key={area}
                    style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 4, padding: 8 }}
                  >
                    <legend>
                      <Text size="sm" fw={600} span>
                        {t(`areas.${area}`)}
                      </Text>
                    </legend>
                    <Stack gap={4}>
                      {types.map((type) => (
                        <Checkbox
                          key={type.type}
                          size="xs"
                          label={type.type}
                          description={t(`types.${type.type}`, { defaultValue: type.description })}
                          checked={events.includes(type.type)}
                          onChange={(event) => toggle(type.type, event.currentTarget.checked)}
                        />
                      ))}
                    </Stack>
                  </fieldset>
                ))}
            </SimpleGrid>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('form.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('form.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
