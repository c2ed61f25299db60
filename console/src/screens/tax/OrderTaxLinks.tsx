// On the order page: links to the order's tax invoice and credit note, when it has them (the
// plain order invoice stays beside them for stores without tax invoices). Shown to roles that
// read tax documents; nothing while loading or when there is none.
import { Anchor, Group } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useClient, useSession } from '../../session/session';
import { documentOfOrder, KIND_PATH } from './tax-api';

export function OrderTaxLinks({ orderId }: { orderId: number }) {
  const { t } = useTranslation('tax');
  const client = useClient();
  const allowed = useSession().can('Invoices_READ');
  const docs = useQuery({
    // Under `orders`: the order's commands (cancel, refund) refresh it with the order.
    queryKey: ['orders', 'taxDocuments', orderId],
    queryFn: async () => ({
      invoice: await documentOfOrder(client, 'invoice', orderId),
      creditNote: await documentOfOrder(client, 'creditNote', orderId),
    }),
    enabled: allowed,
    meta: { action: t('actions.loadOne.invoice') },
  });
  if (!docs.data?.invoice) return null;
  const { invoice, creditNote } = docs.data;
  return (
    <Group gap="sm">
      <Anchor component={Link} to={`${KIND_PATH.invoice}/${invoice.id}`} size="sm" fw={600}>
        {t('orderLink.invoice', { number: invoice.number })}
      </Anchor>
      {creditNote && (
        <Anchor component={Link} to={`${KIND_PATH.creditNote}/${creditNote.id}`} size="sm">
          {t('orderLink.creditNote', { number: creditNote.number })}
        </Anchor>
      )}
    </Group>
  );
}
