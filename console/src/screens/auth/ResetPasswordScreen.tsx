// A new password with the emailed secret: the link's `token` (taken from the address), or the
// emailed code typed by hand with the email address. The API ends every session of the account.
import { Alert, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { Link, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '../../components/StatePanels';
import { useClient } from '../../session/session';
import { AuthFrame, BackToSignIn, useAuthForm } from './AuthFrame';

export function ResetPasswordScreen() {
  const { t } = useTranslation('auth');
  const client = useClient();
  const search = useSearch({ strict: false }) as { token?: unknown; email?: unknown };
  const token = typeof search.token === 'string' && search.token ? search.token : null;
  const [mismatch, setMismatch] = useState(false);
  const [done, setDone] = useState(false);
  const form = useAuthForm({
    fields: ['email', 'code', 'token', 'newPassword'],
    check: (data) => {
      const same = data.get('newPassword') === data.get('confirmPassword');
      if (!same) setMismatch(true);
      return same;
    },
    send: async (data) => {
      const secret = token
        ? { token }
        : { email: String(data.get('email')).trim(), code: String(data.get('code')).trim() };
      await client.post('/api/auth/password/reset', {
        body: { ...secret, newPassword: String(data.get('newPassword')) },
      });
      setDone(true);
    },
  });

  if (done) {
    return (
      <AuthFrame title={t('reset.doneTitle')}>
        <Alert color="green" variant="light" role="status">
          {t('reset.doneText')}
        </Alert>
        <Button component={Link} to="/sign-in">
          {t('signIn.submit')}
        </Button>
      </AuthFrame>
    );
  }

  return (
    <AuthFrame title={t('reset.title')}>
      <Text size="sm">{token ? t('reset.leadWithLink') : t('reset.leadWithCode')}</Text>
      <form onSubmit={form.submit} noValidate>
        <Stack>
          <FormError
            message={form.errors.formError ?? (form.errors.of('token') ? t('reset.linkInvalid') : null)}
            title={t('reset.failed')}
          />
          {!token && (
            <>
              <TextInput
                {...form.field('email')}
                type="email"
                label={t('fields.email')}
                autoComplete="username"
                defaultValue={typeof search.email === 'string' ? search.email : ''}
              />
              <TextInput {...form.field('code')} label={t('fields.code')} autoComplete="one-time-code" />
            </>
          )}
          <PasswordInput
            {...form.field('newPassword')}
            label={t('fields.newPassword')}
            description={t('reset.passwordRule')}
            autoComplete="new-password"
            visibilityToggleButtonProps={{ 'aria-label': t('fields.toggleVisibility') }}
          />
          <PasswordInput
            name="confirmPassword"
            label={t('fields.confirmPassword')}
            autoComplete="new-password"
            required
            withAsterisk={false}
            error={mismatch ? t('reset.mismatch') : undefined}
            onChange={() => setMismatch(false)}
            visibilityToggleButtonProps={{ 'aria-label': t('fields.toggleVisibility') }}
          />
          <Button type="submit" loading={form.pending}>
            {t('reset.submit')}
          </Button>
          <BackToSignIn />
        </Stack>
      </form>
    </AuthFrame>
  );
}
