// What the webhook screens share: the API's shapes, the event catalogue grouped by area, the
// endpoint's state.
import type { components } from '@pasal/client';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../session/session';

export type WebhookEndpoint = components['schemas']['WebhookEndpoint'];
export type WebhookDelivery = components['schemas']['WebhookDelivery'];
export type WebhookDeliveryDetail = components['schemas']['WebhookDeliveryDetail'];
export type WebhookEventType = components['schemas']['WebhookEventType'];

/** The event types the server knows, grouped by their area in catalogue order. */
export function useEventTypeGroups() {
  const { t } = useTranslation('settings');
  const { client } = useSession();
  const types = useQuery({
    queryKey: ['webhooks', 'event-types'],
    queryFn: () => client.get('/api/admin/webhooks/event-types'),
    staleTime: Number.POSITIVE_INFINITY,
    meta: { action: t('webhooks.typesAction') },
  });
  const groups = new Map<string, WebhookEventType[]>();
  for (const type of types.data ?? []) groups.set(type.area, [...(groups.get(type.area) ?? []), type]);
  return { query: types, groups: [...groups] };
}

/** Active, paused by staff, or disabled by the system (and why). */
export function endpointState(endpoint: WebhookEndpoint): 'active' | 'paused' | 'gone' | 'failures' {
  if (endpoint.isActive) return 'active';
  return endpoint.disabledReason ?? 'paused';
}

export const STATE_COLOURS = { active: 'green', paused: 'gray', gone: 'red', failures: 'red' } as const;
export const DELIVERY_COLOURS = { pending: 'yellow', succeeded: 'green', failed: 'red' } as const;
