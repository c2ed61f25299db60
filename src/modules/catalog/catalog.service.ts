// Rules every catalog record shares: slugs made from names.
import Sanscript from '@indic-transliteration/sanscript';

/** Runs of Devanagari (letters, signs, digits, dandas), the part of a name that is romanised. */
const DEVANAGARI_RUN = /[\u0900-\u097F\uA8E0-\uA8FF]+/g;
/** The letters and signs of a word, without digits and dandas. */
const DEVANAGARI_WORD = /[\u0900-\u0963\u0971-\u097F]+/g;
const CONSONANT = '[\\u0915-\\u0939\\u0978-\\u097F]';
/** A word ending in a bare consonant after a vowel or vowel sign (not a conjunct): हिमालयन, not बुद्ध. */
const SILENT_FINAL_A = new RegExp(`[^\\u094D]${CONSONANT}$`);
const VIRAMA = '\u094D';

/**
 * Devanagari read the way a Nepali shop writes it in Latin letters: the transliteration is the
 * library's (IAST, the common scholarly scheme), then three habits of everyday Nepali spelling so
 * an address reads like the name said aloud: a word's last consonant drops its inherent "a"
 * (हिमालयन → himalayan, not himalayana; a final conjunct keeps it: बुद्ध → buddha), च is "ch"
 * and छ "chh", श and ष are "sh", ऋ is "ri", a nasal sign is "n" and ङ is "ng". A nukta is dropped
 * (क़ → k). Diacritics left over (ā, ṭ, ḍ) become their base letter in slugify.
 */
function romanised(run: string): string {
  const words = run
    .normalize('NFD')
    .replace(/\u093C/g, '')
    .replace(DEVANAGARI_WORD, (word) => (SILENT_FINAL_A.test(word) ? word + VIRAMA : word));
  return Sanscript.t(words, 'devanagari', 'iast')
    .normalize('NFC')
    .replace(/ch?/g, (c) => (c === 'ch' ? 'chh' : 'ch'))
    .replace(/[śṣ]/g, 'sh')
    .replace(/[ṛṝ]/g, 'ri')
    .replace(/ṃ|m\u0310|~/g, 'n')
    .replace(/ṅ(?!g)/g, 'ng');
}

/**
 * A URL slug of a name: ASCII letters and digits joined by single hyphens. Accents are
 * dropped to their base letter and Devanagari is romanised (`romanised`), so हिमालयन ढाका टोपी
 * becomes `himalayan-dhaka-topi`; a name with no letters or digits at all falls back to
 * `fallback`, because a slug must never be empty.
 */
export function slugify(name: string, fallback: string): string {
  const base = name
    .replace(DEVANAGARI_RUN, (run) => ` ${romanised(run)} `)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 120)
    .replace(/-+$/g, '');
  return base || fallback;
}

/** The first of `base`, `base-2`, `base-3`, … that is not in `taken`. */
export function firstFreeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
