// One customer: their account, their orders, and their conversations with support. Each
// section shows only when the admin's role may read it.
import { Anchor, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { PasalClient } from '@pasal/client';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Money, StoreDateTime } from '../../components/Formatted';
import { Screen } from '../../components/Screen';
import { EmptyState, ErrorState, LoadingState } from '../../components/StatePanels';
import { isPasalError } from '../../lib/api-errors';
import { formatCount } from '../../lib/format';
import { useSession } from '../../session/session';
import { StatusBadge } from '../support/StatusBadge';
import { AccountState } from './CustomerBadges';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Conversations shown per section, newest first; the count says how many there are in all. */
const RECENT = 20;

export function CustomerScreen() {
  const { t } = useTranslation('customers');
  const { client } = useSession();
  const { customerId } = useParams({ strict: false }) as { customerId?: string };
  const valid = typeof customerId === 'string' && UUID.test(customerId);
  const customer = useQuery({
    queryKey: ['customers', customerId],
    queryFn: () => client.get('/api/admin/customers/{id}', { params: { path: { id: customerId! } } }),
    enabled: valid,
    meta: { action: t('detail.action') },
  });

  if (!valid) {
    return (
      <Screen title={t('detail.notFound')}>
        <EmptyState message={t('detail.notFoundText')} />
      </Screen>
    );
  }
  if (customer.isPending) return <LoadingState />;
  if (customer.isError) {
    const missing = isPasalError(customer.error, 'CUSTOMER_NOT_FOUND');
    return (
      <Screen title={missing ? t('detail.notFound') : t('detail.title')}>
        {missing ? (
          <EmptyState message={t('detail.notFoundText')} />
        ) : (
          <ErrorState error={customer.error} onRetry={() => customer.refetch()} />
        )}
      </Screen>
    );
  }
  const c = customer.data;
  return (
    <Screen title={c.name}>
      <Anchor component={Link} to="/customers" size="sm">
        {t('detail.back')}
      </Anchor>
      <Paper withBorder p="md" component="section" aria-label={t('detail.account')}>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
          <Field label={t('list.email')}>
            {c.email}{' '}
            <Text span size="xs" c="dimmed">
              ({c.emailVerified ? t('detail.verified') : t('detail.notVerified')})
            </Text>
          </Field>
          <Field label={t('list.phone')}>
            {c.phone ?? '—'}
            {c.phone && (
              <Text span size="xs" c="dimmed">
                {' '}
                ({c.phoneVerified ? t('detail.verified') : t('detail.notVerified')})
              </Text>
            )}
          </Field>
          <Field label={t('list.state')}>
            <AccountState customer={c} />
          </Field>
          <Field label={t('list.joined')}>
            <StoreDateTime value={c.createdAt} />
          </Field>
          <Field label={t('list.lastLogin')}>
            {c.lastLoginAt ? <StoreDateTime value={c.lastLoginAt} /> : t('list.never')}
          </Field>
          {c.deletionScheduledAt && (
            <Field label={t('detail.deletionScheduled')}>
              <StoreDateTime value={c.deletionScheduledAt} />
            </Field>
          )}
        </SimpleGrid>
      </Paper>
      <CustomerOrders customerId={c.id} email={c.email} />
      <CustomerConversations customerId={c.id} />
    </Screen>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </div>
  );
}

function Section({ title, count, children }: { title: string; count?: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" component="section" aria-label={title}>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        {count && (
          <Text size="sm" c="dimmed">
            {count}
          </Text>
        )}
      </Group>
      {children}
    </Paper>
  );
}

/**
 * The admin orders list filters by status, payment and type but not by customer; its search
 * matches the customer's name, email or phone. Searching the email and keeping the rows of this
 * customer's id gives exactly their orders (another account whose email contains this one is
 * dropped). All of them are fetched at once: one customer's orders are a short list.
 */
async function ordersOf(client: PasalClient, customerId: string, email: string) {
  const answer = await client.list('/api/admin/orders', {
    params: { query: { search: email, pagination: false, sort: 'createdAt', order: 'desc' } },
  });
  return answer.data.filter((order) => order.customer.id === customerId);
}

