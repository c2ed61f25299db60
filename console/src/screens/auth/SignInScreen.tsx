import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import type { TwoFactorChallenge } from '@pasal/client';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '../../components/StatePanels';
import { isPasalError } from '../../lib/api-errors';
import { useSession } from '../../session/session';
import { AuthFrame, safeRedirect, useAuthForm } from './AuthFrame';

export function SignInScreen() {
  const { t } = useTranslation('auth');
  const session = useSession();
  const navigate = useNavigate();
  const search = useSearch({ strict: false }) as { redirect?: unknown };
  const next = safeRedirect(search.redirect);
  // Set once the password was right for an admin with two-factor sign-in: the code step.
  const [challenge, setChallenge] = useState<TwoFactorChallenge | null>(null);
  // Why the admin is back at the password step (the code step timed out), if so.
  const [restart, setRestart] = useState<string | null>(null);
  const form = useAuthForm({
    fields: ['email', 'password'],
    send: async (data) => {
      setRestart(null);
      const { challenge: step } = await session.signIn({
        email: String(data.get('email')).trim(),
        password: String(data.get('password')),
      });
      if (step) setChallenge(step);
      else await navigate({ to: next, replace: true });
    },
  });

  if (challenge) {
    return (
      <CodeStep
        challenge={challenge}
        onSignedIn={() => navigate({ to: next, replace: true })}
        onRestart={(reason) => {
          setChallenge(null);
          setRestart(reason);
        }}
      />
    );
  }

  return (
    <AuthFrame title={t('signIn.title')}>
      <form onSubmit={form.submit} noValidate>
        <Stack>
          <FormError message={form.errors.formError ?? restart} title={t('signIn.failed')} />
          <TextInput
            {...form.field('email')}
            type="email"
            label={t('fields.email')}
            autoComplete="username"
          />
          <PasswordInput
            {...form.field('password')}
            label={t('fields.password')}
            autoComplete="current-password"
            // Named without the word "password", so the field alone answers to the label "Password".
            visibilityToggleButtonProps={{ 'aria-label': t('fields.toggleVisibility') }}
          />
          <Button type="submit" loading={form.pending}>
            {t('signIn.submit')}
          </Button>
          <Anchor component={Link} to="/forgot-password" size="sm">
            {t('signIn.forgot')}
          </Anchor>
        </Stack>
      </form>
    </AuthFrame>
  );
}

/**
 * The second step: a code from the authenticator app, or (lost phone) a recovery code. A
 * challenge that expired or took five wrong codes cannot be answered any more: back to the
 * password, saying why.
 */
function CodeStep(props: {
  challenge: TwoFactorChallenge;
  onSignedIn(): Promise<unknown>;
  onRestart(reason: string): void;
}) {
  const { t } = useTranslation('auth');
  const session = useSession();
  const [method, setMethod] = useState<'totp' | 'recovery_code'>('totp');
  const field = method === 'totp' ? 'code' : 'recoveryCode';
  const form = useAuthForm({
    fields: [field],
    send: async (data) => {
      const value = String(data.get(field) ?? '').trim();
      const challengeToken = props.challenge.challengeToken;
      try {
        await session.answerChallenge(
          method === 'totp' ? { challengeToken, code: value } : { challengeToken, recoveryCode: value },
        );
      } catch (error) {
        if (isPasalError(error, 'AUTH_2FA_CHALLENGE_INVALID')) {
          props.onRestart(t('twoFactor.expired'));
          return;
        }
        throw error;
      }
      await props.onSignedIn();
    },
  });

  return (
    <AuthFrame title={t('twoFactor.title')}>
      <form onSubmit={form.submit} noValidate key={method}>
        <Stack>
          <Text size="sm">{method === 'totp' ? t('twoFactor.leadCode') : t('twoFactor.leadRecovery')}</Text>
          <FormError message={form.errors.formError} title={t('signIn.failed')} />
          {method === 'totp' ? (
            <TextInput
              {...form.field('code')}
              label={t('twoFactor.code')}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              data-autofocus
            />
          ) : (
            <TextInput
              {...form.field('recoveryCode')}
              label={t('twoFactor.recoveryCode')}
              autoComplete="off"
              spellCheck={false}
              placeholder="xxxxx-xxxxx"
            />
          )}
          <Button type="submit" loading={form.pending}>
            {t('twoFactor.submit')}
          </Button>
          <Group justify="space-between">
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() => setMethod(method === 'totp' ? 'recovery_code' : 'totp')}
            >
              {method === 'totp' ? t('twoFactor.useRecovery') : t('twoFactor.useApp')}
            </Anchor>
            <Anchor component="button" type="button" size="sm" onClick={() => props.onRestart('')}>
              {t('backToSignIn')}
            </Anchor>
          </Group>
        </Stack>
      </form>
    </AuthFrame>
  );
}
