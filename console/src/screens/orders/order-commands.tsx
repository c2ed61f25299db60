// Commands on one order, and how the screen follows them.
//
// Cancel, refund decisions and fulfilment moves are asynchronous in the API: it answers 202
// with a request id and a job does the work. The interface's polling contract: wait 1–2 s,
// read GET /api/admin/orders/requests/{requestId}, repeat while it is `pending`, give up after
// 30 s. `useOrderCommands` does that with a query (so a 403 or a lost connection is reported
// like any other read), shows the admin that the shop's server is still at it, and refreshes
// the order when the request ends. One command at a time: the other buttons wait meanwhile.
//
// The other commands (notes, serial numbers, COD cash, digital keys, care packages) are
// answered at once; they only refresh the order.
import { Alert, Button, CloseButton, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '../../components/StatePanels';
import { describeError } from '../../lib/api-errors';
import { useFormErrors } from '../../lib/form-errors';
import { useClient } from '../../session/session';
import { FIRST_POLL_AFTER_MS, GIVE_UP_AFTER_MS, POLL_EVERY_MS, requestSucceeded } from './order-requests';
import { fetchOrderRequest, type OrderRequest } from './orders-api';

/** What the API answers when it accepts an async command. */
export interface AcceptedRequest {
  requestId: string;
  status: OrderRequest['status'];
  error?: string | null;
}

interface Following {
  requestId: string;
  /** What was asked, in the admin's words: "Mark as ready". */
  label: string;
  /** What to say once it is done: "Order ORD-… is ready". */
  doneMessage: string;
  acceptedAt: number;
}

/** How a command ended when it did not simply succeed. */
export interface CommandOutcome {
  kind: 'failed' | 'slow';
  label: string;
  message: string;
}

export interface OrderCommands {
  /** The command being followed, while the API works on it. */
  following: Following | null;
  /** Seconds since the API accepted it. */
  seconds: number;
  /** The last command's failure (or that it is taking too long), until dismissed. */
  outcome: CommandOutcome | null;
  dismiss(): void;
  /** True while a command is under way: other commands wait. */
  busy: boolean;
  /** Follow an accepted async command until it ends. */
  follow(accepted: AcceptedRequest, label: string, doneMessage: string): void;
  /** After a command answered at once: say so and refresh the order. */
  done(message: string): void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function useOrderCommands(): OrderCommands {
  const { t } = useTranslation('orders');
  const client = useClient();
  const queryClient = useQueryClient();
  const [following, setFollowing] = useState<Following | null>(null);
  const [outcome, setOutcome] = useState<CommandOutcome | null>(null);
  const [now, setNow] = useState(() => Date.now());

  // A success is said in a notification, whose close button needs a name of its own.
  const announce = useCallback(
    (message: string) =>
      notifications.show({
        color: 'green',
        title: message,
        message: null,
        closeButtonProps: { 'aria-label': t('command.dismiss') },
      }),
    [t],
  );

  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: ['orders'] }), [queryClient]);

  const request = useQuery({
    queryKey: ['orders', 'request', following?.requestId],
    queryFn: async () => {
      if (!following) throw new Error('no request to follow');
      const wait = following.acceptedAt + FIRST_POLL_AFTER_MS - Date.now();
      if (wait > 0) await sleep(wait);
      return fetchOrderRequest(client, following.requestId);
    },
    enabled: following !== null,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? POLL_EVERY_MS : false),
    staleTime: 0,
    gcTime: 0,
    meta: { action: t('actions.followRequest') },
  });

  // The clock of the progress message, and the 30 s after which the screen stops waiting.
  useEffect(() => {
    if (!following) return;
    const tick = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(tick);
  }, [following]);

  const finish = useCallback(
    (next: CommandOutcome | null, success?: string) => {
      setFollowing(null);
      setOutcome(next);
      if (success) announce(success);
      void refresh();
    },
    [refresh, announce],
  );

  const data = request.data;
  useEffect(() => {
    if (!following) return;
    if (data && data.requestId === following.requestId && data.status !== 'pending') {
      if (requestSucceeded(data)) finish(null, following.doneMessage);
      else
        finish({
          kind: 'failed',
          label: following.label,
          message: t(`requestErrors.${data.error ?? 'unknown'}`, {
            defaultValue: t('requestErrors.unknown'),
          }),
        });
    } else if (request.isError) {
      finish({ kind: 'failed', label: following.label, message: describeError(request.error, t) });
    } else if (now - following.acceptedAt > GIVE_UP_AFTER_MS) {
      finish({ kind: 'slow', label: following.label, message: t('command.slow') });
    }
  }, [following, data, request.isError, request.error, now, finish, t]);

  const follow = useCallback(
    (accepted: AcceptedRequest, label: string, doneMessage: string) => {
      setOutcome(null);
      if (accepted.status !== 'pending') {
        // Decided before it was even queued (rare): nothing to wait for.
        if (requestSucceeded({ status: accepted.status, error: accepted.error ?? null }))
          finish(null, doneMessage);
        else
          finish({
            kind: 'failed',
            label,
            message: t(`requestErrors.${accepted.error ?? 'unknown'}`, {
              defaultValue: t('requestErrors.unknown'),
            }),
          });
        return;
      }
      const acceptedAt = Date.now();
      setNow(acceptedAt);
      setFollowing({ requestId: accepted.requestId, label, doneMessage, acceptedAt });
    },
    [finish, t],
  );

  const done = useCallback(
    (message: string) => {
      setOutcome(null);
      announce(message);
      void refresh();
    },
    [refresh, announce],
  );

  return {
    following,
    seconds: following ? Math.max(0, Math.floor((now - following.acceptedAt) / 1000)) : 0,
    outcome,
    dismiss: () => setOutcome(null),
    busy: following !== null,
    follow,
    done,
  };
}

