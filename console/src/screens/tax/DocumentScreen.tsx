// One tax invoice or credit note (`/tax/invoices/$documentId`, `/tax/credit-notes/$documentId`):
// its figures as printed, print (the API counts: the first print is the original, later ones
// "Copy of Original – N"), its CBMS sync with "retry now", and, on an invoice, the credit note
// against it or a way to issue one with the reason (the API issues a credit note when a paid
// order is cancelled or its refund approved, so that is what "issue" asks it to do).
import {
  Alert,
  Anchor,
  Button,
  Grid,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StoreDateTime } from '../../components/Formatted';
import { LongTextarea } from '../../components/LongTextarea';
import { Screen } from '../../components/Screen';
import { ErrorState, LoadingState } from '../../components/StatePanels';
import { isPasalError } from '../../lib/api-errors';
import { textField } from '../../lib/form-errors';
import { Can, useClient } from '../../session/session';
import {
  CommandModal,
  CommandStatus,
  type OrderCommands,
  useCommand,
  useOrderCommands,
} from '../orders/order-commands';
import { awaitsRefundDecision, canBeCancelled } from '../orders/order-rules';
import { fetchOrder, type OrderDetail } from '../orders/orders-api';
import {
  type DocumentKind,
  documentOfOrder,
  fetchDocument,
  fetchDocumentPdf,
  KIND_PATH,
  resyncDocument,
  saveDownload,
  type TaxDocument,
} from './tax-api';
import { formatBsYmd } from './tax-format';
import { DocumentDate, describeTaxError, Paisa, SyncBadge } from './tax-ui';

export function InvoiceScreen() {
  return <DocumentRoute kind="invoice" />;
}

export function CreditNoteScreen() {
  return <DocumentRoute kind="creditNote" />;
}

function DocumentRoute({ kind }: { kind: DocumentKind }) {
  const { t } = useTranslation('tax');
  const client = useClient();
  const params = useParams({ strict: false }) as { documentId?: unknown };
  const id = Number(params.documentId);
  const valid = Number.isInteger(id) && id >= 1;
  const doc = useQuery({
    queryKey: ['tax', kind, 'detail', id],
    queryFn: () => fetchDocument(client, kind, id),
    enabled: valid,
    meta: { action: t(`actions.loadOne.${kind}`) },
  });
  const missing =
    !valid ||
    isPasalError(doc.error, 'INVOICE_NOT_FOUND') ||
    isPasalError(doc.error, 'CREDIT_NOTE_NOT_FOUND');
  if (missing || doc.isPending || doc.isError) {
    return (
      <Screen title={missing ? t(`detail.notFoundTitle.${kind}`) : t('detail.loadingTitle')}>
        {missing ? (
          <Text>{t(`detail.notFound.${kind}`)}</Text>
        ) : doc.isError ? (
          <ErrorState error={doc.error} onRetry={() => void doc.refetch()} />
        ) : (
          <LoadingState />
        )}
        <Anchor component={Link} to={KIND_PATH[kind]} size="sm">
          {t(`detail.backToList.${kind}`)}
        </Anchor>
      </Screen>
    );
  }
  return <DocumentPage kind={kind} doc={doc.data} />;
}

function DocumentPage({ kind, doc }: { kind: DocumentKind; doc: TaxDocument }) {
  const { t } = useTranslation('tax');
  const title = t(`detail.title.${doc.documentType}`, { number: doc.number });
  return (
    <Screen
      title={title}
      actions={
        <Anchor component={Link} to={KIND_PATH[kind]} size="sm">
          {t(`detail.backToList.${kind}`)}
        </Anchor>
      }
    >
      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="md">
            <Header doc={doc} />
            <Lines doc={doc} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Stack gap="md">
            <Can permission="Invoices_PRINT">
              <Print kind={kind} doc={doc} />
            </Can>
            <Sync kind={kind} doc={doc} />
            {kind === 'invoice' && <Return invoice={doc} />}
          </Stack>
        </Grid.Col>
      </Grid>
    </Screen>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" component="section" aria-label={title}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </Stack>
  );
}

