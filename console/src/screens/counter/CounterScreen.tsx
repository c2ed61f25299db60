// The counter: one screen for a sale at the till, built for the keyboard. F2 goes to the scan
// field (and starts the next sale once one is paid), F4 to the customer, F9 to the payment;
// Enter adds a scanned product, looks up a customer and takes the payment. The sale is created
// and paid in one go ("Take payment"); each of the two writes carries an idempotency key that
// stays the same while the request does, so a double press or a retry after a lost answer is
// answered by the API with the first result: the sale is never made, nor charged, twice.
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  type ComboboxItem,
  Grid,
  Group,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Money, useDistrictName, useLanguage } from '../../components/Formatted';
import { Screen } from '../../components/Screen';
import { FormError } from '../../components/StatePanels';
import { WholeNumberInput } from '../../components/WholeNumberInput';
import { useFormErrors } from '../../lib/form-errors';
import { formatCount, formatMoney } from '../../lib/format';
import { wholeNumberOf, wholeNumberText } from '../../lib/whole-number';
import { Can, useClient } from '../../session/session';
import { CustomerBox } from './CustomerBox';
import {
  type CreateSaleBody,
  createSale,
  fetchDistricts,
  GATEWAYS,
  type Gateway,
  type PosCustomer,
  type Product,
  recordPayment,
} from './counter-api';
import { EmiInquiryButton } from './EmiInquiry';
import { type PaidSale, SaleDone } from './SaleDone';
import { ScanBox } from './ScanBox';
import {
  AttemptKeys,
  addLine,
  changeDue,
  MAX_QUANTITY,
  type SaleLine,
  shortLines,
  totalsOf,
} from './sale-rules';

type Handover = 'pickup' | 'delivery';

interface Delivery {
  receiverName: string;
  receiverContactNumber: string;
  district: string | null;
  addressLine1: string;
  city: string;
  landmark: string;
}

const NO_DELIVERY: Delivery = {
  receiverName: '',
  receiverContactNumber: '',
  district: null,
  addressLine1: '',
  city: '',
  landmark: '',
};

/** Whole, non-negative NPR typed in a WholeNumberInput; null while empty or refused. */
const moneyOf = (text: string): number | null => {
  const value = wholeNumberOf(text);
  return value !== undefined && value >= 0 ? value : null;
};

/** A whole quantity from the line's NumberInput (which hands over '' when emptied). */
const wholeOf = (value: string | number): number | null =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;

