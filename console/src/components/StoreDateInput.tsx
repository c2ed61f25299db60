// A calendar-day input as the console shows dates everywhere (lib/format.ts): the chosen day
// written "26 Nov 2025" / "26 नोभेम्बर 2025" (never the browser's US "11/26/2025"), its Bikram
// Sambat date under the box, and a calendar whose header names the BS months and whose cells
// carry the BS day beside the Gregorian one. The value is a store calendar date ("2025-11-26")
// or '' when empty; typing a date as 2025-11-26 works too.
import '@mantine/dates/styles.css';
import { DateInput } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import { bsDayOf, formatBsDate, formatBsMonthsOf, formatDate, formatMonthYear } from '../lib/format';
import { useLanguage } from './Formatted';

const DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;

/** What a person may type: a year-month-day date; anything else is no date. */
function parseTyped(text: string): string | null {
  const match = DATE.exec(text.trim());
  if (!match) return null;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const at = new Date(Date.UTC(y, m - 1, d));
  if (at.getUTCFullYear() !== y || at.getUTCMonth() !== m - 1 || at.getUTCDate() !== d) return null;
  return at.toISOString().slice(0, 10);
}

export function StoreDateInput(props: {
  label: string;
  value: string;
  onChange(value: string): void;
  /** A message, or true to mark the box as wrong when the message is shown elsewhere. */
  error?: string | boolean;
  id?: string;
  w?: number;
  /** The last day that may be chosen ("2025-11-26"), e.g. today for a report's start. */
  maxDate?: string;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const bs = props.value ? formatBsDate(props.value, language) : null;
  const weekdays = t('datePicker.weekdays', { returnObjects: true }) as string[];
  return (
    <DateInput
      id={props.id}
      label={props.label}
      description={bs ?? t('datePicker.typeHint')}
      value={props.value || null}
      onChange={(value) => props.onChange(value ?? '')}
      valueFormat={(date) => formatDate(date.slice(0, 10), language)}
      dateParser={parseTyped}
      error={props.error}
      maxDate={props.maxDate}
      w={props.w}
      miw={props.w}
      clearable
      clearButtonProps={{ 'aria-label': t('datePicker.clear') }}
      // Nepal's week starts on Sunday (आइतबार); Saturday is the day off.
      firstDayOfWeek={0}
      weekendDays={[6]}
      weekdayFormat={(date) => weekdays[new Date(`${date.slice(0, 10)}T00:00:00Z`).getUTCDay()] ?? ''}
      monthLabelFormat={(date) => {
        const months = formatBsMonthsOf(date.slice(0, 10), language);
        return months
          ? `${formatMonthYear(date.slice(0, 10), language)} · ${months}`
          : formatMonthYear(date.slice(0, 10), language);
      }}
      getDayAriaLabel={(date) => {
        const day = date.slice(0, 10);
        const bsDay = formatBsDate(day, language);
        return bsDay ? `${formatDate(day, language)} · ${bsDay}` : formatDate(day, language);
      }}
      renderDay={(date) => {
        const day = date.slice(0, 10);
        const bsDay = bsDayOf(day);
        return (
          <span style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', lineHeight: 1.05 }}>
            <span>{Number(day.slice(8, 10))}</span>
            {bsDay !== null && <span style={{ fontSize: '0.65em', opacity: 0.8 }}>{bsDay}</span>}
          </span>
        );
      }}
      ariaLabels={{
        previousMonth: t('datePicker.previousMonth'),
        nextMonth: t('datePicker.nextMonth'),
        previousYear: t('datePicker.previousYear'),
        nextYear: t('datePicker.nextYear'),
        monthLevelControl: t('datePicker.chooseMonth'),
        yearLevelControl: t('datePicker.chooseYear'),
      }}
      popoverProps={{ withinPortal: true }}
    />
  );
}
