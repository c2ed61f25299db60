// Slugs made from names (products, categories, brands, tags, blog posts and blog categories
// share slugify): Latin names as before, Devanagari romanised to Latin letters a reader
// recognises (docs/api-notes.md, "Slugs from Devanagari").
import { describe, expect, it } from 'vitest';
import { slugify } from '../../../src/modules/catalog';

describe('slugify', () => {
  it.each([
    ['Singing Bowls & Gongs', 'singing-bowls-and-gongs'],
    ['Café Ñandú', 'cafe-nandu'],
    ['हिमालयन ढाका टोपी', 'himalayan-dhaka-topi'],
    ['नेपाली चिया', 'nepali-chiya'],
    ['छुर्पी', 'chhurpi'],
    ['पश्मिना शल', 'pashmina-shal'],
    ['गोर्खा खुकुरी', 'gorkha-khukuri'],
    ['श्री गणेश मूर्ति', 'shri-ganesh-murti'],
    ['थाङ्का', 'thangka'],
    ['सिङ्गिङ बाउल', 'singing-baul'],
    ['बुद्ध', 'buddha'],
    ['कृष्ण', 'krishna'],
    ['अक्षर', 'akshar'],
    ['क़लम', 'kalam'],
    ['हाँस', 'hans'],
    ['न', 'na'],
    ['टोपी।', 'topi'],
    ['Pashmina शल २०८३', 'pashmina-shal-2083'],
  ])('%s → %s', (name, slug) => {
    expect(slugify(name, 'product')).toBe(slug);
  });

  it('falls back when nothing of the name can be a slug', () => {
    expect(slugify('!!! ???', 'product')).toBe('product');
    expect(slugify('漢字', 'tag')).toBe('tag');
  });
});
