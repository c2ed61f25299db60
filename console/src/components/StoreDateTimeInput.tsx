// A date-and-time input in the store's time zone, with the zone named and the Bikram Sambat
// date of the chosen day beside it ("Kathmandu time · 26 Kartik 2083 BS"). The value is the
// instant (ISO) or null; the text typed stays while it is incomplete.
import { TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { formatBsDateOf } from '../lib/format';
import { instantOfStoreInput, storeInputOf } from '../lib/store-time-input';
import { useStoreTimeZone } from '../lib/store-time-zone';
import { useLanguage } from './Formatted';

export function StoreDateTimeInput(props: {
  label: string;
  /** Words before the BS date: "Kathmandu time". */
  zoneNote: string;
  value: string | null;
  onChange(value: string | null): void;
  error?: string;
}) {
  const timeZone = useStoreTimeZone();
  const language = useLanguage();
  const [text, setText] = useState(storeInputOf(props.value, timeZone));
  useEffect(() => {
    // The value changed from outside (a reset): show it.
    setText((typed) =>
      instantOfStoreInput(typed, timeZone) === props.value ? typed : storeInputOf(props.value, timeZone),
    );
  }, [props.value, timeZone]);
  const bs = props.value ? formatBsDateOf(props.value, { timeZone, language }) : null;
  return (
    <TextInput
      type="datetime-local"
      label={props.label}
      description={bs ? `${props.zoneNote} · ${bs}` : props.zoneNote}
      value={text}
      error={props.error}
      onChange={(event) => {
        const typed = event.currentTarget.value;
        setText(typed);
        props.onChange(instantOfStoreInput(typed, timeZone));
      }}
    />
  );
}
