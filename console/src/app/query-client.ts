// Server state goes through TanStack Query. Failures that concern the whole console are
// handled here once, for every screen: a 401 that the client's refresh could not cure ends the
// session; a 403 shows a notification naming what was refused. Everything else is the screen's
// to show (its error state, or its form's messages).
import { notifications } from '@mantine/notifications';
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { isPasalError } from '../lib/api-errors';
import type { SessionStore } from '../session/session-store';

/** What a query or mutation may tell the console about itself. */
export interface ConsoleMeta extends Record<string, unknown> {
  /**
   * What the admin was doing, in their language ("load the orders", "cancel order 1042"):
   * named in the notification if the API refuses it.
   */
  action?: string;
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: ConsoleMeta;
    mutationMeta: ConsoleMeta;
  }
}

export function createConsoleQueryClient(session: SessionStore): QueryClient {
  const onError = (error: unknown, meta: ConsoleMeta | undefined) => {
    if (!isPasalError(error)) return;
    if (error.status === 401 && error.errorCode !== 'AUTH_INVALID_CREDENTIALS') session.end();
    if (error.status === 403) {
      const action = meta?.action;
      notifications.show({
        id: `refused:${action ?? error.body.path}`,
        color: 'red',
        title: i18next.t('common:refused.title'),
        message: action
          ? i18next.t('common:refused.action', { action, reason: error.message })
          : i18next.t('common:refused.request', { path: error.body.path, reason: error.message }),
        autoClose: 10_000,
        closeButtonProps: { 'aria-label': i18next.t('common:dismiss') },
      });
    }
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => onError(error, query.meta) }),
    mutationCache: new MutationCache({ onError: (error, _v, _c, mutation) => onError(error, mutation.meta) }),
    defaultOptions: {
      queries: {
        // A 4xx will answer the same again; only network trouble and 5xx are worth a retry.
        retry: (failures, error) => failures < 2 && !(isPasalError(error) && error.status < 500),
        staleTime: 30_000,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}