export function CounterScreen() {
  const { t } = useTranslation('counter');
  const language = useLanguage();
  const client = useClient();
  const queryClient = useQueryClient();
  const scanRef = useRef<HTMLInputElement>(null);
  const customerRef = useRef<HTMLInputElement>(null);
  const payRef = useRef<HTMLInputElement>(null);
  const chargeRef = useRef<HTMLButtonElement>(null);

  const [lines, setLines] = useState<SaleLine[]>([]);
  const [customer, setCustomer] = useState<PosCustomer | null>(null);
  const [handover, setHandover] = useState<Handover>('pickup');
  const [delivery, setDelivery] = useState<Delivery>(NO_DELIVERY);
  const [discount, setDiscount] = useState('');
  const [shippingFee, setShippingFee] = useState('');
  const [gateway, setGateway] = useState<Gateway>('pos_cash');
  const [tendered, setTendered] = useState('');
  const [reference, setReference] = useState('');
  /** The sale, once the API made it, while its payment is still to be taken. */
  const [unpaid, setUnpaid] = useState<{ id: number; total: number } | null>(null);
  const [paid, setPaid] = useState<PaidSale | null>(null);
  const saleKeys = useRef(new AttemptKeys());
  const paymentKeys = useRef(new AttemptKeys());
  const errors = useFormErrors(['couponDiscount', 'shippingFee', 'amountNpr', 'transactionReference']);

  const totals = totalsOf(
    lines,
    moneyOf(discount) ?? 0,
    handover === 'delivery' ? (moneyOf(shippingFee) ?? 0) : 0,
  );
  const total = unpaid?.total ?? totals.total;
  const cash = gateway === 'pos_cash' ? moneyOf(tendered) : null;
  const change = changeDue(total, cash);
  const short = shortLines(lines);

  const newSale = useCallback(() => {
    setLines([]);
    setCustomer(null);
    setHandover('pickup');
    setDelivery(NO_DELIVERY);
    setDiscount('');
    setShippingFee('');
    setGateway('pos_cash');
    setTendered('');
    setReference('');
    setUnpaid(null);
    setPaid(null);
    saleKeys.current.reset();
    paymentKeys.current.reset();
    errors.clear();
    setTimeout(() => scanRef.current?.focus());
  }, [errors.clear]);

  // The till's keys work wherever the focus is, inputs included.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'F2') {
        event.preventDefault();
        if (paid) newSale();
        else scanRef.current?.focus();
      } else if (event.key === 'F4' && !paid) {
        event.preventDefault();
        customerRef.current?.focus();
      } else if (event.key === 'F9' && !paid) {
        event.preventDefault();
        (payRef.current ?? chargeRef.current)?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [paid, newSale]);

  const districts = useQuery({
    queryKey: ['counter', 'districts'],
    queryFn: () => fetchDistricts(client),
    enabled: handover === 'delivery',
    staleTime: 5 * 60_000,
    meta: { action: t('actions.districts') },
  });

  const saleBody = (): CreateSaleBody => {
    if (!customer) throw new Error('no customer');
    const body: CreateSaleBody = {
      customerId: customer.customerId,
      items: lines.map((l) => ({ productId: l.productId, quantity: l.quantity })),
      couponDiscount: totals.discount,
      shippingFee: totals.shippingFee,
    };
    if (handover === 'delivery') {
      const d = delivery;
      if (d.receiverName.trim()) body.receiverName = d.receiverName.trim();
      if (d.receiverContactNumber.trim()) body.receiverContactNumber = d.receiverContactNumber.trim();
      if (d.district) body.shippingDistrict = d.district;
      if (d.addressLine1.trim()) body.shippingAddressLine1 = d.addressLine1.trim();
      if (d.city.trim()) body.shippingCity = d.city.trim();
      if (d.landmark.trim()) body.shippingLandmark = d.landmark.trim();
    }
    return body;
  };

  const charge = useMutation({
    mutationFn: async (): Promise<PaidSale> => {
      let sale = unpaid;
      if (!sale) {
        const body = saleBody();
        const created = await createSale(client, saleKeys.current.keyFor(body), body);
        sale = { id: created.id, total: totals.total };
        setUnpaid(sale);
      }
      const payment = {
        gateway,
        amountNpr: sale.total,
        ...(gateway !== 'pos_cash' && reference.trim() ? { transactionReference: reference.trim() } : {}),
      };
      await recordPayment(
        client,
        paymentKeys.current.keyFor({ orderId: sale.id, ...payment }),
        sale.id,
        payment,
      );
      return {
        orderId: sale.id,
        total: sale.total,
        gateway,
        change: gateway === 'pos_cash' ? change : null,
        handover,
        lines,
        customer: customer as PosCustomer,
      };
    },
    meta: { action: t('actions.charge') },
    onSuccess: (sale) => {
      saleKeys.current.reset();
      paymentKeys.current.reset();
      setPaid(sale);
      void queryClient.invalidateQueries({ queryKey: ['counter'] });
      void queryClient.invalidateQueries({ queryKey: ['orders'] });
    },
    onError: errors.show,
  });

  const ready =
    lines.length > 0 &&
    customer !== null &&
    total >= 1 &&
    (gateway !== 'pos_cash' || cash === null || cash >= total);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready || charge.isPending) return;
    charge.mutate();
  };

  const addProduct = (product: Product, quantity: number) => {
    setLines((current) =>
      addLine(current, {
        productId: product.id,
        title: product.title,
        productKind: product.productKind,
        unitPrice: product.effectivePrice,
        mrp: product.mrp,
        quantity,
        available: product.stock ? product.stock.available : null,
      }),
    );
  };

  if (paid) {
    return (
      <Screen title={t('title')}>
        <SaleDone sale={paid} onNext={newSale} />
      </Screen>
    );
  }

  const locked = unpaid !== null;
  const setLine = (productId: number, quantity: number) =>
    setLines((current) => current.map((l) => (l.productId === productId ? { ...l, quantity } : l)));

  return (
    <Screen
      title={t('title')}
      actions={
        <Group gap="xs">
          <Text size="sm" c="dimmed" aria-hidden>
            {t('keys')}
          </Text>
          <Can permission="Pos_CREATE">
            <EmiInquiryButton lines={lines} customer={customer} />
          </Can>
        </Group>
      }
    >
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="md">
            <Paper withBorder p="md">
              <ScanBox inputRef={scanRef} disabled={locked} onAdd={addProduct} />
            </Paper>
            <Paper withBorder p="md">
              {lines.length === 0 ? (
                <Text c="dimmed">{t('lines.empty')}</Text>
              ) : (
                <Table.ScrollContainer minWidth={520}>
                  <Table aria-live="polite">
                    <Table.Caption style={{ captionSide: 'top', textAlign: 'left' }}>
                      {t('lines.caption', { count: totals.units, formatted: formatCount(totals.units) })}
                    </Table.Caption>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{t('lines.product')}</Table.Th>
                        <Table.Th ta="right">{t('lines.stock')}</Table.Th>
                        <Table.Th ta="right">{t('lines.price')}</Table.Th>
                        <Table.Th>{t('lines.quantity')}</Table.Th>
                        <Table.Th ta="right">{t('lines.amount')}</Table.Th>
                        <Table.Th>
                          <VisuallyHidden>{t('lines.remove')}</VisuallyHidden>
                        </Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {lines.map((line) => {
                        const tooMany = line.available !== null && line.quantity > line.available;
                        return (
                          <Table.Tr key={line.productId}>
                            <Table.Td>
                              <Text size="sm" fw={600}>
                                {line.title}
                              </Text>
                              <Text size="xs" c="dimmed">
                                {t('scan.code', { code: line.productId })}
                              </Text>
                            </Table.Td>
                            <Table.Td ta="right">
                              {line.available === null ? (
                                <Text size="sm" c="dimmed">
                                  {t('scan.noStockKept')}
                                </Text>
                              ) : (
                                <Text
                                  size="sm"
                                  c={tooMany ? 'red.8' : undefined}
                                  fw={tooMany ? 700 : undefined}
                                >
                                  {formatCount(line.available)}
                                </Text>
                              )}
                            </Table.Td>
                            <Table.Td ta="right">
                              <Money amount={line.unitPrice} size="sm" />
                            </Table.Td>
                            <Table.Td>
                              <NumberInput
                                aria-label={t('lines.quantityOf', { title: line.title })}
                                value={line.quantity}
                                onChange={(value) => {
                                  const quantity = wholeOf(value);
                                  if (quantity !== null && quantity >= 1) setLine(line.productId, quantity);
                                }}
                                min={1}
                                max={MAX_QUANTITY}
                                allowDecimal={false}
                                allowNegative={false}
                                clampBehavior="strict"
                                disabled={locked}
                                w={90}
                                size="xs"
                              />
                            </Table.Td>
                            <Table.Td ta="right">
                              <Money amount={line.unitPrice * line.quantity} size="sm" fw={600} />
                            </Table.Td>
                            <Table.Td>
                              <ActionIcon
                                variant="subtle"
                                color="red"
                                disabled={locked}
                                aria-label={t('lines.removeOf', { title: line.title })}
                                onClick={() =>
                                  setLines((current) => current.filter((l) => l.productId !== line.productId))
                                }
                              >
                                ×
                              </ActionIcon>
                            </Table.Td>
                          </Table.Tr>
                        );
                      })}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )}
              {short.length > 0 && (
                <Alert color="orange" variant="light" mt="sm" title={t('lines.shortTitle')}>
                  {short
                    .map((l) =>
                      t('lines.short', { title: l.title, available: formatCount(l.available ?? 0) }),
                    )
                    .join(' ')}
                </Alert>
              )}
            </Paper>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="md">
            <CustomerBox emailRef={customerRef} customer={customer} locked={locked} onChange={setCustomer} />
            <Paper withBorder p="md" component="section" aria-labelledby="counter-handover">
              <Stack gap="sm">
                <Title order={2} size="h5" id="counter-handover">
                  {t('handover.title')}
                </Title>
                <SegmentedControl
                  aria-labelledby="counter-handover"
                  value={handover}
                  onChange={(value) => setHandover(value as Handover)}
                  disabled={locked}
                  data={[
                    { value: 'pickup', label: t('handover.pickup') },
                    { value: 'delivery', label: t('handover.delivery') },
                  ]}
                />
                {handover === 'delivery' && (
                  <DeliveryFields
                    delivery={delivery}
                    customer={customer}
                    districts={districts.data ?? []}
                    disabled={locked}
                    onChange={(next, fee) => {
                      setDelivery(next);
                      if (fee !== undefined) setShippingFee(wholeNumberText(fee));
                    }}
                  />
                )}
              </Stack>
            </Paper>
            <Paper withBorder p="md" component="form" onSubmit={submit} aria-labelledby="counter-payment">
              <Stack gap="sm">
                <Title order={2} size="h5" id="counter-payment">
                  {t('payment.title')}
                </Title>
                <Group grow align="flex-start">
                  <WholeNumberInput
                    money
                    label={t('payment.discount')}
                    value={discount}
                    onChange={setDiscount}
                    disabled={locked}
                    error={errors.of('couponDiscount')}
                  />
                  {handover === 'delivery' && (
                    <WholeNumberInput
                      money
                      label={t('payment.shippingFee')}
                      value={shippingFee}
                      onChange={setShippingFee}
                      disabled={locked}
                      error={errors.of('shippingFee')}
                    />
                  )}
                </Group>
                <Totals totals={totals} total={total} />
                <SegmentedControl
                  aria-label={t('payment.gateway')}
                  value={gateway}
                  onChange={(value) => setGateway(value as Gateway)}
                  data={GATEWAYS.map((g) => ({ value: g, label: t(`gateway.${g}`) }))}
                  fullWidth
                />
                {gateway === 'pos_cash' ? (
                  <Group grow align="flex-end">
                    <WholeNumberInput
                      ref={payRef}
                      money
                      label={t('payment.tendered')}
                      description={t('payment.tenderedHint')}
                      value={tendered}
                      onChange={setTendered}
                      error={
                        cash !== null && cash < total
                          ? t('payment.notEnough', { total: formatMoney(total, language) })
                          : undefined
                      }
                    />
                    <div role="status" aria-live="polite">
                      <Text size="sm" c="dimmed">
                        {t('payment.change')}
                      </Text>
                      <Text fw={700} size="xl">
                        {change === null ? '—' : formatMoney(change, language)}
                      </Text>
                    </div>
                  </Group>
                ) : (
                  <TextInput
                    ref={payRef}
                    label={t('payment.reference')}
                    description={t('payment.referenceHint')}
                    value={reference}
                    onChange={(event) => {
                      setReference(event.currentTarget.value);
                      errors.clear('transactionReference');
                    }}
                    maxLength={255}
                    error={errors.of('transactionReference')}
                  />
                )}
                {locked && (
                  <Alert color="yellow" variant="light" role="status">
                    {t('payment.unpaid')}
                  </Alert>
                )}
                <FormError
                  message={errors.formError ?? errors.of('amountNpr') ?? null}
                  title={t('payment.notTaken')}
                />
                {!customer && lines.length > 0 && (
                  <Text size="sm" c="dimmed">
                    {t('payment.needCustomer')}
                  </Text>
                )}
                <Button ref={chargeRef} type="submit" size="lg" disabled={!ready} loading={charge.isPending}>
                  {t('payment.charge', { total: formatMoney(total, language) })}
                </Button>
              </Stack>
            </Paper>
          </Stack>
        </Grid.Col>
      </Grid>
    </Screen>
  );
}