function CustomerOrders({ customerId, email }: { customerId: string; email: string }) {
  const { t } = useTranslation(['customers', 'common']);
  const { client, can } = useSession();
  const mayRead = can('Orders_READ');
  const orders = useQuery({
    queryKey: ['customers', customerId, 'orders', email],
    queryFn: () => ordersOf(client, customerId, email),
    enabled: mayRead,
    meta: { action: t('orders.action') },
  });
  if (!mayRead) return null;
  const rows = orders.data ?? [];
  return (
    <Section
      title={t('orders.title')}
      count={orders.data ? t('orders.count', { count: rows.length, n: formatCount(rows.length) }) : undefined}
    >
      {orders.isPending ? (
        <LoadingState />
      ) : orders.isError ? (
        <ErrorState error={orders.error} onRetry={() => orders.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState message={t('orders.none')} />
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('orders.number')}</Table.Th>
                <Table.Th>{t('orders.placed')}</Table.Th>
                <Table.Th>{t('orders.status')}</Table.Th>
                <Table.Th>{t('orders.payment')}</Table.Th>
                <Table.Th ta="right">{t('orders.total')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((order) => (
                <Table.Tr key={order.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/orders/${order.id}`}>
                      {order.orderNumber}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <StoreDateTime value={order.createdAt} size="sm" />
                  </Table.Td>
                  <Table.Td>
                    {t(`common:orderStatus.${order.orderStatus}`, { defaultValue: order.orderStatus })}
                  </Table.Td>
                  <Table.Td>{t(`orders.paymentStatus.${order.paymentStatus}`)}</Table.Td>
                  <Table.Td ta="right">
                    <Money amount={order.finalPayable} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Section>
  );
}

function CustomerConversations({ customerId }: { customerId: string }) {
  const { t } = useTranslation(['customers', 'support']);
  const { client, can } = useSession();
  const inquiries = useQuery({
    queryKey: ['customers', customerId, 'inquiries'],
    queryFn: () =>
      client.list('/api/admin/support-inquiries', {
        params: { query: { customerId, size: RECENT, sort: 'updatedAt', order: 'desc' } },
      }),
    enabled: can('SupportInquiries_READ'),
    meta: { action: t('support.inquiriesAction') },
  });
  const tickets = useQuery({
    queryKey: ['customers', customerId, 'tickets'],
    queryFn: () =>
      client.list('/api/admin/support-requests', {
        params: { query: { customerId, size: RECENT, sort: 'updatedAt', order: 'desc' } },
      }),
    enabled: can('SupportRequests_READ'),
    meta: { action: t('support.ticketsAction') },
  });
  const lists = [
    can('SupportInquiries_READ') && {
      key: 'inquiries',
      title: t('support.inquiries'),
      query: inquiries,
      path: (id: number) => `/support/inquiries/${id}`,
    },
    can('SupportRequests_READ') && {
      key: 'tickets',
      title: t('support.tickets'),
      query: tickets,
      path: (id: number) => `/support/tickets/${id}`,
    },
  ].filter((list) => list !== false);
  if (lists.length === 0) return null;
  return (
    <SimpleGrid cols={{ base: 1, lg: lists.length }}>
      {lists.map(({ key, title, query, path }) => (
        <Section
          key={key}
          title={title}
          count={query.data ? t('support.count', { n: formatCount(query.data.meta.count) }) : undefined}
        >
          {query.isPending ? (
            <LoadingState />
          ) : query.isError ? (
            <ErrorState error={query.error} onRetry={() => query.refetch()} />
          ) : query.data.data.length === 0 ? (
            <EmptyState message={t('support.none')} />
          ) : (
            <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {query.data.data.map((row) => (
                <li key={row.id}>
                  <Group justify="space-between" wrap="nowrap">
                    <Stack gap={0} style={{ minWidth: 0 }}>
                      <Anchor component={Link} to={path(row.id)} truncate>
                        {row.subject}
                      </Anchor>
                      <Text size="xs" c="dimmed">
                        <StoreDateTime value={row.updatedAt} />
                      </Text>
                    </Stack>
                    <StatusBadge status={row.status} />
                  </Group>
                </li>
              ))}
            </Stack>
          )}
        </Section>
      ))}
    </SimpleGrid>
  );
}
