// Targeting rules as the API stores them (docs/decisions.md, "Targeting operators") and one line
// that says in words whom a campaign reaches: "Mobile visitors, from Nepal, 9:00–17:59 Kathmandu
// time, on Saturday and Sunday". Pure (no React, no DOM): test/console/banners.test.ts runs it.
import type { TFunction } from 'i18next';
import { type Language, localDigits } from '../../lib/format';

export const RULE_TYPES = [
  'device',
  'country',
  'language',
  'user_segment',
  'login_state',
  'new_visitor',
  'hour_of_day',
  'day_of_week',
  'referrer_domain',
] as const;
export type RuleType = (typeof RULE_TYPES)[number];
export const DEVICES = ['mobile', 'tablet', 'desktop'] as const;

/** A rule as the screens hold it; `value`'s shape follows `ruleType`. */
export interface Rule {
  ruleType: RuleType;
  operator: string;
  value: unknown;
  isActive: boolean;
}

/** The operators the API accepts for each rule type, the first being the usual one. */
export const OPERATORS: Readonly<Record<RuleType, readonly string[]>> = {
  device: ['in', 'not_in'],
  country: ['in', 'not_in'],
  language: ['in', 'not_in'],
  user_segment: ['in', 'not_in'],
  referrer_domain: ['in', 'not_in'],
  login_state: ['eq'],
  new_visitor: ['eq'],
  hour_of_day: ['between'],
  day_of_week: ['in'],
};

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

export interface HourWindow {
  from: number;
  to: number;
  timezone?: string;
}
export interface DayList {
  days: number[];
  timezone?: string;
}

export function hourWindowOf(value: unknown): HourWindow | null {
  const v = value as Partial<HourWindow> | null;
  return v && typeof v.from === 'number' && typeof v.to === 'number' ? (v as HourWindow) : null;
}

export function dayListOf(value: unknown): DayList | null {
  const v = value as Partial<DayList> | null;
  return v && Array.isArray(v.days) ? (v as DayList) : null;
}

type Translate = TFunction<'banners'>;

/**
 * "a, b or c" / "a, b and c" with the area's own words: the browser's Intl data for Nepali
 * (list joins, region and weekday names) is missing in some builds, which then answer in English.
 */
function joined(items: string[], t: Translate, type: 'or' | 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')}${t(`words.${type}`)}${items.at(-1)}`;
}

/** A country's name in the admin's language: the area's words, else the browser's, else the code. */
function regionName(code: string, t: Translate, language: Language): string {
  const upper = code.toUpperCase();
  const own = t(`countries.${upper}`, { defaultValue: '' });
  if (own) return own;
  try {
    return new Intl.DisplayNames([language], { type: 'region' }).of(upper) ?? upper;
  } catch {
    return upper;
  }
}

function languageName(code: string, t: Translate, language: Language): string {
  const own = t(`languages.${code}`, { defaultValue: '' });
  if (own) return own;
  try {
    return new Intl.DisplayNames([language], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** A weekday's name, 0 = Sunday. */
export function weekdayName(day: number, t: Translate): string {
  return t(`weekdays.${day}`, { defaultValue: String(day) });
}

function zoneName(zone: string | undefined, t: Translate): string {
  const id = zone ?? 'UTC';
  return t(`words.zones.${id.replaceAll('/', '_')}`, { defaultValue: id });
}

/**
 * The words of one campaign's active rules, in the admin's language; "Every visitor" with none.
 * `t` is the banners namespace's.
 */
export function targetingWords(rules: readonly Rule[], t: Translate, language: Language): string {
  const active = rules.filter((r) => r.isActive);
  const any = (items: string[]) => joined(items, t, 'or');
  const devicesIn = active.find((r) => r.ruleType === 'device' && r.operator === 'in');
  const subject = devicesIn
    ? t('words.deviceVisitors', {
        devices: any(strings(devicesIn.value).map((d) => t(`devices.${d}`, { defaultValue: d }))),
      })
    : t('words.visitors');
  const parts: string[] = [];
  for (const rule of active) {
    if (rule === devicesIn) continue;
    const values = strings(rule.value);
    const negative = rule.operator === 'not_in';
    switch (rule.ruleType) {
      case 'device':
        parts.push(
          t(negative ? 'words.notDevice' : 'words.device', {
            devices: any(values.map((d) => t(`devices.${d}`, { defaultValue: d }))),
          }),
        );
        break;
      case 'country':
        parts.push(
          t(negative ? 'words.notCountry' : 'words.country', {
            countries: any(values.map((c) => regionName(c, t, language))),
          }),
        );
        break;
      case 'language':
        parts.push(
          t(negative ? 'words.notLanguage' : 'words.language', {
            languages: any(values.map((l) => languageName(l, t, language))),
          }),
        );
        break;
      case 'user_segment':
        parts.push(t(negative ? 'words.notSegment' : 'words.segment', { segments: any(values) }));
        break;
      case 'referrer_domain':
        parts.push(t(negative ? 'words.notReferrer' : 'words.referrer', { domains: any(values) }));
        break;
      case 'login_state':
        parts.push(t(rule.value === 'logged_in' ? 'words.signedIn' : 'words.signedOut'));
        break;
      case 'new_visitor':
        parts.push(t(rule.value === true ? 'words.newVisitor' : 'words.returningVisitor'));
        break;
      case 'hour_of_day': {
        const window = hourWindowOf(rule.value);
        if (window)
          parts.push(
            t('words.hours', {
              from: `${window.from}:00`,
              to: `${window.to}:59`,
              zone: zoneName(window.timezone, t),
            }),
          );
        break;
      }
      case 'day_of_week': {
        const days = dayListOf(rule.value);
        const hours = hourWindowOf(active.find((r) => r.ruleType === 'hour_of_day')?.value);
        // The zone is said once when the hours already named it.
        const sameZone = hours !== null && (hours.timezone ?? 'UTC') === (days?.timezone ?? 'UTC');
        if (days)
          parts.push(
            t(sameZone ? 'words.days' : 'words.daysInZone', {
              days: joined(
                [...days.days].sort((a, b) => a - b).map((d) => weekdayName(d, t)),
                t,
                'and',
              ),
              zone: zoneName(days.timezone, t),
            }),
          );
        break;
      }
    }
  }
  const sentence = [subject, ...parts].join(t('words.separator'));
  return localDigits(sentence.charAt(0).toUpperCase() + sentence.slice(1), language);
}

/** One rule on its own ("Mobile visitors", "From Nepal"), for the list of a campaign's rules. */
export function ruleWords(rule: Rule, t: Translate, language: Language): string {
  const alone = { ...rule, isActive: true };
  if (rule.ruleType === 'device' && rule.operator === 'in') return targetingWords([alone], t, language);
  // Without a device rule the line starts with "every visitor" and a separator: drop both.
  const full = targetingWords([alone], t, language);
  const lead = `${t('words.visitors')}${t('words.separator')}`;
  const rest = full.toLowerCase().startsWith(lead.toLowerCase()) ? full.slice(lead.length) : full;
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}
