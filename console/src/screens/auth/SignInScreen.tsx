import { Anchor, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { FormError } from '../../components/StatePanels';
import { useSession } from '../../session/session';
import { AuthFrame, safeRedirect, useAuthForm } from './AuthFrame';

export function SignInScreen() {
  const { t } = useTranslation('auth');
  const session = useSession();
  const navigate = useNavigate();
  const search = useSearch({ strict: false }) as { redirect?: unknown };
  const next = safeRedirect(search.redirect);
  const form = useAuthForm({
    fields: ['email', 'password'],
    send: async (data) => {
      await session.signIn({
        email: String(data.get('email')).trim(),
        password: String(data.get('password')),
      });
      await navigate({ to: next, replace: true });
    },
  });

  return (
    <AuthFrame title={t('signIn.title')}>
      <form onSubmit={form.submit} noValidate>
        <Stack>
          <FormError message={form.errors.formError} title={t('signIn.failed')} />
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
