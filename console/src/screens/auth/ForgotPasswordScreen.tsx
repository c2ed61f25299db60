import { Alert, Button, Stack, Text, TextInput } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '../../components/StatePanels';
import { useClient } from '../../session/session';
import { AuthFrame, BackToSignIn, useAuthForm } from './AuthFrame';

export function ForgotPasswordScreen() {
  const { t } = useTranslation('auth');
  const client = useClient();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useAuthForm({
    fields: ['email'],
    send: async (data) => {
      const email = String(data.get('email')).trim();
      await client.post('/api/auth/password/forgot', { body: { email } });
      setSentTo(email);
    },
  });

  if (sentTo) {
    // The API answers the same whether or not the account exists, and so does this screen.
    return (
      <AuthFrame title={t('forgot.sentTitle')}>
        <Alert color="green" variant="light" role="status">
          {t('forgot.sentText', { email: sentTo })}
        </Alert>
        <Button component={Link} to="/reset-password" search={{ email: sentTo } as never}>
          {t('forgot.enterCode')}
        </Button>
        <BackToSignIn />
      </AuthFrame>
    );
  }

  return (
    <AuthFrame title={t('forgot.title')}>
      <Text size="sm">{t('forgot.lead')}</Text>
      <form onSubmit={form.submit} noValidate>
        <Stack>
          <FormError message={form.errors.formError} title={t('forgot.failed')} />
          <TextInput
            {...form.field('email')}
            type="email"
            label={t('fields.email')}
            autoComplete="username"
          />
          <Button type="submit" loading={form.pending}>
            {t('forgot.submit')}
          </Button>
          <BackToSignIn />
        </Stack>
      </form>
    </AuthFrame>
  );
}
