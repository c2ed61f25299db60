// The pure parts of banner serving, table-driven: the targeting matcher per rule type and
// operator (time zones and midnight wrap included), the context read from headers, the
// schedule window rules and the campaign transition table.
import { describe, expect, it } from 'vitest';
import { insideRecurrenceWindow, servableAt } from '../../../src/modules/banners/banners/banners.schedule';
import type { CampaignStatus } from '../../../src/modules/banners/banners.table';
import {
  operatorAllowed,
  parseRuleValue,
  type Rule,
  ruleMatches,
  rulesMatch,
  type ServingContext,
} from '../../../src/modules/banners/campaigns/campaigns.targeting';
import {
  CAMPAIGN_TRANSITIONS,
  canTransition,
} from '../../../src/modules/banners/campaigns/campaigns.transitions';
import {
  contextHash,
  deviceOf,
  primaryLanguage,
  servingContext,
} from '../../../src/modules/banners/serving/serving.context';

const base: ServingContext = {
  device: 'desktop',
  country: 'NP',
  isLoggedIn: false,
  language: 'en',
  isNewVisitor: true,
  referrerDomain: null,
  segments: [],
};
// A Monday, 10:30 UTC = 16:15 in Kathmandu (UTC+5:45).
const MONDAY_1030_UTC = new Date('2026-03-02T10:30:00Z');

