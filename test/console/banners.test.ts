// The banner screens' pure helpers: the words of a campaign's targeting in English and Nepali
// (with the area's own strings), a placement's size rule against an image, and the daily figures
// grouped per campaign or banner.
import { readFileSync } from 'node:fs';
import i18next, { type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { figureRows, rangeOf } from '../../console/src/screens/banners/figures';
import { ratioOf, sizeProblem } from '../../console/src/screens/banners/image-size';
import { type Rule, ruleWords, targetingWords } from '../../console/src/screens/banners/targeting-words';

const strings = (language: string) =>
  JSON.parse(readFileSync(`console/src/screens/banners/locales/${language}.json`, 'utf8'));

let en: TFunction<'banners'>;
let ne: TFunction<'banners'>;
beforeAll(async () => {
  const i18n = i18next.createInstance();
  await i18n.init({
    resources: { en: { banners: strings('en') }, ne: { banners: strings('ne') } },
    lng: 'en',
    fallbackLng: false,
    interpolation: { escapeValue: false },
  });
  en = i18n.getFixedT('en', 'banners') as TFunction<'banners'>;
  ne = i18n.getFixedT('ne', 'banners') as TFunction<'banners'>;
});

const rule = (ruleType: Rule['ruleType'], operator: string, value: unknown, isActive = true): Rule => ({
  ruleType,
  operator,
  value,
  isActive,
});

const festive: Rule[] = [
  rule('device', 'in', ['mobile']),
  rule('country', 'in', ['NP']),
  rule('hour_of_day', 'between', { from: 9, to: 17, timezone: 'Asia/Kathmandu' }),
  rule('day_of_week', 'in', { days: [0, 6], timezone: 'Asia/Kathmandu' }),
];

describe('targeting words', () => {
  it('says whom a campaign reaches, in English', () => {
    expect(targetingWords(festive, en, 'en')).toBe(
      'Mobile visitors, from Nepal, 9:00–17:59 Kathmandu time, Sunday and Saturday',
    );
  });

  it('says it in Nepali, with no English left', () => {
    const words = targetingWords(festive, ne, 'ne');
    expect(words).toBe('मोबाइल प्रयोग गर्ने आगन्तुक, नेपालबाट, काठमाडौं समय 9:00–17:59, आइतबार र शनिबार');
    expect(words).not.toMatch(/[A-Za-z]/);
  });

  it('reads every rule type and operator, and leaves paused rules out', () => {
    const words = targetingWords(
      [
        rule('device', 'not_in', ['desktop', 'tablet']),
        rule('country', 'not_in', ['IN']),
        rule('language', 'in', ['ne']),
        rule('user_segment', 'in', ['vip', 'wholesale']),
        rule('login_state', 'eq', 'logged_out'),
        rule('new_visitor', 'eq', true),
        rule('referrer_domain', 'in', ['facebook.com']),
        rule('day_of_week', 'in', { days: [5] }),
        rule('country', 'in', ['NP'], false),
      ],
      en,
      'en',
    );
    expect(words).toBe(
      'Every visitor, not on desktop or tablet, not from India, reading Nepali, in the segment vip or wholesale, ' +
        'not signed in, on their first visit, coming from facebook.com, Friday (UTC time)',
    );
  });

  it('words one rule on its own, for the list of rules', () => {
    expect(ruleWords(rule('country', 'in', ['NP']), en, 'en')).toBe('From Nepal');
    expect(ruleWords(rule('country', 'in', ['NP']), ne, 'ne')).toBe('नेपालबाट');
    expect(ruleWords(rule('device', 'in', ['mobile', 'tablet']), en, 'en')).toBe('Mobile or tablet visitors');
    expect(ruleWords(rule('login_state', 'eq', 'logged_in', false), en, 'en')).toBe('Signed in');
  });

  it('says "every visitor" without active rules, in both languages', () => {
    expect(targetingWords([], en, 'en')).toBe('Every visitor');
    expect(targetingWords([rule('device', 'in', ['mobile'], false)], ne, 'ne')).toBe('हरेक आगन्तुक');
  });
});

describe("a placement's size rule", () => {
  const hero = { recommendedWidth: 1200, recommendedHeight: 400, recommendedAspectRatio: null };
  it('takes an image of the same proportions, at least as large', () => {
    expect(sizeProblem({ width: 1200, height: 400 }, hero)).toBeNull();
    expect(sizeProblem({ width: 2400, height: 801 }, hero)).toBeNull();
  });
  it('refuses other proportions, and a smaller image', () => {
    expect(sizeProblem({ width: 400, height: 400 }, hero)).toEqual({ code: 'ratio', ratio: '1200:400' });
    expect(sizeProblem({ width: 600, height: 200 }, hero)).toEqual({
      code: 'small',
      width: 1200,
      height: 400,
    });
  });
  it('reads a ratio alone, and takes anything without a rule', () => {
    const wide = { recommendedWidth: null, recommendedHeight: null, recommendedAspectRatio: '16:9' };
    expect(ratioOf(wide)?.value).toBeCloseTo(16 / 9);
    expect(sizeProblem({ width: 160, height: 90 }, wide)).toBeNull();
    expect(sizeProblem({ width: 100, height: 100 }, wide)).toEqual({ code: 'ratio', ratio: '16:9' });
    const none = { recommendedWidth: null, recommendedHeight: null, recommendedAspectRatio: null };
    expect(sizeProblem({ width: 1, height: 999 }, none)).toBeNull();
  });
});

describe('daily figures', () => {
  const row = (date: string, banner: string, campaign: string, impressions: number, clicks: number) => ({
    date,
    bannerPublicId: `b-${banner}`,
    bannerTitle: banner,
    campaignPublicId: `c-${campaign}`,
    campaignName: campaign,
    impressions,
    clicks,
  });
  const rows = [
    row('2026-11-28', 'Sale', 'Dashain', 10, 1),
    row('2026-11-28', 'Phones', 'Dashain', 5, 2),
    row('2026-11-28', 'Sale', 'Tihar', 3, 0),
    row('2026-11-29', 'Sale', 'Dashain', 4, 1),
  ];
  it('sums per day and campaign, or per day and banner', () => {
    expect(figureRows(rows, 'campaign').map((r) => [r.date, r.name, r.impressions, r.clicks])).toEqual([
      ['2026-11-28', 'Dashain', 15, 3],
      ['2026-11-28', 'Tihar', 3, 0],
      ['2026-11-29', 'Dashain', 4, 1],
    ]);
    expect(figureRows(rows, 'banner').map((r) => [r.date, r.name, r.impressions])).toEqual([
      ['2026-11-28', 'Phones', 5],
      ['2026-11-28', 'Sale', 13],
      ['2026-11-29', 'Sale', 4],
    ]);
  });
  it('names the last days up to today as UTC days', () => {
    expect(rangeOf(new Date('2026-11-29T20:00:00Z'), 7)).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(rangeOf(new Date('2026-03-02T01:00:00Z'), 30)).toEqual({ from: '2026-02-01', to: '2026-03-02' });
  });
});
