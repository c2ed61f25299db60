// Fields product reviews and testimonials share. Ratings are whole stars from 1 to 5.
// Review comments, reviewer names and testimonials are plain text: whatever markup a client
// sends is stripped before it is stored, so a storefront may show them without escaping worries.
import type sanitizeHtml from 'sanitize-html';
import { z } from 'zod';
import { decimalInt } from '../../platform/http/params';
import { lazyPackage } from '../../platform/lazy';

// Loaded by the first review or testimonial written, not at start-up (platform/lazy.ts).
const sanitizer = lazyPackage<typeof sanitizeHtml>('sanitize-html');

const NO_MARKUP: sanitizeHtml.IOptions = { allowedTags: [], allowedAttributes: {} };

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};
const decode = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e);

/**
 * `text` without tags (script and style bodies dropped), entities turned back into characters,
 * trimmed. Stripping repeats while decoding reveals new markup (`&lt;b&gt;`), so no tag survives.
 */
export function plainText(text: string): string {
  let current = text;
  for (let round = 0; round < 5; round++) {
    const next = decode(sanitizer()(current, NO_MARKUP));
    if (next === current) break;
    current = next;
  }
  return current.trim();
}

/**
 * A text field stored as plain text: at most `max` characters once markup is stripped and the
 * ends trimmed (the interface counts a name's length after trim). What is sent is bounded too,
 * so the sanitiser never works on more than ten times that.
 */
export const plainTextField = (max: number) =>
  z
    .string()
    .max(max * 10)
    .transform(plainText)
    .pipe(z.string().max(max));

/** Like `plainTextField`, and something must remain once the markup is gone. */
export const requiredPlainText = (max: number) =>
  z
    .string()
    .max(max * 10)
    .transform(plainText)
    .pipe(z.string().min(1, 'must not be blank').max(max));

const RATING_MESSAGE = 'must be a whole number from 1 to 5';
/** A rating in a JSON body: the number itself. */
export const bodyRating = z
  .number({ error: RATING_MESSAGE })
  .int(RATING_MESSAGE)
  .min(1, RATING_MESSAGE)
  .max(5, RATING_MESSAGE);
/** A rating in a query string: plain decimal digits. */
export const queryRating = decimalInt(1, 5, RATING_MESSAGE);