function Header({ doc }: { doc: TaxDocument }) {
  const { t } = useTranslation('tax');
  return (
    <Section title={t('detail.sections.document')}>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
        <Fact label={t('detail.type')}>{t(`documentType.${doc.documentType}`)}</Fact>
        <Fact label={t('detail.fiscalYear')}>{doc.fiscalYear}</Fact>
        <Fact label={t('detail.date')}>
          <DocumentDate doc={doc} />
        </Fact>
        <Fact label={t('detail.order')}>
          <Anchor component={Link} to={`/orders/${doc.orderId}`}>
            {doc.orderNumber}
          </Anchor>
        </Fact>
        <Fact label={t('detail.buyer')}>{doc.buyerName}</Fact>
        <Fact label={t('detail.buyerPan')}>{doc.buyerPan ?? t('detail.noPan')}</Fact>
        {doc.buyerAddress && <Fact label={t('detail.buyerAddress')}>{doc.buyerAddress}</Fact>}
        <Fact label={t('detail.paymentMethod')}>{doc.paymentMethod}</Fact>
        <Fact label={t('detail.issuedBy')}>{doc.issuedBy.name}</Fact>
        <Fact label={t('detail.seller')}>
          {doc.seller.name}
          {doc.seller.pan ? ` · ${t('detail.pan', { pan: doc.seller.pan })}` : ''}
        </Fact>
        {doc.referenceInvoiceId && (
          <Fact label={t('detail.referenceInvoice')}>
            <Anchor component={Link} to={`${KIND_PATH.invoice}/${doc.referenceInvoiceId}`}>
              {doc.referenceInvoiceNumber}
            </Anchor>
          </Fact>
        )}
        {doc.reason && <Fact label={t('detail.reason')}>{doc.reason}</Fact>}
      </SimpleGrid>
    </Section>
  );
}

