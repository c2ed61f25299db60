// The sale's customer: found by email (Enter looks up), or created on the spot when none has
// that email (the API's counter customer: an account the customer later sets a password for,
// from the email it sends). The API lets each staff member create 10 an hour.
import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, type RefObject, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '../../components/StatePanels';
import { fieldRules, textField, useFormErrors } from '../../lib/form-errors';
import { Can, useClient } from '../../session/session';
import { createCustomer, lookupCustomer, type PosCustomer } from './counter-api';
import { AttemptKeys } from './sale-rules';

export function CustomerBox({
  emailRef,
  customer,
  locked,
  onChange,
}: {
  emailRef: RefObject<HTMLInputElement | null>;
  customer: PosCustomer | null;
  locked: boolean;
  onChange(customer: PosCustomer | null): void;
}) {
  const { t } = useTranslation('counter');
  const client = useClient();
  const [email, setEmail] = useState('');
  const [missing, setMissing] = useState<string | null>(null);
  const errors = useFormErrors({ email: t('customer.email') });

  const lookup = useMutation({
    mutationFn: (address: string) => lookupCustomer(client, address),
    meta: { action: t('actions.lookup') },
    onSuccess: (found, address) => {
      onChange(found ?? null);
      setMissing(found ? null : address);
    },
    onError: errors.show,
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!address || lookup.isPending) return;
    if (!errors.check({ email: fieldRules.email(address) })) return;
    lookup.mutate(address);
  };

  if (customer) {
    return (
      <Paper withBorder p="md" component="section" aria-labelledby="counter-customer">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Stack gap={2}>
            <Title order={2} size="h5" id="counter-customer">
              {t('customer.title')}
            </Title>
            <Text fw={600}>{customer.name}</Text>
            <Text size="sm" c="dimmed">
              {customer.email}
              {customer.phone ? ` · ${customer.phone}` : ''}
            </Text>
          </Stack>
          {!locked && (
            <Button
              variant="default"
              size="xs"
              onClick={() => {
                onChange(null);
                setMissing(null);
                setTimeout(() => emailRef.current?.focus());
              }}
            >
              {t('customer.change')}
            </Button>
          )}
        </Group>
      </Paper>
    );
  }

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="counter-customer">
      <Stack gap="sm">
        <Title order={2} size="h5" id="counter-customer">
          {t('customer.title')}
        </Title>
        <form onSubmit={submit} noValidate>
          <Group align="flex-end" gap="xs" wrap="nowrap">
            <TextInput
              ref={emailRef}
              type="email"
              label={t('customer.email')}
              description={t('customer.emailHint')}
              {...textField(errors, 'email', email, (value) => {
                setEmail(value);
                setMissing(null);
              })}
              style={{ flex: 1 }}
              autoComplete="off"
            />
            <Button type="submit" variant="default" loading={lookup.isPending}>
              {t('customer.find')}
            </Button>
          </Group>
        </form>
        <FormError message={errors.formError} title={t('customer.notFound')} />
        {missing && (
          <Can permission="Pos_CREATE">
            <NewCustomer email={missing} onCreated={(created) => onChange(created)} />
          </Can>
        )}
      </Stack>
    </Paper>
  );
}

function NewCustomer({ email, onCreated }: { email: string; onCreated(customer: PosCustomer): void }) {
  const { t } = useTranslation('counter');
  const client = useClient();
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const keys = useRef(new AttemptKeys());
  const errors = useFormErrors({
    name: t('customer.name'),
    email: t('customer.email'),
    phone: t('customer.phone'),
  });
  const create = useMutation({
    mutationFn: () => {
      const body = { name: name.trim(), email, ...(phone.trim() ? { phone: phone.trim() } : {}) };
      return createCustomer(client, keys.current.keyFor(body), body);
    },
    meta: { action: t('actions.createCustomer') },
    onSuccess: (created) => {
      keys.current.reset();
      onCreated(created);
    },
    onError: errors.show,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!create.isPending) create.mutate();
  };
  return (
    <Alert color="blue" variant="light" title={t('customer.none', { email })}>
      <form onSubmit={submit} noValidate>
        <Stack gap="xs">
          <Text size="sm">{t('customer.createHint')}</Text>
          <FormError
            message={errors.formError ?? errors.of('email') ?? null}
            title={t('customer.notCreated')}
          />
          <TextInput
            label={t('customer.name')}
            required
            maxLength={100}
            {...textField(errors, 'name', name, setName)}
          />
          <TextInput
            label={t('customer.phone')}
            type="tel"
            maxLength={20}
            {...textField(errors, 'phone', phone, setPhone)}
          />
          <Group>
            <Button type="submit" loading={create.isPending}>
              {t('customer.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Alert>
  );
}