describe('targeting rule matcher', () => {
  const cases: Array<[string, Rule, Partial<ServingContext>, boolean, Date?]> = [
    // device
    [
      'device in: match',
      { ruleType: 'device', operator: 'in', value: ['mobile', 'tablet'] },
      { device: 'mobile' },
      true,
    ],
    [
      'device in: miss',
      { ruleType: 'device', operator: 'in', value: ['mobile'] },
      { device: 'desktop' },
      false,
    ],
    [
      'device not_in: miss',
      { ruleType: 'device', operator: 'not_in', value: ['mobile'] },
      { device: 'mobile' },
      false,
    ],
    [
      'device not_in: match',
      { ruleType: 'device', operator: 'not_in', value: ['mobile'] },
      { device: 'tablet' },
      true,
    ],
    // country
    ['country in', { ruleType: 'country', operator: 'in', value: ['np', 'IN'] }, { country: 'NP' }, true],
    ['country in, other', { ruleType: 'country', operator: 'in', value: ['IN'] }, { country: 'NP' }, false],
    ['country in, unknown', { ruleType: 'country', operator: 'in', value: ['NP'] }, { country: null }, false],
    [
      'country not_in, unknown',
      { ruleType: 'country', operator: 'not_in', value: ['NP'] },
      { country: null },
      true,
    ],
    [
      'country not_in, listed',
      { ruleType: 'country', operator: 'not_in', value: ['NP'] },
      { country: 'NP' },
      false,
    ],
    // language
    ['language in', { ruleType: 'language', operator: 'in', value: ['ne', 'EN'] }, { language: 'en' }, true],
    [
      'language not_in',
      { ruleType: 'language', operator: 'not_in', value: ['en'] },
      { language: 'en' },
      false,
    ],
    ['language in, none', { ruleType: 'language', operator: 'in', value: ['en'] }, { language: null }, false],
    // user_segment
    [
      'segment in',
      { ruleType: 'user_segment', operator: 'in', value: ['vip'] },
      { segments: ['new', 'vip'] },
      true,
    ],
    [
      'segment in, none',
      { ruleType: 'user_segment', operator: 'in', value: ['vip'] },
      { segments: [] },
      false,
    ],
    [
      'segment not_in',
      { ruleType: 'user_segment', operator: 'not_in', value: ['vip'] },
      { segments: ['vip'] },
      false,
    ],
    [
      'segment not_in, other',
      { ruleType: 'user_segment', operator: 'not_in', value: ['vip'] },
      { segments: ['a'] },
      true,
    ],
    // login_state
    [
      'logged_in: yes',
      { ruleType: 'login_state', operator: 'eq', value: 'logged_in' },
      { isLoggedIn: true },
      true,
    ],
    [
      'logged_in: no',
      { ruleType: 'login_state', operator: 'eq', value: 'logged_in' },
      { isLoggedIn: false },
      false,
    ],
    [
      'logged_out: no',
      { ruleType: 'login_state', operator: 'eq', value: 'logged_out' },
      { isLoggedIn: false },
      true,
    ],
    [
      'logged_out: yes',
      { ruleType: 'login_state', operator: 'eq', value: 'logged_out' },
      { isLoggedIn: true },
      false,
    ],
    // new_visitor
    [
      'new visitor true',
      { ruleType: 'new_visitor', operator: 'eq', value: true },
      { isNewVisitor: true },
      true,
    ],
    [
      'new visitor true, returning',
      { ruleType: 'new_visitor', operator: 'eq', value: true },
      { isNewVisitor: false },
      false,
    ],
    [
      'new visitor false',
      { ruleType: 'new_visitor', operator: 'eq', value: false },
      { isNewVisitor: false },
      true,
    ],
    // hour_of_day (10:30 UTC)
    [
      'hour between, inside',
      { ruleType: 'hour_of_day', operator: 'between', value: { from: 9, to: 11 } },
      {},
      true,
    ],
    [
      'hour between, inclusive end',
      { ruleType: 'hour_of_day', operator: 'between', value: { from: 8, to: 10 } },
      {},
      true,
    ],
    [
      'hour between, inclusive start',
      { ruleType: 'hour_of_day', operator: 'between', value: { from: 10, to: 10 } },
      {},
      true,
    ],
    [
      'hour between, outside',
      { ruleType: 'hour_of_day', operator: 'between', value: { from: 11, to: 14 } },
      {},
      false,
    ],
    [
      'hour in Kathmandu (16:15)',
      {
        ruleType: 'hour_of_day',
        operator: 'between',
        value: { from: 16, to: 17, timezone: 'Asia/Kathmandu' },
      },
      {},
      true,
    ],
    [
      'hour in Kathmandu, UTC hours miss',
      {
        ruleType: 'hour_of_day',
        operator: 'between',
        value: { from: 9, to: 11, timezone: 'Asia/Kathmandu' },
      },
      {},
      false,
    ],
    [
      'midnight wrap 22–2 at 23:00',
      { ruleType: 'hour_of_day', operator: 'between', value: { from: 22, to: 2 } },
      {},
      true,
      new Date('2026-03-02T23:00:00Z'),
    ],
    [
      'midnight wrap 22–2 at 01:59',
      { ruleType: 'hour_of_day', operator: 'between', value: { from: 22, to: 2 } },
      {},
      true,
      new Date('2026-03-02T01:59:00Z'),
    ],
    [
      'midnight wrap 22–2 at 02:59 (hour 2, inclusive)',
      { ruleType: 'hour_of_day', operator: 'between', value: { from: 22, to: 2 } },
      {},
      true,
      new Date('2026-03-02T02:59:00Z'),
    ],
    [
      'midnight wrap 22–2 at 03:00',
      { ruleType: 'hour_of_day', operator: 'between', value: { from: 22, to: 2 } },
      {},
      false,
      new Date('2026-03-02T03:00:00Z'),
    ],
    [
      'midnight wrap 22–2 at 12:00',
      { ruleType: 'hour_of_day', operator: 'between', value: { from: 22, to: 2 } },
      {},
      false,
      new Date('2026-03-02T12:00:00Z'),
    ],
    [
      'midnight wrap in a zone: 19:00 UTC is 00:45 in Kathmandu',
      {
        ruleType: 'hour_of_day',
        operator: 'between',
        value: { from: 23, to: 1, timezone: 'Asia/Kathmandu' },
      },
      {},
      true,
      new Date('2026-03-02T19:00:00Z'),
    ],
    // day_of_week (Monday = 1 in UTC)
    ['day in Monday', { ruleType: 'day_of_week', operator: 'in', value: { days: [1] } }, {}, true],
    ['day in weekend', { ruleType: 'day_of_week', operator: 'in', value: { days: [0, 6] } }, {}, false],
    [
      'day across the date line: Sunday 20:00 UTC is Monday in Kathmandu',
      { ruleType: 'day_of_week', operator: 'in', value: { days: [1], timezone: 'Asia/Kathmandu' } },
      {},
      true,
      new Date('2026-03-01T20:00:00Z'),
    ],
    [
      'day in a zone west of UTC: Monday 02:00 UTC is Sunday in New York',
      { ruleType: 'day_of_week', operator: 'in', value: { days: [0], timezone: 'America/New_York' } },
      {},
      true,
      new Date('2026-03-02T02:00:00Z'),
    ],
    // referrer_domain
    [
      'referrer exact',
      { ruleType: 'referrer_domain', operator: 'in', value: ['example.com'] },
      { referrerDomain: 'example.com' },
      true,
    ],
    [
      'referrer subdomain',
      { ruleType: 'referrer_domain', operator: 'in', value: ['example.com'] },
      { referrerDomain: 'news.example.com' },
      true,
    ],
    [
      'referrer look-alike',
      { ruleType: 'referrer_domain', operator: 'in', value: ['example.com'] },
      { referrerDomain: 'badexample.com' },
      false,
    ],
    [
      'referrer none, in',
      { ruleType: 'referrer_domain', operator: 'in', value: ['example.com'] },
      { referrerDomain: null },
      false,
    ],
    [
      'referrer none, not_in',
      { ruleType: 'referrer_domain', operator: 'not_in', value: ['example.com'] },
      { referrerDomain: null },
      true,
    ],
    [
      'referrer not_in, sub',
      { ruleType: 'referrer_domain', operator: 'not_in', value: ['example.com'] },
      { referrerDomain: 'm.example.com' },
      false,
    ],
    // rules that cannot be read match nobody
    [
      'wrong operator',
      { ruleType: 'device', operator: 'eq', value: ['mobile'] },
      { device: 'mobile' },
      false,
    ],
    ['wrong value shape', { ruleType: 'hour_of_day', operator: 'between', value: [9, 11] }, {}, false],
  ];

  it.each(cases)('%s', (_name, rule, ctx, expected, at) => {
    expect(ruleMatches(rule, { ...base, ...ctx }, at ?? MONDAY_1030_UTC)).toBe(expected);
  });

  it('combines rules with AND; no rules match everyone', () => {
    const mobile: Rule = { ruleType: 'device', operator: 'in', value: ['mobile'] };
    const nepal: Rule = { ruleType: 'country', operator: 'in', value: ['NP'] };
    expect(rulesMatch([], base, MONDAY_1030_UTC)).toBe(true);
    expect(rulesMatch([mobile, nepal], { ...base, device: 'mobile' }, MONDAY_1030_UTC)).toBe(true);
    expect(rulesMatch([mobile, nepal], { ...base, device: 'mobile', country: 'IN' }, MONDAY_1030_UTC)).toBe(
      false,
    );
    expect(rulesMatch([mobile, nepal], base, MONDAY_1030_UTC)).toBe(false);
  });

  it('allows exactly the operators of docs/decisions.md "Targeting operators" per rule type', () => {
    const allowed: Record<string, string[]> = {
      device: ['in', 'not_in'],
      country: ['in', 'not_in'],
      language: ['in', 'not_in'],
      user_segment: ['in', 'not_in'],
      login_state: ['eq'],
      new_visitor: ['eq'],
      hour_of_day: ['between'],
      day_of_week: ['in'],
      referrer_domain: ['in', 'not_in'],
    };
    for (const [type, ops] of Object.entries(allowed)) {
      for (const op of ['in', 'not_in', 'eq', 'between', 'gt']) {
        expect(operatorAllowed(type as Rule['ruleType'], op), `${type} ${op}`).toBe(ops.includes(op));
      }
    }
  });

  it('checks value shapes per rule type', () => {
    const bad: Array<[Rule['ruleType'], unknown]> = [
      ['device', ['phone']],
      ['device', []],
      ['country', ['NPL']],
      ['country', 'NP'],
      ['login_state', 'maybe'],
      ['new_visitor', 'yes'],
      ['hour_of_day', { from: 24, to: 2 }],
      ['hour_of_day', { from: 1, to: 2, timezone: 'Mars/Olympus' }],
      ['day_of_week', { days: [7] }],
      ['day_of_week', { days: [] }],
      ['referrer_domain', ['http://example.com/x']],
    ];
    for (const [type, value] of bad)
      expect(parseRuleValue(type, value).ok, `${type} ${JSON.stringify(value)}`).toBe(false);
    expect(parseRuleValue('country', ['np'])).toEqual({ ok: true, value: ['NP'] });
    expect(parseRuleValue('referrer_domain', ['Example.COM'])).toEqual({ ok: true, value: ['example.com'] });
    expect(parseRuleValue('hour_of_day', { from: 22, to: 2, timezone: 'Asia/Kathmandu' }).ok).toBe(true);
  });
});

