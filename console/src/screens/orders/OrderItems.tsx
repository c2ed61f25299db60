// What was bought: each line with its price, its care-package cover, and the serial number of
// the unit handed over (physical items; staff record it as they pack, for warranty and repairs).
import { Anchor, Button, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Money, StoreDate } from '../../components/Formatted';
import { USER_TEXT } from '../../components/UserText';
import { textField } from '../../lib/form-errors';
import { formatCount, storeDateOf } from '../../lib/format';
import { useStoreTimeZone } from '../../lib/store-time-zone';
import { useClient, useSession } from '../../session/session';
import { Section } from './OrderSection';
import { CommandModal, type OrderCommands, useCommand } from './order-commands';
import { takesSerialNumber } from './order-rules';
import type { OrderDetail, OrderItem } from './orders-api';

export function OrderItems({ order, commands }: { order: OrderDetail; commands: OrderCommands }) {
  const { t } = useTranslation('orders');
  const { can } = useSession();
  const recordsSerials = can('Orders_UPDATE');
  return (
    <Section title={t('items.title')}>
      <Table.ScrollContainer minWidth={560}>
        <Table verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('items.product')}</Table.Th>
              <Table.Th ta="right">{t('items.quantity')}</Table.Th>
              <Table.Th ta="right">{t('items.unitPrice')}</Table.Th>
              <Table.Th ta="right">{t('items.lineTotal')}</Table.Th>
              <Table.Th>{t('items.serial')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {order.items.map((item) => (
              <Table.Tr key={item.id}>
                <Table.Td className={USER_TEXT}>
                  <Stack gap={2}>
                    {can('Products_READ') ? (
                      <Anchor component={Link} to={`/catalog/products/${item.productId}`} size="sm" fw={600}>
                        {item.productTitle}
                      </Anchor>
                    ) : (
                      <Text size="sm" fw={600}>
                        {item.productTitle}
                      </Text>
                    )}
                    <Text size="xs" c="dimmed">
                      {t(`productKind.${item.productKind}`, { defaultValue: item.productKind })}
                    </Text>
                    {item.carePackage && (
                      <Text size="xs">
                        {t('items.carePackage', {
                          name: item.carePackage.name,
                          tier: item.carePackage.tierLabel,
                        })}{' '}
                        <Money amount={item.carePackage.unitPrice} />
                      </Text>
                    )}
                    {item.subscriptionInfo && <Cover info={item.subscriptionInfo} />}
                  </Stack>
                </Table.Td>
                <Table.Td ta="right">{formatCount(item.quantity)}</Table.Td>
                <Table.Td ta="right">
                  <Stack gap={0} align="flex-end">
                    <Money amount={item.unitSp > 0 ? item.unitSp : item.unitMrp} />
                    {item.unitSp > 0 && item.unitSp < item.unitMrp && (
                      <Text size="xs" c="dimmed">
                        {t('items.mrp')} <Money amount={item.unitMrp} td="line-through" />
                      </Text>
                    )}
                  </Stack>
                </Table.Td>
                <Table.Td ta="right">
                  <Stack gap={0} align="flex-end">
                    <Money amount={item.finalValue} fw={600} />
                    {item.discount > 0 && (
                      <Text size="xs" c="dimmed">
                        {t('items.discount')} <Money amount={item.discount} />
                      </Text>
                    )}
                  </Stack>
                </Table.Td>
                <Table.Td>
                  {takesSerialNumber(item) ? (
                    <Group gap="xs" wrap="nowrap">
                      <Text
                        size="sm"
                        className={USER_TEXT}
                        ff={item.serialNumber ? 'monospace' : undefined}
                        c={item.serialNumber ? undefined : 'dimmed'}
                      >
                        {item.serialNumber ?? t('items.noSerial')}
                      </Text>
                      {recordsSerials && <SerialNumber order={order} item={item} commands={commands} />}
                    </Group>
                  ) : (
                    <Text size="sm" c="dimmed">
                      {t('items.serialNotKept')}
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Section>
  );
}

function Cover({ info }: { info: NonNullable<OrderItem['subscriptionInfo']> }) {
  const { t } = useTranslation('orders');
  const timeZone = useStoreTimeZone();
  return (
    <Text size="xs" c="dimmed">
      {t(`cover.${info.status}`)} · {t('cover.months', { count: info.durationMonths })}
      {info.startsAt && info.endsAt && (
        <>
          {' · '}
          <StoreDate date={storeDateOf(info.startsAt, timeZone)} /> –{' '}
          <StoreDate date={storeDateOf(info.endsAt, timeZone)} />
        </>
      )}
    </Text>
  );
}

function SerialNumber({
  order,
  item,
  commands,
}: {
  order: OrderDetail;
  item: OrderItem;
  commands: OrderCommands;
}) {
  const { t } = useTranslation('orders');
  const client = useClient();
  const [serial, setSerial] = useState(item.serialNumber ?? '');
  const save = useCommand({
    fields: ['serialNumber'],
    mutationFn: () =>
      client.patch('/api/admin/orders/{id}/items/{orderItemId}/serial', {
        params: { path: { id: order.id, orderItemId: item.id } },
        body: { serialNumber: serial.trim() },
      }),
    action: t('actions.serial', { product: item.productTitle }),
    onSuccess: (saved) => {
      commands.done(t('serial.saved', { product: saved.productTitle, serial: saved.serialNumber }));
    },
  });
  const title = t(item.serialNumber ? 'serial.change' : 'serial.record');
  return (
    <>
      <Button
        variant="subtle"
        size="compact-xs"
        onClick={() => {
          setSerial(item.serialNumber ?? '');
          save.open();
        }}
        aria-label={`${title}: ${item.productTitle}`}
      >
        {title}
      </Button>
      <CommandModal {...save.modal} title={`${title}: ${item.productTitle}`} confirmLabel={t('serial.save')}>
        <TextInput
          label={t('serial.label')}
          {...textField(save.errors, 'serialNumber', serial, setSerial)}
          maxLength={100}
          required
          data-autofocus
        />
      </CommandModal>
    </>
  );
}
