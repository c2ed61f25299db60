// An instalment (EMI) inquiry from the counter, for a walk-in customer who would rather pay
// monthly: a product of the sale, the customer's details, the partner banks they would use,
// the down payment. The API keeps the product's title and price as they are now.
import { Alert, Button, Checkbox, Group, Modal, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Money } from '../../components/Formatted';
import { LongTextarea } from '../../components/LongTextarea';
import { FormError, LoadingState } from '../../components/StatePanels';
import { WholeNumberInput } from '../../components/WholeNumberInput';
import { fieldRules, textField, useFormErrors, valueField } from '../../lib/form-errors';
import { formatCount } from '../../lib/format';
import { wholeNumberOf } from '../../lib/whole-number';
import { useClient } from '../../session/session';
import { fetchEmiBanks, fetchEmiConfig, type PosCustomer, sendEmiInquiry } from './counter-api';
import { AttemptKeys, type SaleLine } from './sale-rules';

export function EmiInquiryButton({ lines, customer }: { lines: SaleLine[]; customer: PosCustomer | null }) {
  const { t } = useTranslation('counter');
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button variant="default" onClick={() => setOpened(true)} disabled={lines.length === 0}>
        {t('emi.open')}
      </Button>
      {opened && <EmiInquiryModal lines={lines} customer={customer} onClose={() => setOpened(false)} />}
    </>
  );
}

function EmiInquiryModal({
  lines,
  customer,
  onClose,
}: {
  lines: SaleLine[];
  customer: PosCustomer | null;
  onClose(): void;
}) {
  const { t } = useTranslation('counter');
  const client = useClient();
  const keys = useRef(new AttemptKeys());
  const [productId, setProductId] = useState(String(lines[0]?.productId ?? ''));
  const [name, setName] = useState(customer?.name ?? '');
  const [email, setEmail] = useState(customer?.email ?? '');
  const [mobile, setMobile] = useState(customer?.phone ?? '');
  const [bankIds, setBankIds] = useState<string[]>([]);
  const [hasCard, setHasCard] = useState(false);
  const [down, setDown] = useState('0');
  const [message, setMessage] = useState('');
  const errors = useFormErrors({
    productId: t('emi.product'),
    customerName: t('emi.name'),
    customerEmail: t('emi.email'),
    customerMobile: t('emi.mobile'),
    bankIds: t('emi.banks'),
    downPaymentAmount: t('emi.downPayment'),
    message: t('emi.message'),
  });

  const config = useQuery({
    queryKey: ['counter', 'emi-config'],
    queryFn: () => fetchEmiConfig(client),
    meta: { action: t('actions.emiConfig') },
  });
  const banks = useQuery({
    queryKey: ['counter', 'emi-banks'],
    queryFn: () => fetchEmiBanks(client),
    meta: { action: t('actions.emiBanks') },
  });

  const send = useMutation({
    mutationFn: () => {
      const body = {
        productId: Number(productId),
        customerName: name.trim(),
        customerEmail: email.trim(),
        customerMobile: mobile.trim(),
        bankIds: bankIds.map(Number),
        hasCreditCard: hasCard,
        downPaymentAmount: wholeNumberOf(down) ?? 0,
        message: message.trim() || null,
      };
      return sendEmiInquiry(client, keys.current.keyFor(body), body);
    },
    meta: { action: t('actions.emi') },
    onSuccess: (inquiry) => {
      keys.current.reset();
      notifications.show({
        color: 'green',
        title: t('emi.sent', { id: inquiry.id }),
        message: t('emi.snapshot', { title: inquiry.productTitle, price: formatCount(inquiry.productSp) }),
        closeButtonProps: { 'aria-label': t('emi.dismiss') },
      });
      onClose();
    },
    onError: errors.show,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (send.isPending) return;
    const checked = errors.check({
      customerName: fieldRules.text(name, { required: true, maximum: 100 }),
      customerMobile: fieldRules.text(mobile, { required: true, maximum: 20 }),
      customerEmail: fieldRules.email(email, { required: true }),
    });
    if (checked) send.mutate();
  };
  const line = lines.find((l) => String(l.productId) === productId);

  return (
    <Modal
      opened
      onClose={onClose}
      title={t('emi.title')}
      closeButtonProps={{ 'aria-label': t('emi.close') }}
      size="lg"
    >
      {config.isPending || banks.isPending ? (
        <LoadingState />
      ) : config.data && !config.data.isEnabled ? (
        <Alert color="yellow" variant="light">
          {t('emi.disabled')}
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <FormError message={errors.formError} title={t('emi.notSent')} />
            {config.data && (
              <Text size="sm" c="dimmed">
                {t('emi.periods', { periods: config.data.periods.join(', ') })}
              </Text>
            )}
            <NativeSelect
              label={t('emi.product')}
              data={lines.map((l) => ({ value: String(l.productId), label: l.title }))}
              value={productId}
              onChange={(event) => setProductId(event.currentTarget.value)}
              error={errors.of('productId')}
            />
            {line && (
              <Text size="sm">
                {t('emi.price')} <Money amount={line.unitPrice} fw={600} />
              </Text>
            )}
            <Group grow align="flex-start">
              <TextInput
                label={t('emi.name')}
                required
                maxLength={100}
                {...textField(errors, 'customerName', name, setName)}
              />
              <TextInput
                label={t('emi.mobile')}
                type="tel"
                required
                maxLength={20}
                {...textField(errors, 'customerMobile', mobile, setMobile)}
              />
            </Group>
            <TextInput
              label={t('emi.email')}
              type="email"
              required
              {...textField(errors, 'customerEmail', email, setEmail)}
            />
            <Checkbox.Group
              label={t('emi.banks')}
              {...valueField(errors, 'bankIds', bankIds, setBankIds)}
              withAsterisk
            >
              <Group mt="xs" gap="md">
                {(banks.data ?? []).map((bank) => (
                  <Checkbox key={bank.id} value={String(bank.id)} label={bank.name} />
                ))}
              </Group>
            </Checkbox.Group>
            <Checkbox
              label={t('emi.creditCard')}
              checked={hasCard}
              onChange={(event) => setHasCard(event.currentTarget.checked)}
            />
            <WholeNumberInput
              money
              label={t('emi.downPayment')}
              description={t('emi.downPaymentHint')}
              {...valueField(errors, 'downPaymentAmount', down, setDown)}
            />
            <LongTextarea
              limit={2000}
              label={t('emi.message')}
              {...textField(errors, 'message', message, setMessage)}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                {t('emi.cancel')}
              </Button>
              <Button type="submit" loading={send.isPending}>
                {t('emi.send')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
