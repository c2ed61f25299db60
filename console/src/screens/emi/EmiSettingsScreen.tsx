// The shop's instalment offer: on or off and the periods (months) it offers, and the partner
// banks customers choose from (added, edited, deactivated; a deactivated bank stays on the
// inquiries that named it, and can be turned back on).
import {
  Alert,
  Button,
  Group,
  Modal,
  Paper,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Screen } from '../../components/Screen';
import { StateBadge } from '../../components/StateBadge';
import { ErrorState, FormError, LoadingState } from '../../components/StatePanels';
import { WholeNumberInput } from '../../components/WholeNumberInput';
import { isPasalError } from '../../lib/api-errors';
import { textField, useFormErrors, valueField } from '../../lib/form-errors';
import { formatCount } from '../../lib/format';
import { wholeNumberOf, wholeNumberText } from '../../lib/whole-number';
import { Can, useClient } from '../../session/session';
import { type EmiBank, PERIOD_MAX, PERIOD_MIN, parsePeriods } from './emi-api';

export function EmiSettingsScreen() {
  const { t } = useTranslation('emi');
  return (
    <Screen title={t('settings.title')}>
      <OfferForm />
      <Can permission="EmiBanks_READ">
        <Banks />
      </Can>
    </Screen>
  );
}

function useSaved() {
  const { t } = useTranslation('emi');
  return (title: string) =>
    notifications.show({
      color: 'green',
      title,
      message: null,
      closeButtonProps: { 'aria-label': t('dismiss') },
    });
}

function OfferForm() {
  const { t } = useTranslation('emi');
  const client = useClient();
  const queryClient = useQueryClient();
  const saved = useSaved();
  const config = useQuery({
    queryKey: ['emi', 'config'],
    // Never saved yet: 404 EMI_CONFIG_NOT_FOUND, shown as an empty offer.
    queryFn: () =>
      client.get('/api/admin/emi/config').catch((error: unknown) => {
        if (isPasalError(error, 'EMI_CONFIG_NOT_FOUND')) return null;
        throw error;
      }),
    meta: { action: t('actions.loadConfig') },
  });
  const [enabled, setEnabled] = useState(false);
  const [periods, setPeriods] = useState('');
  useEffect(() => {
    if (config.data === undefined) return;
    setEnabled(config.data?.isEnabled ?? false);
    setPeriods((config.data?.periods ?? []).join(', '));
  }, [config.data]);
  const errors = useFormErrors(['isEnabled', 'periods']);
  const parsed = parsePeriods(periods);
  const save = useMutation({
    mutationFn: () =>
      client.put('/api/admin/emi/config', { body: { isEnabled: enabled, periods: parsed ?? [] } }),
    meta: { action: t('actions.saveConfig') },
    onSuccess: () => {
      saved(t('settings.saved'));
      void queryClient.invalidateQueries({ queryKey: ['emi'] });
    },
    onError: errors.show,
  });
  if (config.isPending) return <LoadingState />;
  if (config.isError) return <ErrorState error={config.error} onRetry={() => config.refetch()} />;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (parsed !== null) save.mutate();
  };
  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} aria-labelledby="emi-offer">
      <Stack gap="sm">
        <Title order={2} size="h4" id="emi-offer">
          {t('settings.offer')}
        </Title>
        {config.data === null && (
          <Alert color="yellow" variant="light">
            {t('settings.neverSaved')}
          </Alert>
        )}
        <FormError message={errors.formError} />
        <Switch
          label={t('settings.enabled')}
          checked={enabled}
          onChange={(event) => {
            setEnabled(event.currentTarget.checked);
            errors.clear('periods');
          }}
        />
        <TextInput
          label={t('settings.periods')}
          description={t('settings.periodsHint', { min: PERIOD_MIN, max: PERIOD_MAX })}
          {...textField(errors, 'periods', periods, setPeriods)}
          error={
            parsed === null
              ? t('settings.badPeriods', { min: PERIOD_MIN, max: PERIOD_MAX })
              : errors.of('periods')
          }
          inputMode="numeric"
        />
        <Can permission="EmiConfig_UPDATE">
          <Group>
            <Button type="submit" loading={save.isPending} disabled={parsed === null}>
              {t('settings.save')}
            </Button>
          </Group>
        </Can>
      </Stack>
    </Paper>
  );
}

