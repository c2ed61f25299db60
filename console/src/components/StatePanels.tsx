// The three states every list and detail has besides its data: loading, failed, empty. One look
// for all screens, and the words in the admin's language.
import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { describeError } from '../lib/api-errors';

export function LoadingState({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Stack align="center" gap="xs">
        <Loader size="sm" aria-hidden />
        <Text size="sm" c="dimmed">
          {label ?? t('states.loading')}
        </Text>
      </Stack>
    </Center>
  );
}

/** A failed load: what went wrong (by errorCode) and a way to try again. */
export function ErrorState({
  error,
  onRetry,
  title,
}: {
  error: unknown;
  onRetry?: () => void;
  title?: string;
}) {
  const { t } = useTranslation();
  return (
    <Alert color="red" variant="light" title={title ?? t('states.errorTitle')} role="alert">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{describeError(error, t)}</Text>
        {onRetry && (
          <Button size="xs" variant="white" color="red" onClick={onRetry}>
            {t('actions.retry')}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

export function EmptyState({ message }: { message?: string }) {
  const { t } = useTranslation();
  return (
    <Center py="xl">
      <Text c="dimmed">{message ?? t('states.empty')}</Text>
    </Center>
  );
}

/**
 * The message of a form as a whole (see lib/form-errors.ts); nothing when there is none.
 * `title` says what did not happen ("Not signed in"); the default is "Not saved".
 */
export function FormError({ message, title }: { message: string | null; title?: string }) {
  const { t } = useTranslation();
  if (!message) return null;
  return (
    <Alert color="red" variant="light" title={title ?? t('states.formErrorTitle')} role="alert">
      {message}
    </Alert>
  );
}
