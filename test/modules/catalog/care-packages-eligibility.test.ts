// Care-package eligibility and the month arithmetic of subscriptions, as pure functions.
import { describe, expect, it } from 'vitest';
import {
  addMonths,
  type EligibilityProduct,
  type EligibilityRules,
  isEligible,
} from '../../../src/modules/catalog/care-packages/care-packages.eligibility';

const laptop: EligibilityProduct = {
  id: 7,
  productKind: 'physical',
  categoryPath: [12, 3], // Gaming laptops (12) under Laptops (3)
  brandId: 5,
  effectivePrice: 150_000,
};
const none: EligibilityRules = {
  categoryIds: [],
  brandIds: [],
  productIds: [],
  minPrice: null,
  maxPrice: null,
};

describe('isEligible', () => {
  const cases: Array<[string, Partial<EligibilityProduct>, Partial<EligibilityRules>, boolean]> = [
    ['no rule at all covers every physical product', {}, {}, true],
    ['a digital product is never covered', { productKind: 'digital' }, {}, false],
    ['a care_package product is never covered', { productKind: 'care_package' }, {}, false],
    ['its own category', {}, { categoryIds: [12] }, true],
    ['an ancestor category', {}, { categoryIds: [3] }, true],
    ['another category', {}, { categoryIds: [4] }, false],
    ['a product without category and a category rule', { categoryPath: [] }, { categoryIds: [3] }, false],
    ['its brand', {}, { brandIds: [5] }, true],
    ['another brand', {}, { brandIds: [6] }, false],
    ['no brand and a brand rule', { brandId: null }, { brandIds: [5] }, false],
    ['its id', {}, { productIds: [7] }, true],
    ['another id', {}, { productIds: [8] }, false],
    ['one matching set of several is enough', {}, { categoryIds: [4], brandIds: [6], productIds: [7] }, true],
    ['no set matching', {}, { categoryIds: [4], brandIds: [6], productIds: [8] }, false],
    ['price inside the range', {}, { minPrice: 100_000, maxPrice: 200_000 }, true],
    ['price at the lower bound', {}, { minPrice: 150_000 }, true],
    ['price at the upper bound', {}, { maxPrice: 150_000 }, true],
    ['price below the range', {}, { minPrice: 150_001 }, false],
    ['price above the range', {}, { maxPrice: 149_999 }, false],
    ['matching id but price outside', {}, { productIds: [7], maxPrice: 100 }, false],
    ['price inside but no id set matching', {}, { brandIds: [6], minPrice: 0 }, false],
  ];
  it.each(cases)('%s', (_name, product, rules, expected) => {
    expect(isEligible({ ...laptop, ...product }, { ...none, ...rules })).toBe(expected);
  });
});

describe('addMonths', () => {
  const cases: Array<[string, number, string]> = [
    ['2026-01-15T10:00:00.000Z', 12, '2027-01-15T10:00:00.000Z'],
    ['2026-01-31T00:00:00.000Z', 1, '2026-02-28T00:00:00.000Z'],
    ['2028-01-31T00:00:00.000Z', 1, '2028-02-29T00:00:00.000Z'],
    ['2026-03-31T23:59:59.000Z', 6, '2026-09-30T23:59:59.000Z'],
    ['2026-11-30T08:00:00.000Z', 3, '2027-02-28T08:00:00.000Z'],
    ['2026-05-01T00:00:00.000Z', 24, '2028-05-01T00:00:00.000Z'],
  ];
  it.each(cases)('%s + %i months = %s', (start, months, end) => {
    expect(addMonths(new Date(start), months).toISOString()).toBe(end);
  });
});
