// Targeting rules: which operators and values each rule type takes
// (docs/decisions.md, "Targeting operators"), and the pure matcher serving runs against a
// visitor's context. No I/O here, so every rule type and operator has a table-driven test.
import { z } from 'zod';
import type { RuleType } from '../banners.table';

/** What serving knows of the visitor, read from the request headers (see serving/serving.context.ts). */
export interface ServingContext {
  device: 'mobile' | 'tablet' | 'desktop';
  /** Upper-case ISO 3166 alpha-2, or null when no header says. */
  country: string | null;
  isLoggedIn: boolean;
  /** Primary language subtag, lower-case, or null. */
  language: string | null;
  isNewVisitor: boolean;
  /** Host of the Referer, lower-case, or null. */
  referrerDomain: string | null;
  /** From `x-user-segment`, comma separated, lower-case. */
  segments: string[];
}

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const timeZone = z.string().trim().min(1).max(64).refine(isTimeZone, 'must be an IANA time zone');
const strings = (item: z.ZodString) => z.array(item).min(1).max(500);
const domain = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(253)
  .regex(/^[a-z0-9-]+(\.[a-z0-9-]+)*$/, 'must be a domain name like example.com');

/** The operators of each rule type and the value each one takes. */
export const RULE_GRAMMAR = {
  device: {
    operators: ['in', 'not_in'],
    value: z
      .array(z.enum(['mobile', 'tablet', 'desktop']))
      .min(1)
      .max(3),
  },
  country: {
    operators: ['in', 'not_in'],
    value: strings(
      z
        .string()
        .trim()
        .regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code')
        .toUpperCase(),
    ),
  },
  language: {
    operators: ['in', 'not_in'],
    value: strings(z.string().trim().toLowerCase().min(1).max(35)),
  },
  user_segment: {
    operators: ['in', 'not_in'],
    value: strings(z.string().trim().toLowerCase().min(1).max(100)),
  },
  login_state: { operators: ['eq'], value: z.enum(['logged_in', 'logged_out']) },
  new_visitor: { operators: ['eq'], value: z.boolean() },
  hour_of_day: {
    operators: ['between'],
    value: z.strictObject({
      from: z.number().int().min(0).max(23),
      to: z.number().int().min(0).max(23),
      timezone: timeZone.optional(),
    }),
  },
  day_of_week: {
    operators: ['in'],
    value: z.strictObject({
      days: z.array(z.number().int().min(0).max(6)).min(1).max(7),
      timezone: timeZone.optional(),
    }),
  },
  referrer_domain: { operators: ['in', 'not_in'], value: strings(domain) },
} as const satisfies Record<RuleType, { operators: readonly string[]; value: z.ZodType }>;

export type RuleValue<T extends RuleType> = z.output<(typeof RULE_GRAMMAR)[T]['value']>;

export interface Rule {
  ruleType: RuleType;
  operator: string;
  value: unknown;
}

export const operatorAllowed = (ruleType: RuleType, operator: string) =>
  (RULE_GRAMMAR[ruleType].operators as readonly string[]).includes(operator);

/** The value normalised for storage, or the validation issues of a wrong shape. */
export function parseRuleValue(
  ruleType: RuleType,
  value: unknown,
): { ok: true; value: unknown } | { ok: false; issues: Array<{ path: string; message: string }> } {
  const parsed = RULE_GRAMMAR[ruleType].value.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  return {
    ok: false,
    issues: parsed.error.issues.map((i) => ({
      path: ['value', ...i.path.map(String)].join('.'),
      message: i.message,
    })),
  };
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** Hour (0–23) and weekday (0 = Sunday) of `at` in `zone`. */
export function localHourAndDay(at: Date, zone = 'UTC'): { hour: number; day: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hour: 'numeric',
    hourCycle: 'h23',
    weekday: 'short',
  }).formatToParts(at);
  const hour = Number(parts.find((p) => p.type === 'hour')?.value ?? 0) % 24;
  const day = WEEKDAYS.indexOf(parts.find((p) => p.type === 'weekday')?.value ?? 'Sun');
  return { hour, day };
}

/** `HH:MM:SS` of `at` in `zone`. */
export function localClockTime(at: Date, zone = 'UTC'): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${get('hour')}:${get('minute')}:${get('second')}`;
}

const inList = (operator: string, list: readonly string[], actual: string | null) => {
  const found = actual !== null && list.includes(actual);
  return operator === 'in' ? found : !found;
};

const domainMatches = (host: string, wanted: string) => host === wanted || host.endsWith(`.${wanted}`);

/**
 * Whether one rule holds for the context at `now`. An unknown value (no country header, no
 * Referer) is never `in` a list and always `not_in` it. A rule that does not parse (stored
 * before a grammar change) matches nothing, so a campaign is never shown to more people than
 * its rules say.
 */
export function ruleMatches(rule: Rule, ctx: ServingContext, now: Date): boolean {
  if (!operatorAllowed(rule.ruleType, rule.operator)) return false;
  const parsed = parseRuleValue(rule.ruleType, rule.value);
  if (!parsed.ok) return false;
  const value = parsed.value;
  switch (rule.ruleType) {
    case 'device':
      return inList(rule.operator, value as string[], ctx.device);
    case 'country':
      return inList(rule.operator, value as string[], ctx.country);
    case 'language':
      return inList(rule.operator, value as string[], ctx.language);
    case 'user_segment': {
      const found = ctx.segments.some((s) => (value as string[]).includes(s));
      return rule.operator === 'in' ? found : !found;
    }
    case 'login_state':
      return (value === 'logged_in') === ctx.isLoggedIn;
    case 'new_visitor':
      return value === ctx.isNewVisitor;
    case 'hour_of_day': {
      const { from, to, timezone } = value as RuleValue<'hour_of_day'>;
      const { hour } = localHourAndDay(now, timezone);
      // Inclusive; from > to wraps midnight (22–2 is 22, 23, 0, 1, 2).
      return from <= to ? hour >= from && hour <= to : hour >= from || hour <= to;
    }
    case 'day_of_week': {
      const { days, timezone } = value as RuleValue<'day_of_week'>;
      return days.includes(localHourAndDay(now, timezone).day);
    }
    case 'referrer_domain': {
      const host = ctx.referrerDomain;
      const found = host !== null && (value as string[]).some((d) => domainMatches(host, d));
      return rule.operator === 'in' ? found : !found;
    }
  }
}

/** All active rules of a campaign combine with AND; no rules means everyone. */
export const rulesMatch = (rules: readonly Rule[], ctx: ServingContext, now: Date) =>
  rules.every((rule) => ruleMatches(rule, ctx, now));