describe('serving context from headers', () => {
  it.each([
    ['Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)', 'tablet'],
    ['Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 Safari/537.36', 'tablet'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Mobile Safari/537.36', 'mobile'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148', 'mobile'],
    ['Mozilla/5.0 (iPod touch; CPU iPhone OS 12_0 like Mac OS X)', 'mobile'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120', 'desktop'],
    [undefined, 'desktop'],
  ])('User-Agent %s is %s', (ua, device) => {
    expect(deviceOf(ua)).toBe(device);
  });

  it.each([
    ['en-US,fr;q=0.8', 'en'],
    ['FR-ca', 'fr'],
    ['ne', 'ne'],
    ['*', null],
    [undefined, null],
  ])('Accept-Language %s gives %s', (header, lang) => {
    expect(primaryLanguage(header)).toBe(lang);
  });

  it('reads every documented header', () => {
    expect(
      servingContext({
        'user-agent': 'iPhone Mobile',
        'x-country-code': 'np',
        authorization: 'Bearer anything-not-verified',
        'accept-language': 'ne-NP,en;q=0.5',
        'x-session-id': 's-1',
        referer: 'https://News.Example.com/a?b=1',
        'x-user-segment': 'VIP, new ,vip',
      }),
    ).toEqual({
      device: 'mobile',
      country: 'NP',
      isLoggedIn: true,
      language: 'ne',
      isNewVisitor: false,
      referrerDomain: 'news.example.com',
      segments: ['new', 'vip'],
    });
    const fallback = servingContext({ 'cf-ipcountry': 'IN', 'x-device-id': 'd' });
    expect(fallback).toMatchObject({ country: 'IN', isLoggedIn: false, isNewVisitor: false, language: null });
    expect(servingContext({ 'x-country-code': 'XX1', authorization: 'Basic abc' })).toMatchObject({
      country: null,
      isLoggedIn: false,
      isNewVisitor: true,
      referrerDomain: null,
    });
  });

  it('hashes equal contexts alike and different ones apart', () => {
    const a = servingContext({ 'x-user-segment': 'b,a' });
    const b = servingContext({ 'x-user-segment': 'a,b' });
    expect(contextHash(a)).toBe(contextHash(b));
    expect(contextHash(a)).not.toBe(contextHash(servingContext({ 'x-user-segment': 'a' })));
  });
});

describe('banner schedule eligibility', () => {
  const now = new Date('2026-03-02T10:30:00Z');
  const s = (o: Partial<Parameters<typeof servableAt>[0]>) => ({
    scheduleStatus: 'evergreen' as const,
    publishAt: null,
    expiresAt: null,
    scheduleTimezone: 'UTC',
    recurrenceWindowStart: null,
    recurrenceWindowEnd: null,
    ...o,
  });
  const past = new Date('2026-03-01T00:00:00Z');
  const future = new Date('2026-03-03T00:00:00Z');
  it.each([
    ['expired never', s({ scheduleStatus: 'expired' }), false],
    ['draft never', s({ scheduleStatus: 'draft' }), false],
    ['evergreen always', s({}), true],
    ['evergreen ignores dates', s({ publishAt: future }), true],
    ['scheduled, published', s({ scheduleStatus: 'scheduled', publishAt: past }), true],
    ['scheduled, at publishAt exactly', s({ scheduleStatus: 'scheduled', publishAt: now }), true],
    ['scheduled, not yet', s({ scheduleStatus: 'scheduled', publishAt: future }), false],
    ['active, expired by date', s({ scheduleStatus: 'active', publishAt: past, expiresAt: now }), false],
    ['active, inside window', s({ scheduleStatus: 'active', publishAt: past, expiresAt: future }), true],
    ['window 09–11 inside', s({ recurrenceWindowStart: '09:00:00', recurrenceWindowEnd: '11:00:00' }), true],
    [
      'window start inclusive',
      s({ recurrenceWindowStart: '10:30:00', recurrenceWindowEnd: '11:00:00' }),
      true,
    ],
    ['window end inclusive', s({ recurrenceWindowStart: '09:00:00', recurrenceWindowEnd: '10:30:00' }), true],
    ['window outside', s({ recurrenceWindowStart: '11:00:00', recurrenceWindowEnd: '12:00:00' }), false],
    ['one bound only is no window', s({ recurrenceWindowStart: '11:00:00' }), true],
    [
      'window in the banner zone (16:15 Kathmandu)',
      s({
        scheduleTimezone: 'Asia/Kathmandu',
        recurrenceWindowStart: '16:00:00',
        recurrenceWindowEnd: '17:00:00',
      }),
      true,
    ],
    [
      'window across midnight, outside',
      s({ recurrenceWindowStart: '22:00:00', recurrenceWindowEnd: '02:00:00' }),
      false,
    ],
    [
      'window on an active banner',
      s({
        scheduleStatus: 'active',
        publishAt: past,
        recurrenceWindowStart: '11:00:00',
        recurrenceWindowEnd: '12:00:00',
      }),
      false,
    ],
  ])('%s', (_name, schedule, expected) => {
    expect(servableAt(schedule, now)).toBe(expected);
  });

  it('a window across midnight covers the night', () => {
    const night = s({ recurrenceWindowStart: '22:00:00', recurrenceWindowEnd: '02:00:00' });
    expect(insideRecurrenceWindow(night, new Date('2026-03-02T23:30:00Z'))).toBe(true);
    expect(insideRecurrenceWindow(night, new Date('2026-03-02T01:00:00Z'))).toBe(true);
    expect(insideRecurrenceWindow(night, new Date('2026-03-02T03:00:00Z'))).toBe(false);
  });
});

describe('campaign transition table', () => {
  const all: CampaignStatus[] = ['draft', 'scheduled', 'active', 'paused', 'ended', 'cancelled'];
  const expected = new Set([
    'draft>scheduled',
    'draft>active',
    'draft>cancelled',
    'scheduled>active',
    'scheduled>paused',
    'scheduled>cancelled',
    'active>paused',
    'active>ended',
    'active>cancelled',
    'paused>active',
    'paused>ended',
    'paused>cancelled',
  ]);
  it('holds exactly the pairs of docs/decisions.md "Campaign transitions"', () => {
    for (const from of all)
      for (const to of all)
        expect(canTransition(from, to), `${from} → ${to}`).toBe(expected.has(`${from}>${to}`));
    expect(CAMPAIGN_TRANSITIONS.ended).toEqual([]);
    expect(CAMPAIGN_TRANSITIONS.cancelled).toEqual([]);
  });
});
