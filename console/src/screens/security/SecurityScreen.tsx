// The signed-in admin's own security: two-factor sign-in with an authenticator app (turn it
// on with a QR code drawn here from the API's otpauth URL, recovery codes shown once, new
// recovery codes, turn it off) and the devices signed in to the account, each of which can be
// signed out. With STAFF_2FA_REQUIRED this is the only page an admin without 2FA can open.
import {
  Alert,
  Box,
  Button,
  Code,
  CopyButton,
  Group,
  Image,
  List,
  Paper,
  PasswordInput,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { components } from '@pasal/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toDataURL } from 'qrcode';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StoreDateTime } from '../../components/Formatted';
import { Screen } from '../../components/Screen';
import { StateBadge } from '../../components/StateBadge';
import { ErrorState, FormError, LoadingState } from '../../components/StatePanels';
import { useFormErrors } from '../../lib/form-errors';
import { useSession } from '../../session/session';

type Device = components['schemas']['SignedInDevice'];
type Setup = components['schemas']['TotpSetup'];

export function SecurityScreen() {
  const { t } = useTranslation('security');
  const { admin, enrolmentRequired } = useSession();
  // Shown once, right after they are made; gone when the admin says they saved them.
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  return (
    <Screen title={t('title')}>
      {enrolmentRequired && (
        <Alert color="red" variant="light" title={t('required.title')}>
          {t('required.text')}
        </Alert>
      )}
      <Paper withBorder p="md">
        <Stack>
          <Group justify="space-between">
            <Title order={2} size="h3">
              {t('twoFactor.title')}
            </Title>
            <StateBadge color={admin?.twoFactorEnabled ? 'teal' : 'gray'}>
              {admin?.twoFactorEnabled ? t('twoFactor.on') : t('twoFactor.off')}
            </StateBadge>
          </Group>
          {recoveryCodes ? (
            <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />
          ) : admin?.twoFactorEnabled ? (
            <ManageTwoFactor onRecoveryCodes={setRecoveryCodes} />
          ) : (
            <TurnOn onRecoveryCodes={setRecoveryCodes} />
          )}
        </Stack>
      </Paper>
      <Devices />
    </Screen>
  );
}

/** Setup: a secret for the app as a QR code and as text, then a code from the app confirms it. */
function TurnOn({ onRecoveryCodes }: { onRecoveryCodes(codes: string[]): void }) {
  const { t } = useTranslation('security');
  const { client, reloadAccount } = useSession();
  const [setup, setSetup] = useState<Setup | null>(null);
  const [qr, setQr] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const errors = useFormErrors(['code']);

  const start = useMutation({
    mutationFn: () => client.post('/api/auth/2fa/totp/setup'),
    meta: { action: t('twoFactor.startAction') },
    onSuccess: (data) => setSetup(data),
    onError: errors.show,
  });
  // Drawn in the browser: the secret never goes to another service.
  useEffect(() => {
    if (!setup) return;
    let current = true;
    void toDataURL(setup.otpauthUrl, { margin: 2, width: 220, errorCorrectionLevel: 'M' }).then((url) => {
      if (current) setQr(url);
    });
    return () => {
      current = false;
    };
  }, [setup]);
  const confirm = useMutation({
    mutationFn: () => client.post('/api/auth/2fa/totp/confirm', { body: { code: code.trim() } }),
    meta: { action: t('twoFactor.confirmAction') },
    onSuccess: async (data) => {
      onRecoveryCodes(data.recoveryCodes);
      await reloadAccount();
    },
    onError: errors.show,
  });

  if (!setup) {
    return (
      <Stack align="flex-start">
        <Text size="sm">{t('twoFactor.offText')}</Text>
        <FormError message={errors.formError} />
        <Button onClick={() => start.mutate()} loading={start.isPending}>
          {t('twoFactor.turnOn')}
        </Button>
      </Stack>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    errors.clear();
    confirm.mutate();
  };
  return (
    <Stack>
      <List type="ordered" size="sm" spacing="xs">
        <List.Item>{t('twoFactor.step1')}</List.Item>
        <List.Item>{t('twoFactor.step2')}</List.Item>
        <List.Item>{t('twoFactor.step3')}</List.Item>
      </List>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {qr ? <Image src={qr} alt={t('twoFactor.qrAlt')} w={220} h={220} fit="contain" /> : <LoadingState />}
        <Stack gap="xs">
          <Text size="sm" fw={600} id="totp-secret-label">
            {t('twoFactor.secretLabel')}
          </Text>
          <Code
            block
            aria-labelledby="totp-secret-label"
            style={{ wordBreak: 'break-all' }}
            data-testid="totp-secret"
          >
            {setup.secret.replace(/(.{4})/g, '$1 ').trim()}
          </Code>
          <Text size="xs" c="dimmed">
            {t('twoFactor.secretHint')}
          </Text>
        </Stack>
      </SimpleGrid>
      <form onSubmit={submit} noValidate>
        <Stack align="flex-start">
          <FormError message={errors.formError} title={t('twoFactor.notConfirmed')} />
          <TextInput
            label={t('twoFactor.code')}
            value={code}
            onChange={(event) => {
              setCode(event.currentTarget.value);
              errors.clear('code');
            }}
            error={errors.of('code')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            w={200}
          />
          <Group>
            <Button type="submit" loading={confirm.isPending}>
              {t('twoFactor.confirm')}
            </Button>
            <Button variant="default" onClick={() => start.mutate()} loading={start.isPending}>
              {t('twoFactor.newSecret')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}

/** The ten codes, once: copy them, download them, then say they are saved. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone(): void }) {
  const { t } = useTranslation('security');
  const text = `${codes.join('\n')}\n`;
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Stack>
      <Alert color="blue" variant="light" title={t('recovery.title')}>
        {t('recovery.text')}
      </Alert>
      <SimpleGrid
        cols={{ base: 2, sm: 5 }}
        spacing="xs"
        component="ul"
        style={{ listStyle: 'none', padding: 0 }}
      >
        {codes.map((code) => (
          <li key={code}>
            <Code fz="sm" data-testid="recovery-code">
              {code}
            </Code>
          </li>
        ))}
      </SimpleGrid>
      <Group>
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button variant="default" onClick={copy}>
              {copied ? t('recovery.copied') : t('recovery.copy')}
            </Button>
          )}
        </CopyButton>
        <Button variant="default" onClick={download}>
          {t('recovery.download')}
        </Button>
        <Button onClick={onDone}>{t('recovery.saved')}</Button>
      </Group>
    </Stack>
  );
}

/** 2FA is on: make new recovery codes (a code from the app), or turn it off (password and code). */
function ManageTwoFactor({ onRecoveryCodes }: { onRecoveryCodes(codes: string[]): void }) {
  const { t } = useTranslation('security');
  const { client, reloadAccount } = useSession();
  const [renewCode, setRenewCode] = useState('');
  const [password, setPassword] = useState('');
  const [offCode, setOffCode] = useState('');
  const renewErrors = useFormErrors(['code']);
  const offErrors = useFormErrors(['password', 'code']);

  const renew = useMutation({
    mutationFn: () => client.post('/api/auth/2fa/recovery-codes', { body: { code: renewCode.trim() } }),
    meta: { action: t('recovery.renewAction') },
    onSuccess: (data) => onRecoveryCodes(data.recoveryCodes),
    onError: renewErrors.show,
  });
  const turnOff = useMutation({
    mutationFn: () => client.post('/api/auth/2fa/disable', { body: { password, code: offCode.trim() } }),
    meta: { action: t('off.action') },
    onSuccess: async () => {
      notifications.show({ color: 'teal', message: t('off.done') });
      await reloadAccount();
    },
    onError: offErrors.show,
  });

  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          renewErrors.clear();
          renew.mutate();
        }}
        noValidate
      >
        <Stack align="flex-start">
          <Title order={3} size="h4">
            {t('recovery.renewTitle')}
          </Title>
          <Text size="sm">{t('recovery.renewText')}</Text>
          <FormError message={renewErrors.formError} />
          <TextInput
            label={t('twoFactor.code')}
            value={renewCode}
            onChange={(event) => setRenewCode(event.currentTarget.value)}
            error={renewErrors.of('code')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            w={200}
          />
          <Button type="submit" variant="default" loading={renew.isPending}>
            {t('recovery.renew')}
          </Button>
        </Stack>
      </form>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          offErrors.clear();
          turnOff.mutate();
        }}
        noValidate
      >
        <Stack align="flex-start">
          <Title order={3} size="h4">
            {t('off.title')}
          </Title>
          <Text size="sm">{t('off.text')}</Text>
          <FormError message={offErrors.formError} />
          <PasswordInput
            label={t('off.password')}
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            error={offErrors.of('password')}
            autoComplete="current-password"
            visibilityToggleButtonProps={{ 'aria-label': t('off.toggleVisibility') }}
            w={260}
          />
          <TextInput
            label={t('twoFactor.code')}
            value={offCode}
            onChange={(event) => setOffCode(event.currentTarget.value)}
            error={offErrors.of('code')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            w={200}
          />
          <Button type="submit" color="red.8" loading={turnOff.isPending}>
            {t('off.submit')}
          </Button>
        </Stack>
      </form>
    </SimpleGrid>
  );
}

/** The account's live sessions: which device, since when, last used; sign one or all others out. */
function Devices() {
  const { t } = useTranslation('security');
  const { client } = useSession();
  const queryClient = useQueryClient();
  const key = ['security', 'sessions'];
  const devices = useQuery({
    queryKey: key,
    queryFn: () => client.get('/api/auth/sessions'),
    meta: { action: t('devices.action') },
  });
  const signOut = useMutation({
    mutationFn: (sessionId: string) =>
      client.delete('/api/auth/sessions/{sessionId}', { params: { path: { sessionId } } }),
    meta: { action: t('devices.signOutAction') },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
  const signOutOthers = useMutation({
    mutationFn: () => client.post('/api/auth/sessions/revoke-others'),
    meta: { action: t('devices.signOutOthersAction') },
    onSuccess: (data) =>
      notifications.show({
        color: 'teal',
        message: t('devices.signedOutOthers', { count: data.revokedCount }),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
  const others = (devices.data ?? []).filter((d) => !d.current).length;

  return (
    <Paper withBorder p="md">
      <Stack>
        <Group justify="space-between">
          <Title order={2} size="h3">
            {t('devices.title')}
          </Title>
          <Button
            variant="default"
            color="red"
            disabled={others === 0}
            onClick={() => signOutOthers.mutate()}
            loading={signOutOthers.isPending}
          >
            {t('devices.signOutOthers')}
          </Button>
        </Group>
        {devices.isPending ? (
          <LoadingState />
        ) : devices.isError ? (
          <ErrorState error={devices.error} onRetry={() => void devices.refetch()} />
        ) : (
          // Scrolls sideways on a phone; focusable, so a keyboard can scroll it too.
          <Box style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={t('devices.title')}>
            <Table striped miw={560}>
              <Table.Caption>{t('devices.caption')}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('devices.device')}</Table.Th>
                  <Table.Th>{t('devices.signedIn')}</Table.Th>
                  <Table.Th>{t('devices.lastUsed')}</Table.Th>
                  <Table.Th>{t('devices.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {devices.data.map((d: Device) => (
                  <Table.Tr key={d.sessionId} data-testid="device-row">
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Text size="sm">{d.deviceName ?? t('devices.unnamed')}</Text>
                        {d.deviceType && (
                          <Text size="xs" c="dimmed">
                            {d.deviceType}
                          </Text>
                        )}
                        {d.current && (
                          <StateBadge size="sm" color="teal">
                            {t('devices.thisDevice')}
                          </StateBadge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <StoreDateTime value={d.createdAt} size="sm" stacked />
                    </Table.Td>
                    <Table.Td>
                      <StoreDateTime value={d.lastUsedAt} size="sm" stacked />
                    </Table.Td>
                    <Table.Td>
                      {!d.current && (
                        <Button
                          size="xs"
                          variant="default"
                          onClick={() => signOut.mutate(d.sessionId)}
                          loading={signOut.isPending && signOut.variables === d.sessionId}
                          aria-label={t('devices.signOutNamed', {
                            name: d.deviceName ?? t('devices.unnamed'),
                          })}
                        >
                          {t('devices.signOut')}
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Box>
        )}
      </Stack>
    </Paper>
  );
}
