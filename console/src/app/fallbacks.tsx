// Screens for what is not a screen: an unknown address, a screen that failed, a screen the
// admin's role does not allow, and the end of a session.
import { Alert, Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { type ErrorComponentProps, Link, useLocation, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { describeError } from '../lib/api-errors';
import { useSession } from '../session/session';

export function NotFound() {
  const { t } = useTranslation();
  return (
    <Center py="xl">
      <Stack align="center">
        <Title order={1}>{t('notFound.title')}</Title>
        <Text c="dimmed">{t('notFound.text')}</Text>
        <Button component={Link} to="/">
          {t('notFound.home')}
        </Button>
      </Stack>
    </Center>
  );
}

export function RouteError({ error, reset }: ErrorComponentProps) {
  const { t } = useTranslation();
  return (
    <Alert color="red" title={t('states.screenFailed')} role="alert" m="md">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{describeError(error, t)}</Text>
        <Button size="xs" variant="white" color="red" onClick={reset}>
          {t('actions.retry')}
        </Button>
      </Stack>
    </Alert>
  );
}

/** Shown instead of a screen whose permission the admin lacks (reached by a typed address). */
export function NoAccess({ permission }: { permission: string }) {
  const { t } = useTranslation();
  return (
    // The title in dark text: orange words on the orange tint fail WCAG AA contrast.
    <Alert
      color="orange"
      title={t('noAccess.title')}
      role="alert"
      styles={{ title: { color: 'var(--mantine-color-gray-9)' } }}
    >
      {t('noAccess.text', { permission })}
    </Alert>
  );
}

/** The session ended without the admin asking: say so plainly, and offer to sign in again. */
export function SessionEnded() {
  const { t } = useTranslation();
  const { acknowledgeEnd } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" maw={440} component="main">
        <Stack>
          <Title order={1} size="h2">
            {t('sessionEnded.title')}
          </Title>
          <Text>{t('sessionEnded.text')}</Text>
          <Button
            onClick={() => {
              acknowledgeEnd();
              void navigate({ to: '/sign-in', search: { redirect: location.href } } as never);
            }}
          >
            {t('actions.signIn')}
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}
