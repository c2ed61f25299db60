// The pure rules of reviews: masked names (docs/decisions.md "Masked name"), plain text, and the summary.
import { describe, expect, it } from 'vitest';
import { maskName, summaryOf } from '../../../src/modules/reviews/product-reviews/product-reviews.service';
import { plainText } from '../../../src/modules/reviews/reviews.fields';

describe('maskName', () => {
  it('turns each word into its first letter and ***', () => {
    expect(maskName('Ramesh Shrestha')).toBe('R*** S***');
    expect(maskName('Sita')).toBe('S***');
    expect(maskName('  Maya   Devi  Rai ')).toBe('M*** D*** R***');
    expect(maskName('राम बहादुर')).toBe('र*** ब***');
    expect(maskName('')).toBe('***');
  });
});

describe('plainText', () => {
  it('strips tags, drops script bodies, keeps characters entities stood for, trims', () => {
    expect(plainText('  <b>Great</b> phone &amp; case ')).toBe('Great phone & case');
    expect(plainText('<script>alert(1)</script>Hi')).toBe('Hi');
    expect(plainText('<a href="javascript:evil()">link</a>')).toBe('link');
    expect(plainText('1 < 2 and 3 > 2')).toBe('1 < 2 and 3 > 2');
    expect(plainText('line one\nline two')).toBe('line one\nline two');
  });

  it('leaves no tag that decoding would reveal', () => {
    expect(plainText('&lt;img src=x onerror=alert(1)&gt;ok')).toBe('ok');
    expect(plainText('a&amp;lt;b&amp;gt;c')).toBe('ac');
    expect(plainText('<img src=x onerror=alert(1)>')).toBe('');
  });
});

describe('summaryOf', () => {
  it('averages with 2 decimals and counts each star', () => {
    expect(
      summaryOf(
        new Map([
          [5, 1],
          [4, 2],
        ]),
      ),
    ).toEqual({
      averageRating: 4.33,
      totalReviews: 3,
      ratingCounts: { '1': 0, '2': 0, '3': 0, '4': 2, '5': 1 },
    });
    expect(
      summaryOf(
        new Map([
          [1, 1],
          [2, 2],
        ]),
      ),
    ).toMatchObject({ averageRating: 1.67, totalReviews: 3 });
    expect(summaryOf(new Map())).toEqual({
      averageRating: 0,
      totalReviews: 0,
      ratingCounts: { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 },
    });
  });
});
