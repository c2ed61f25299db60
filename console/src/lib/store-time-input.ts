// Date-and-time inputs in the store's time zone (not the browser's): the value of an
// `<input type="datetime-local">` ("2026-10-12T09:00") read as a wall-clock time in `timeZone`,
// and an instant shown back as that wall-clock text. Pure functions (Intl only).
import { storeDateOf } from './format';

const pad = (n: number) => String(n).padStart(2, '0');

/** Minutes `timeZone` is ahead of UTC at `at` (Asia/Kathmandu: 345). */
function offsetMinutes(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
  return Math.round((wall - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

/** "2026-10-12T09:00" for an instant, in `timeZone`; "" for none. */
export function storeInputOf(value: string | null | undefined, timeZone: string): string {
  if (!value) return '';
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return '';
  const shifted = new Date(at.getTime() + offsetMinutes(at, timeZone) * 60_000);
  return `${storeDateOf(value, timeZone)}T${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}`;
}

/** The instant (ISO, UTC) of a wall-clock "2026-10-12T09:00" in `timeZone`; null when empty or malformed. */
export function instantOfStoreInput(text: string, timeZone: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const [, y, mo, d, h, mi] = match.map(Number) as [number, number, number, number, number, number];
  const guess = Date.UTC(y, mo - 1, d, h, mi);
  let at = guess - offsetMinutes(new Date(guess), timeZone) * 60_000;
  // Once more, for a zone whose offset changes between the guess and the answer (DST).
  at = guess - offsetMinutes(new Date(at), timeZone) * 60_000;
  return new Date(at).toISOString();
}