/** Where the screen says how the current command is doing, or how the last one ended. */
export function CommandStatus({ commands }: { commands: OrderCommands }) {
  const { t } = useTranslation('orders');
  const { following, outcome } = commands;
  if (following) {
    return (
      <Alert color="blue" variant="light" role="status" aria-live="polite" title={following.label}>
        <Group gap="sm" wrap="nowrap">
          <Loader size="xs" aria-hidden />
          <Text size="sm">{t('command.waiting', { seconds: commands.seconds })}</Text>
        </Group>
      </Alert>
    );
  }
  if (outcome) {
    return (
      <Alert
        color={outcome.kind === 'failed' ? 'red' : 'yellow'}
        variant="light"
        role="alert"
        title={t(outcome.kind === 'failed' ? 'command.failedTitle' : 'command.slowTitle', {
          action: outcome.label,
        })}
      >
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text size="sm">{outcome.message}</Text>
          <CloseButton size="sm" aria-label={t('command.dismiss')} onClick={commands.dismiss} />
        </Group>
      </Alert>
    );
  }
  return null;
}

/**
 * A command's dialog: what it will do, the fields it takes, the API's refusal next to them,
 * and a confirm button that names the action (red for what cannot be undone).
 */
export function CommandModal(props: {
  opened: boolean;
  onClose(): void;
  title: string;
  confirmLabel: string;
  /** Cancelling an order, rejecting a refund: red. */
  destructive?: boolean;
  submitting: boolean;
  formError: string | null;
  onSubmit(): void;
  children?: ReactNode;
}) {
  const { t } = useTranslation('orders');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onSubmit();
  };
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={props.title}
      closeButtonProps={{ 'aria-label': t('command.close') }}
      centered
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormError message={props.formError} title={t('command.notDone')} />
          {props.children}
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose} disabled={props.submitting}>
              {t('command.back')}
            </Button>
            <Button type="submit" color={props.destructive ? 'red.8' : undefined} loading={props.submitting}>
              {props.confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * A command's dialog and the write it confirms: the dialog's open state, the API's refusal (the
 * `fields` it names next to their inputs, the rest above them, forgotten when the dialog
 * closes), and the mutation, which closes the dialog once it succeeds. Spread `modal` on the
 * CommandModal.
 */
export function useCommand<Output>(opts: {
  fields?: readonly string[];
  mutationFn(): Promise<Output>;
  /** What the admin was doing, for the console-wide notice of a refusal (`meta.action`). */
  action: string;
  onSuccess(output: Output): void;
}) {
  const errors = useFormErrors(opts.fields ?? []);
  const [opened, setOpened] = useState(false);
  const close = () => {
    setOpened(false);
    errors.clear();
  };
  const mutation = useMutation({
    mutationFn: opts.mutationFn,
    meta: { action: opts.action },
    onSuccess: (output: Output) => {
      close();
      opts.onSuccess(output);
    },
    onError: errors.show,
  });
  return {
    errors,
    open: () => setOpened(true),
    modal: {
      opened,
      onClose: close,
      submitting: mutation.isPending,
      formError: errors.formError,
      onSubmit: () => mutation.mutate(),
    },
  };
}
