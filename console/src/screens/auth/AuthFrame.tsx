// The frame of the screens before sign-in: a card in the middle, the language switch above it.
import { Anchor, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../components/Screen';
import { LanguageSwitch } from '../../i18n/LanguageSwitch';
import { useFormErrors } from '../../lib/form-errors';

export function AuthFrame(props: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const brand = t('common:layout.brand');
  useDocumentTitle(props.title);
  return (
    <Center mih="100vh" p="md" bg="gray.0">
      <Stack w="100%" maw={420} component="main">
        <Group justify="space-between">
          <Text fw={700} size="lg">
            {brand}
          </Text>
          <LanguageSwitch />
        </Group>
        <Paper withBorder shadow="sm" p="xl">
          <Stack>
            <Title order={1} size="h2">
              {props.title}
            </Title>
            {props.children}
          </Stack>
        </Paper>
      </Stack>
    </Center>
  );
}

/** The link back to the sign-in screen under a form. */
export function BackToSignIn() {
  const { t } = useTranslation('auth');
  return (
    <Anchor component={Link} to="/sign-in" size="sm">
      {t('backToSignIn')}
    </Anchor>
  );
}

/** Where to go after sign-in: an address inside the console, never another site. */
export function safeRedirect(value: unknown): string {
  return typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') ? value : '/';
}

/**
 * A form of these screens: its inputs are read from the submitted form (`name="email"`), the
 * API's validation errors go next to them, anything else above the form, and the button spins
 * while `send` runs. `check` may refuse the form before anything is sent (passwords that differ).
 */
export function useAuthForm(opts: {
  fields: readonly string[];
  send(form: FormData): Promise<unknown>;
  check?(form: FormData): boolean;
}) {
  const errors = useFormErrors(opts.fields);
  const [pending, setPending] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    errors.clear();
    if (opts.check && !opts.check(form)) return;
    setPending(true);
    try {
      await opts.send(form);
    } catch (error) {
      errors.show(error);
    } finally {
      setPending(false);
    }
  };
  /** A required input of the form, with its error, cleared as the admin types. */
  const field = (name: string) => ({
    name,
    required: true,
    withAsterisk: false,
    error: errors.of(name),
    onChange: () => errors.clear(name),
  });
  return { errors, pending, submit, field };
}
