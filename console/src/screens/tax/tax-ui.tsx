// Small pieces the tax screens share: paisa amounts, the document's BS date beside its AD date,
// and the CBMS sync state.
import { type MantineColor, Stack, Text, type TextProps } from '@mantine/core';
import i18next, { type TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { StoreDateTime, useLanguage } from '../../components/Formatted';
import { StateBadge } from '../../components/StateBadge';
import { describeError, isPasalError } from '../../lib/api-errors';
import type { SyncStatus, TaxDocument } from './tax-api';
import { formatBsYmd, formatPaisa } from './tax-format';

export function Paisa({ amount, ...text }: { amount: number } & TextProps) {
  return (
    <Text span inherit {...text} style={{ whiteSpace: 'nowrap', ...(text.style as object) }}>
      {formatPaisa(amount, useLanguage())}
    </Text>
  );
}

/** The document's BS date (its own, as printed) above the AD date and time it was issued. */
export function DocumentDate({ doc }: { doc: Pick<TaxDocument, 'dateBs' | 'issuedAt'> }) {
  const language = useLanguage();
  return (
    <Stack gap={0}>
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {formatBsYmd(doc.dateBs, language)}
      </Text>
      {/* The date and time issued, in AD and BS: longer than a phone's column, so it may wrap. */}
      <Text size="xs" c="dimmed">
        <StoreDateTime value={doc.issuedAt} inherit />
      </Text>
    </Stack>
  );
}

const SYNC_COLOURS: Record<SyncStatus, MantineColor> = {
  pending: 'yellow',
  failed: 'red',
  synced: 'green',
  not_required: 'gray',
};

export function SyncBadge({ status }: { status: SyncStatus }) {
  const { t } = useTranslation('tax');
  return <StateBadge color={SYNC_COLOURS[status]}>{t(`sync.status.${status}`)}</StateBadge>;
}

/** An error in words, with this area's own codes (`tax:errorCodes.*`) before the common ones. */
export function describeTaxError(error: unknown, t: TFunction): string {
  if (isPasalError(error) && i18next.exists(`tax:errorCodes.${error.errorCode}`)) {
    return t(`tax:errorCodes.${error.errorCode}`);
  }
  return describeError(error, t);
}