function Banks() {
  const { t } = useTranslation('emi');
  const client = useClient();
  const banks = useQuery({
    queryKey: ['emi', 'banks'],
    queryFn: () => client.get('/api/admin/emi/banks', { params: { query: { pagination: 'false' } } }),
    meta: { action: t('actions.loadBanks') },
  });
  const [editing, setEditing] = useState<EmiBank | 'new' | null>(null);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="emi-banks">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4" id="emi-banks">
            {t('banks.title')}
          </Title>
          <Can permission="EmiBanks_CREATE">
            <Button onClick={() => setEditing('new')}>{t('banks.add')}</Button>
          </Can>
        </Group>
        {banks.isPending ? (
          <LoadingState />
        ) : banks.isError ? (
          <ErrorState error={banks.error} onRetry={() => banks.refetch()} />
        ) : banks.data.length === 0 ? (
          <Text c="dimmed">{t('banks.none')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={480}>
            <Table>
              <Table.Caption style={{ captionSide: 'top', textAlign: 'left' }}>
                {t('banks.caption')}
              </Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('banks.name')}</Table.Th>
                  <Table.Th ta="right">{t('banks.order')}</Table.Th>
                  <Table.Th>{t('banks.state')}</Table.Th>
                  <Table.Th>{t('banks.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {banks.data.map((bank) => (
                  <Table.Tr key={bank.id}>
                    <Table.Td>{bank.name}</Table.Td>
                    <Table.Td ta="right">{formatCount(bank.displayOrder)}</Table.Td>
                    <Table.Td>
                      <StateBadge color={bank.isActive ? 'green' : 'gray'}>
                        {bank.isActive ? t('banks.active') : t('banks.inactive')}
                      </StateBadge>
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Can permission="EmiBanks_UPDATE">
                          <Button
                            size="xs"
                            variant="default"
                            onClick={() => setEditing(bank)}
                            aria-label={t('banks.editOf', { name: bank.name })}
                          >
                            {t('banks.edit')}
                          </Button>
                        </Can>
                        <ActiveToggle bank={bank} />
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      {editing && <BankForm bank={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </Paper>
  );
}

function ActiveToggle({ bank }: { bank: EmiBank }) {
  const { t } = useTranslation('emi');
  const client = useClient();
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: () =>
      bank.isActive
        ? client.delete('/api/admin/emi/banks/{id}', { params: { path: { id: bank.id } } })
        : client.patch('/api/admin/emi/banks/{id}', {
            params: { path: { id: bank.id } },
            body: { isActive: true },
          }),
    meta: { action: t('actions.toggleBank', { name: bank.name }) },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['emi'] }),
  });
  const label = bank.isActive ? t('banks.deactivate') : t('banks.reactivate');
  return (
    <Can permission={bank.isActive ? 'EmiBanks_DELETE' : 'EmiBanks_UPDATE'}>
      <Button
        size="xs"
        variant={bank.isActive ? 'subtle' : 'light'}
        color={bank.isActive ? 'red' : undefined}
        onClick={() => toggle.mutate()}
        loading={toggle.isPending}
        aria-label={`${label}: ${bank.name}`}
      >
        {label}
      </Button>
    </Can>
  );
}

function BankForm({ bank, onClose }: { bank: EmiBank | null; onClose(): void }) {
  const { t } = useTranslation('emi');
  const client = useClient();
  const queryClient = useQueryClient();
  const saved = useSaved();
  const [name, setName] = useState(bank?.name ?? '');
  const [logoUrl, setLogoUrl] = useState(bank?.logoUrl ?? '');
  const [order, setOrder] = useState(wholeNumberText(bank?.displayOrder ?? 0));
  const errors = useFormErrors(['name', 'logoUrl', 'displayOrder']);
  const save = useMutation({
    mutationFn: async () => {
      const body = {
        name: name.trim(),
        logoUrl: logoUrl.trim() || null,
        displayOrder: wholeNumberOf(order) ?? 0,
      };
      if (bank) await client.patch('/api/admin/emi/banks/{id}', { params: { path: { id: bank.id } }, body });
      else await client.post('/api/admin/emi/banks', { body });
    },
    meta: { action: bank ? t('actions.editBank', { name: bank.name }) : t('actions.addBank') },
    onSuccess: () => {
      saved(t('banks.saved', { name: name.trim() }));
      void queryClient.invalidateQueries({ queryKey: ['emi'] });
      onClose();
    },
    onError: errors.show,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const title = bank ? t('banks.editTitle', { name: bank.name }) : t('banks.addTitle');
  return (
    <Modal opened onClose={onClose} title={title} closeButtonProps={{ 'aria-label': t('close') }}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <FormError message={errors.formError} />
          <TextInput
            label={t('banks.name')}
            required
            maxLength={120}
            {...textField(errors, 'name', name, setName)}
          />
          <TextInput
            label={t('banks.logo')}
            type="url"
            maxLength={500}
            {...textField(errors, 'logoUrl', logoUrl, setLogoUrl)}
          />
          <WholeNumberInput
            label={t('banks.order')}
            description={t('banks.orderHint')}
            {...valueField(errors, 'displayOrder', order, setOrder)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('banks.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
