// A customer account's state in a few words: active, deactivated, or due for deletion.
import { Group } from '@mantine/core';
import type { components } from '@pasal/client';
import { useTranslation } from 'react-i18next';
import { StateBadge } from '../../components/StateBadge';

export type Customer = components['schemas']['AdminCustomer'];

export function AccountState({ customer }: { customer: Customer }) {
  const { t } = useTranslation('customers');
  return (
    <Group gap={4}>
      {customer.deletionScheduledAt ? (
        <StateBadge color="red">{t('state.deletionScheduled')}</StateBadge>
      ) : customer.isActive ? (
        <StateBadge color="teal">{t('state.active')}</StateBadge>
      ) : (
        <StateBadge color="gray">{t('state.inactive')}</StateBadge>
      )}
      {!customer.emailVerified && <StateBadge color="yellow">{t('state.emailNotVerified')}</StateBadge>}
    </Group>
  );
}
