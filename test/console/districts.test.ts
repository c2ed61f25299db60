// The Nepali names of the districts (console/src/lib/districts.ts): one for each of the 77 the
// API seeds, in Devanagari, none twice; an unknown name shows as given.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DISTRICTS_NE, districtName } from '../../console/src/lib/districts';

const seeded = [
  ...readFileSync('drizzle/0008_seed_shipping_districts.sql', 'utf8').matchAll(/\('([^']+)', '\w+'\)/g),
].map((m) => m[1]!);

describe('districtName', () => {
  it('has a Nepali name for each of the 77 seeded districts, and no other', () => {
    expect(seeded).toHaveLength(77);
    expect(Object.keys(DISTRICTS_NE).sort()).toEqual([...seeded].sort());
    const names = Object.values(DISTRICTS_NE);
    expect(new Set(names).size).toBe(77);
    for (const name of names) expect(name).toMatch(/^[\u0900-\u097F ()]+$/);
  });

  it.each([
    ['Kathmandu', 'काठमाडौं'],
    ['Kavrepalanchok', 'काभ्रेपलाञ्चोक'],
    ['Nawalparasi East', 'नवलपरासी (बर्दघाट सुस्ता पूर्व)'],
    ['Rukum West', 'रुकुम (पश्चिम भाग)'],
    [' kaski ', 'कास्की'],
  ])('%s is %s in Nepali', (english, nepali) => {
    expect(districtName(english, 'ne')).toBe(nepali);
  });

  it('keeps English as the API gives it, and an unknown name as typed', () => {
    expect(districtName('Kathmandu', 'en')).toBe('Kathmandu');
    expect(districtName('Springfield', 'ne')).toBe('Springfield');
  });
});
