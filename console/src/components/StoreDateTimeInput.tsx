// A date-and-time input in the store's time zone, with the zone named ("Kathmandu time") and
// the Bikram Sambat date of the chosen day under the day. The day is the
// console's own date input (the store's date words and the BS calendar, never the browser's
// "mm/dd/yyyy"), the time a 24-hour "09:00" as a Nepali shop writes it. The value is the
// instant (ISO) or null; a day without a time yet means nothing is chosen.
import { Group, Input } from '@mantine/core';
import { TimePicker } from '@mantine/dates';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { instantOfStoreInput, storeInputOf } from '../lib/store-time-input';
import { useStoreTimeZone } from '../lib/store-time-zone';
import { StoreDateInput } from './StoreDateInput';

/** The day and the "HH:mm" of a store input text ("2026-10-12T09:00"). */
function partsOf(text: string): { day: string; time: string } {
  const [day = '', time = ''] = text.split('T');
  return { day, time: time.slice(0, 5) };
}

export function StoreDateTimeInput(props: {
  label: string;
  /** Words before the BS date: "Kathmandu time". */
  zoneNote: string;
  value: string | null;
  onChange(value: string | null): void;
  error?: string;
}) {
  const { t } = useTranslation();
  const timeZone = useStoreTimeZone();
  const id = useId();
  const [parts, setParts] = useState(() => partsOf(storeInputOf(props.value, timeZone)));
  useEffect(() => {
    // The value changed from outside (a reset): show it, unless it is what was typed.
    setParts((typed) =>
      instantOfStoreInput(`${typed.day}T${typed.time}`, timeZone) === props.value
        ? typed
        : partsOf(storeInputOf(props.value, timeZone)),
    );
  }, [props.value, timeZone]);
  const change = (next: { day: string; time: string }) => {
    setParts(next);
    props.onChange(next.day && next.time ? instantOfStoreInput(`${next.day}T${next.time}`, timeZone) : null);
  };
  return (
    <Input.Wrapper
      label={props.label}
      description={props.zoneNote}
      error={props.error}
      labelProps={{ htmlFor: `${id}-day`, id: `${id}-label` }}
    >
      <Group gap="xs" align="flex-start" wrap="nowrap" role="group" aria-labelledby={`${id}-label`}>
        <StoreDateInput
          id={`${id}-day`}
          label={t('datePicker.date')}
          value={parts.day}
          onChange={(day) => change({ ...parts, day })}
          error={props.error ? true : undefined}
        />
        <TimePicker
          label={t('datePicker.time')}
          description={t('datePicker.timeHint')}
          format="24h"
          value={parts.time}
          onChange={(time) => change({ ...parts, time: time.slice(0, 5) })}
          hoursInputLabel={t('datePicker.hours')}
          minutesInputLabel={t('datePicker.minutes')}
          error={props.error ? true : undefined}
          w={130}
        />
      </Group>
    </Input.Wrapper>
  );
}