function Totals({ totals, total }: { totals: ReturnType<typeof totalsOf>; total: number }) {
  const { t } = useTranslation('counter');
  const row = (label: string, amount: number, strong = false) => (
    <Group justify="space-between" key={label}>
      <Text size={strong ? 'lg' : 'sm'} fw={strong ? 700 : undefined}>
        {label}
      </Text>
      <Money amount={amount} size={strong ? 'xl' : 'sm'} fw={strong ? 700 : undefined} />
    </Group>
  );
  return (
    <Stack gap={2} aria-label={t('totals.title')} role="group">
      {row(t('totals.subtotal'), totals.subtotal)}
      {totals.savings > 0 && (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {t('totals.savings')}
          </Text>
          <Badge variant="light" color="green" c="gray.9" tt="none">
            <Money amount={totals.savings} />
          </Badge>
        </Group>
      )}
      {totals.discount > 0 && row(t('totals.discount'), -totals.discount)}
      {totals.shippingFee > 0 && row(t('totals.shipping'), totals.shippingFee)}
      {row(t('totals.total'), total, true)}
    </Stack>
  );
}

function DeliveryFields({
  delivery,
  customer,
  districts,
  disabled,
  onChange,
}: {
  delivery: Delivery;
  customer: PosCustomer | null;
  districts: { name: string; shippingFee: number }[];
  disabled: boolean;
  onChange(next: Delivery, fee?: number): void;
}) {
  const { t } = useTranslation('counter');
  const districtName = useDistrictName();
  const set = (key: keyof Delivery) => (event: { currentTarget: { value: string } }) =>
    onChange({ ...delivery, [key]: event.currentTarget.value });
  return (
    <Stack gap="xs">
      <Group grow>
        <TextInput
          label={t('handover.receiver')}
          placeholder={customer?.name}
          value={delivery.receiverName}
          onChange={set('receiverName')}
          maxLength={100}
          disabled={disabled}
        />
        <TextInput
          label={t('handover.contact')}
          placeholder={customer?.phone ?? undefined}
          type="tel"
          value={delivery.receiverContactNumber}
          onChange={set('receiverContactNumber')}
          maxLength={20}
          disabled={disabled}
        />
      </Group>
      <Select
        label={t('handover.district')}
        description={t('handover.districtHint')}
        searchable
        data={districts.map((d) => ({ value: d.name, label: districtName(d.name) }))}
        // Typed in either script: "Kath" and "काठ" both find Kathmandu.
        filter={({ options, search }) => {
          const typed = search.trim().toLowerCase();
          return (options as ComboboxItem[]).filter(
            (o) => o.label.toLowerCase().includes(typed) || o.value.toLowerCase().includes(typed),
          );
        }}
        value={delivery.district}
        onChange={(name) =>
          onChange({ ...delivery, district: name }, districts.find((d) => d.name === name)?.shippingFee)
        }
        disabled={disabled}
        nothingFoundMessage={t('handover.noDistrict')}
      />
      <TextInput
        label={t('handover.address')}
        value={delivery.addressLine1}
        onChange={set('addressLine1')}
        maxLength={255}
        disabled={disabled}
      />
      <Group grow>
        <TextInput
          label={t('handover.city')}
          value={delivery.city}
          onChange={set('city')}
          maxLength={100}
          disabled={disabled}
        />
        <TextInput
          label={t('handover.landmark')}
          value={delivery.landmark}
          onChange={set('landmark')}
          maxLength={255}
          disabled={disabled}
        />
      </Group>
    </Stack>
  );
}
