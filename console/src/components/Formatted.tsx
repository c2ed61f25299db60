// Money and dates as the console shows them everywhere (rules in lib/format.ts): whole NPR with
// lakh grouping, and dates in the store's time zone with the Bikram Sambat date beside them.
import { Text, type TextProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../i18n/i18n';
import { districtName } from '../lib/districts';
import { formatBsDate, formatDate, formatDateTime, formatMoney, storeDateOf } from '../lib/format';
import { useStoreTimeZone } from '../lib/store-time-zone';

export function useLanguage() {
  return currentLanguage(useTranslation().i18n.language);
}

/** A district (the English name the API gives) named in the admin's language. */
export function useDistrictName() {
  const language = useLanguage();
  return (name: string) => districtName(name, language);
}

export function Money({ amount, ...text }: { amount: number } & TextProps) {
  return (
    <Text span inherit {...text}>
      {formatMoney(amount, useLanguage())}
    </Text>
  );
}

/** An instant (ISO-8601): "26 Nov 2025, 15:05 · 10 Mangsir 2082 BS", in the store's zone. */
export function StoreDateTime({
  value,
  stacked = false,
  ...text
}: { value: string; stacked?: boolean } & TextProps) {
  const language = useLanguage();
  const timeZone = useStoreTimeZone();
  const bs = formatBsDate(storeDateOf(value, timeZone), language);
  const time = <time dateTime={value}>{formatDateTime(value, { timeZone, language })}</time>;
  // Stacked (for table cells): each date on its own unbroken line, the BS date quieter below.
  if (stacked)
    return (
      <Text span inherit {...text}>
        <span style={{ display: 'block', whiteSpace: 'nowrap' }}>{time}</span>
        {bs && (
          <Text span size="xs" c="dimmed" style={{ display: 'block', whiteSpace: 'nowrap' }}>
            {bs}
          </Text>
        )}
      </Text>
    );
  return (
    <Text span inherit {...text}>
      {time}
      {bs && <span> · {bs}</span>}
    </Text>
  );
}

/** A calendar date the API already gives in the store's zone ("2025-11-26"), with its BS date. */
export function StoreDate({ date, ...text }: { date: string } & TextProps) {
  const language = useLanguage();
  const bs = formatBsDate(date, language);
  return (
    <Text span inherit {...text}>
      <time dateTime={date}>{formatDate(date, language)}</time>
      {bs && <span> · {bs}</span>}
    </Text>
  );
}
