// The sales register and the sales-return register (IRD Schedule 5) of a fiscal year or one BS
// month of it: shown as a table, and downloaded as the API's own CSV under the API's file name
// (`sales-register-2082-83-m08.csv`), the way an accountant files them. The table is that same
// CSV read back, so what is shown is exactly what is filed. The choice lives in the address.
// Every read of a register is an `export` in the activity log (the API logs it).
import { Box, Button, Group, NativeSelect, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../components/Formatted';
import { Screen } from '../../components/Screen';
import { EmptyState, ErrorState, LoadingState } from '../../components/StatePanels';
import { describeError } from '../../lib/api-errors';
import { formatCount, storeDateOf } from '../../lib/format';
import { useClient } from '../../session/session';
import { fetchRegister, type RegisterKind, saveDownload } from './tax-api';
import {
  bsMonthName,
  fiscalYearOf,
  isFiscalYear,
  paisaOfRupees,
  parseCsv,
  recentFiscalYears,
  rupeesOfPaisa,
} from './tax-format';

/** The register's columns as the API writes them, and the key of each one's label. */
const COLUMN_KEYS: Record<string, string> = {
  'Fiscal year': 'fiscalYear',
  Number: 'number',
  'Reference invoice': 'referenceInvoice',
  'Buyer name': 'buyerName',
  'Buyer PAN': 'buyerPan',
  'Date (BS)': 'dateBs',
  Total: 'total',
  Discount: 'discount',
  'Taxable amount': 'taxable',
  VAT: 'vat',
  'Exempt amount': 'exempt',
  'Payment method': 'paymentMethod',
  Printed: 'printed',
  'Print count': 'printCount',
  Active: 'active',
  Synced: 'synced',
  'Issued by': 'issuedBy',
};
/** Columns of rupees with two decimals, summed under the table. */
const SUMMED = new Set(['Total', 'Discount', 'Taxable amount', 'VAT', 'Exempt amount']);
const RIGHT = new Set([...SUMMED, 'Print count']);

/** BS months in the order of a fiscal year: Shrawan (4) … Chaitra (12), Baisakh (1) … Asar (3). */
const FISCAL_MONTHS = [4, 5, 6, 7, 8, 9, 10, 11, 12, 1, 2, 3];

const REGISTERS: readonly RegisterKind[] = ['sales', 'salesReturn'];

interface Choice {
  kind: RegisterKind;
  fiscalYear: string;
  month: number | null;
}

export function RegistersScreen() {
  const { t } = useTranslation('tax');
  const language = useLanguage();
  const client = useClient();
  const navigate = useNavigate();
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const current = fiscalYearOf(storeDateOf(new Date()));
  const years = recentFiscalYears(current, 5);
  const choice: Choice = useMemo(() => {
    const month = Number(search.month);
    return {
      kind: search.register === 'salesReturn' ? 'salesReturn' : 'sales',
      fiscalYear: isFiscalYear(search.fy) ? search.fy : current,
      month: Number.isInteger(month) && month >= 1 && month <= 12 ? month : null,
    };
  }, [search, current]);
  const choose = (next: Choice) =>
    void navigate({
      to: '.',
      search: {
        register: next.kind === 'sales' ? undefined : next.kind,
        fy: next.fiscalYear === current ? undefined : next.fiscalYear,
        month: next.month ?? undefined,
      },
      replace: true,
    } as never);

  const register = useQuery({
    queryKey: ['tax', 'register', choice],
    queryFn: async () => {
      const file = await fetchRegister(client, choice.kind, choice.fiscalYear, choice.month);
      return { file, rows: parseCsv(await file.blob.text()) };
    },
    meta: { action: t(`actions.loadRegister.${choice.kind}`) },
  });
  const download = useMutation({
    mutationFn: () => fetchRegister(client, choice.kind, choice.fiscalYear, choice.month),
    onSuccess: saveDownload,
    meta: { action: t(`actions.loadRegister.${choice.kind}`) },
  });

  const period = choice.month
    ? t('registers.periodMonth', {
        month: bsMonthName(choice.month, language),
        fiscalYear: choice.fiscalYear,
      })
    : t('registers.periodYear', { fiscalYear: choice.fiscalYear });
  const [header, ...rows] = register.data?.rows ?? [];

  return (
    <Screen title={t('registers.title')}>
      <Paper
        withBorder
        p="md"
        component="form"
        aria-label={t('registers.choose')}
        onSubmit={(e) => e.preventDefault()}
      >
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <NativeSelect
            label={t('registers.register')}
            data={REGISTERS.map((k) => ({ value: k, label: t(`registers.kinds.${k}`) }))}
            value={choice.kind}
            onChange={(e) => choose({ ...choice, kind: e.currentTarget.value as RegisterKind })}
          />
          <NativeSelect
            label={t('filters.fiscalYear')}
            data={years.map((y) => ({ value: y, label: y }))}
            value={choice.fiscalYear}
            onChange={(e) => choose({ ...choice, fiscalYear: e.currentTarget.value })}
          />
          <NativeSelect
            label={t('registers.month')}
            data={[
              { value: '', label: t('registers.wholeYear') },
              ...FISCAL_MONTHS.map((m) => ({ value: String(m), label: bsMonthName(m, language) })),
            ]}
            value={choice.month ? String(choice.month) : ''}
            onChange={(e) =>
              choose({ ...choice, month: e.currentTarget.value ? Number(e.currentTarget.value) : null })
            }
          />
        </SimpleGrid>
      </Paper>

      <Paper withBorder p="md" component="section" aria-label={t(`registers.kinds.${choice.kind}`)}>
        <Stack gap="sm">
          <Group justify="space-between">
            <Stack gap={0}>
              <Text fw={700} component="h2" size="lg" m={0}>
                {t(`registers.kinds.${choice.kind}`)}
              </Text>
              <Text size="sm" c="dimmed">
                {period}
                {register.data &&
                  ` · ${t('registers.count', { count: rows.length, shown: formatCount(rows.length) })}`}
              </Text>
            </Stack>
            <Button
              onClick={() => download.mutate()}
              loading={download.isPending}
              disabled={!register.isSuccess}
            >
              {t('registers.download')}
            </Button>
          </Group>
          {download.isError && (
            <Text size="sm" c="red.9" role="alert">
              {describeError(download.error, t)}
            </Text>
          )}
          {register.isPending ? (
            <LoadingState />
          ) : register.isError ? (
            <ErrorState error={register.error} onRetry={() => void register.refetch()} />
          ) : rows.length === 0 || !header ? (
            <EmptyState message={t('registers.empty')} />
          ) : (
            <RegisterTable
              header={header}
              rows={rows}
              caption={`${t(`registers.kinds.${choice.kind}`)} · ${period}`}
            />
          )}
        </Stack>
      </Paper>
    </Screen>
  );
}

function RegisterTable({ header, rows, caption }: { header: string[]; rows: string[][]; caption: string }) {
  const { t } = useTranslation('tax');
  const sums = header.map((name, i) =>
    SUMMED.has(name) ? rupeesOfPaisa(rows.reduce((sum, row) => sum + paisaOfRupees(row[i] ?? ''), 0)) : null,
  );
  const label = (name: string) => (COLUMN_KEYS[name] ? t(`registers.columns.${COLUMN_KEYS[name]}`) : name);
  return (
    // Wider than most screens: the box that scrolls takes the keyboard focus (arrow keys scroll
    // it), as axe asks of a scrollable region; Mantine's ScrollContainer scrolls an inner box.
    <Box style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={caption}>
      <Table striped withTableBorder fz="xs" miw={1100}>
        <caption style={{ captionSide: 'top', textAlign: 'left' }} className="register-caption">
          <Text span size="xs" c="dimmed">
            {caption}
          </Text>
        </caption>
        <Table.Thead>
          <Table.Tr>
            {header.map((name) => (
              <Table.Th key={name} ta={RIGHT.has(name) ? 'right' : undefined}>
                {label(name)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={`${row[0]}-${row[1]}`}>
              {header.map((name, i) => (
                <Table.Td
                  key={name}
                  ta={RIGHT.has(name) ? 'right' : undefined}
                  style={{ whiteSpace: 'nowrap' }}
                >
                  {row[i]}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr>
            {header.map((name, i) => (
              <Table.Th
                key={name}
                ta={sums[i] === null ? undefined : 'right'}
                scope={i === 0 ? 'row' : undefined}
              >
                {i === 0 ? t('registers.totals') : sums[i]}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </Box>
  );
}