function Lines({ doc }: { doc: TaxDocument }) {
  const { t } = useTranslation('tax');
  const total = (label: string, amount: number, strong = false) => (
    <Table.Tr>
      <Table.Th colSpan={3} ta="right" fw={strong ? 700 : 500} scope="row">
        {label}
      </Table.Th>
      <Table.Td ta="right">
        <Paisa amount={amount} fw={strong ? 700 : undefined} />
      </Table.Td>
    </Table.Tr>
  );
  return (
    <Section title={t('detail.sections.lines')}>
      <Table.ScrollContainer minWidth={480}>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('lines.title')}</Table.Th>
              <Table.Th ta="right">{t('lines.quantity')}</Table.Th>
              <Table.Th ta="right">{t('lines.rate')}</Table.Th>
              <Table.Th ta="right">{t('lines.amount')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {doc.lines.map((line, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the lines of a locked document never move
              <Table.Tr key={index}>
                <Table.Td>{line.title}</Table.Td>
                <Table.Td ta="right">{line.quantity}</Table.Td>
                <Table.Td ta="right">
                  <Paisa amount={line.rate} />
                </Table.Td>
                <Table.Td ta="right">
                  <Paisa amount={line.amount} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            {doc.discountAmount > 0 && total(t('lines.discount'), doc.discountAmount)}
            {total(t('lines.taxable'), doc.taxableAmount)}
            {total(t('lines.vat', { rate: doc.vatRatePercent }), doc.vatAmount)}
            {doc.exemptAmount > 0 && total(t('lines.exempt'), doc.exemptAmount)}
            {total(t('lines.total'), doc.totalAmount, true)}
          </Table.Tfoot>
        </Table>
      </Table.ScrollContainer>
    </Section>
  );
}

/** What the next print will be: the original, or the copy the API will number it. */
export function nextPrintLabel(printCount: number): { key: 'original' | 'copy'; copy: number } {
  return printCount === 0 ? { key: 'original', copy: 0 } : { key: 'copy', copy: printCount };
}

function Print({ kind, doc }: { kind: DocumentKind; doc: TaxDocument }) {
  const { t } = useTranslation('tax');
  const client = useClient();
  const queryClient = useQueryClient();
  const [format, setFormat] = useState<'a4' | 'receipt80'>('a4');
  const next = nextPrintLabel(doc.printCount);
  const print = useMutation({
    mutationFn: () => fetchDocumentPdf(client, kind, doc.id, format),
    meta: { action: t('actions.print', { number: doc.number }) },
    onSuccess: (file) => {
      // The browser's PDF viewer, with its print button; a blocked pop-up falls back to a download.
      const url = URL.createObjectURL(file.blob);
      if (!window.open(url, '_blank')) saveDownload(file);
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['tax', kind] }),
  });
  return (
    <Section title={t('print.title')}>
      <Text size="sm">
        {doc.printCount === 0 ? t('print.neverPrinted') : t('print.printed', { count: doc.printCount })}
        {doc.lastPrintedAt && (
          <>
            {' '}
            <StoreDateTime value={doc.lastPrintedAt} inherit />
          </>
        )}
      </Text>
      <NativeSelect
        label={t('print.format')}
        data={[
          { value: 'a4', label: t('print.formats.a4') },
          { value: 'receipt80', label: t('print.formats.receipt80') },
        ]}
        value={format}
        onChange={(event) => setFormat(event.currentTarget.value as 'a4' | 'receipt80')}
      />
      <Group>
        <Button onClick={() => print.mutate()} loading={print.isPending}>
          {next.key === 'original' ? t('print.original') : t('print.copy', { copy: next.copy })}
        </Button>
      </Group>
      {print.isError && (
        <Text size="sm" c="red.9" role="alert">
          {describeTaxError(print.error, t)}
        </Text>
      )}
    </Section>
  );
}

function Sync({ kind, doc }: { kind: DocumentKind; doc: TaxDocument }) {
  const { t } = useTranslation('tax');
  const client = useClient();
  const queryClient = useQueryClient();
  const retry = useMutation({
    mutationFn: () => resyncDocument(client, kind, doc.id),
    meta: { action: t('actions.resync', { number: doc.number }) },
    onSuccess: (updated) => {
      queryClient.setQueryData(['tax', kind, 'detail', doc.id], updated);
      void queryClient.invalidateQueries({ queryKey: ['tax', kind, 'list'] });
    },
  });
  return (
    <Section title={t('sync.title')}>
      <Group gap="xs">
        <SyncBadge status={doc.syncStatus} />
        <Text size="sm" c="dimmed">
          {t('sync.attempts', { count: doc.syncAttempts })}
        </Text>
      </Group>
      {doc.lastSyncAt && (
        <Fact label={t('sync.lastAt')}>
          <StoreDateTime value={doc.lastSyncAt} />
        </Fact>
      )}
      {doc.lastSyncReply && <Fact label={t('sync.lastReplyLabel')}>{doc.lastSyncReply}</Fact>}
      <Text size="sm" c="dimmed">
        {t(`sync.explain.${doc.syncStatus}`)}
      </Text>
      {doc.syncStatus === 'failed' && (
        <Can permission="Invoices_SYNC">
          <Group>
            <Button variant="light" onClick={() => retry.mutate()} loading={retry.isPending}>
              {t('sync.retry')}
            </Button>
          </Group>
        </Can>
      )}
      {retry.isError && (
        <Text size="sm" c="red.9" role="alert">
          {describeTaxError(retry.error, t)}
        </Text>
      )}
    </Section>
  );
}

/** An invoice's return: its credit note, or issuing one (Orders_UPDATE) while the order allows. */
function Return({ invoice }: { invoice: TaxDocument }) {
  const { t } = useTranslation('tax');
  const client = useClient();
  const creditNote = useQuery({
    queryKey: ['tax', 'creditNote', 'ofOrder', invoice.orderId],
    queryFn: () => documentOfOrder(client, 'creditNote', invoice.orderId),
    meta: { action: t('actions.loadOne.creditNote') },
  });
  return (
    <Section title={t('return.title')}>
      {creditNote.isPending ? (
        <LoadingState />
      ) : creditNote.isError ? (
        <ErrorState error={creditNote.error} onRetry={() => void creditNote.refetch()} />
      ) : creditNote.data ? (
        <Stack gap="xs">
          <Text size="sm">
            {t('return.issued')}{' '}
            <Anchor component={Link} to={`${KIND_PATH.creditNote}/${creditNote.data.id}`} fw={600}>
              {creditNote.data.number}
            </Anchor>{' '}
            · {formatBsYmd(creditNote.data.dateBs)}
          </Text>
          {creditNote.data.reason && <Fact label={t('detail.reason')}>{creditNote.data.reason}</Fact>}
        </Stack>
      ) : (
        <Can permission="Orders_UPDATE" fallback={<Text size="sm">{t('return.none')}</Text>}>
          <IssueCreditNote invoice={invoice} />
        </Can>
      )}
    </Section>
  );
}

function IssueCreditNote({ invoice }: { invoice: TaxDocument }) {
  const { t } = useTranslation('tax');
  const client = useClient();
  const order = useQuery({
    queryKey: ['orders', 'detail', invoice.orderId],
    queryFn: () => fetchOrder(client, invoice.orderId),
    meta: { action: t('actions.loadOrder') },
  });
  const commands = useOrderCommands();
  if (order.isPending) return <LoadingState />;
  if (order.isError) return <ErrorState error={order.error} onRetry={() => void order.refetch()} />;
  const how = returnRouteOf(order.data);
  return (
    <Stack gap="sm">
      <CommandStatus commands={commands} />
      <FollowReturn commands={commands} orderId={invoice.orderId} />
      {how ? (
        <CreditNoteCommand order={order.data} how={how} commands={commands} invoice={invoice} />
      ) : (
        <Alert color="gray" variant="light">
          <Text size="sm">{t('return.notPossible')}</Text>
        </Alert>
      )}
    </Stack>
  );
}

/** Which command returns the order as a whole: cancel a paid order whose goods have not left, or approve the customer's refund request. */
export function returnRouteOf(order: Parameters<typeof canBeCancelled>[0]): 'cancel' | 'refund' | null {
  if (order.orderStatus === 'paid' && canBeCancelled(order)) return 'cancel';
  if (awaitsRefundDecision(order)) return 'refund';
  return null;
}

/** When the order's command ends, the credit note (made in its transaction) is read again. */
function FollowReturn({ commands, orderId }: { commands: OrderCommands; orderId: number }) {
  const queryClient = useQueryClient();
  const wasBusy = useRef(false);
  useEffect(() => {
    if (wasBusy.current && !commands.busy) {
      void queryClient.invalidateQueries({ queryKey: ['tax', 'creditNote'] });
      void queryClient.invalidateQueries({ queryKey: ['orders', 'detail', orderId] });
    }
    wasBusy.current = commands.busy;
  }, [commands.busy, queryClient, orderId]);
  return null;
}

function CreditNoteCommand({
  order,
  how,
  commands,
  invoice,
}: {
  order: OrderDetail;
  how: 'cancel' | 'refund';
  commands: OrderCommands;
  invoice: TaxDocument;
}) {
  const { t } = useTranslation('tax');
  const client = useClient();
  const [reason, setReason] = useState('');
  const label = t('return.issue');
  const issue = useCommand({
    fields: how === 'cancel' ? ['reason'] : ['remarks'],
    mutationFn: () =>
      how === 'cancel'
        ? client.post('/api/admin/orders/{id}/cancel', {
            params: { path: { id: order.id } },
            body: { reason: reason.trim() },
          })
        : client.post('/api/admin/orders/{id}/process-refund', {
            params: { path: { id: order.id } },
            body: { action: 'approve', remarks: reason.trim() },
          }),
    action: t('actions.issueCreditNote', { number: invoice.number }),
    onSuccess: (accepted) => {
      setReason('');
      commands.follow(accepted, label, t('return.done', { number: invoice.number }));
    },
  });
  return (
    <>
      <Text size="sm">{t(`return.explain.${how}`, { orderNumber: order.orderNumber })}</Text>
      <Group>
        <Button color="red.8" variant="outline" onClick={issue.open} disabled={commands.busy}>
          {label}
        </Button>
      </Group>
      <CommandModal
        {...issue.modal}
        title={t('return.modalTitle', { number: invoice.number })}
        confirmLabel={t('return.confirm')}
        destructive
      >
        <Text size="sm">{t(`return.confirmExplain.${how}`, { orderNumber: order.orderNumber })}</Text>
        <LongTextarea
          limit={1000}
          label={t('return.reason')}
          required
          {...textField(issue.errors, how === 'cancel' ? 'reason' : 'remarks', reason, setReason)}
        />
      </CommandModal>
    </>
  );
}
