// The form of each section type, as data: which fields a section's payload has (the API's
// schemas in src/modules/content/content.payloads.ts), and the conversion between a payload and
// what the form edits. Rich text is edited as plain paragraphs (a blank line between two); a rich
// text whose words were not changed is sent back exactly as it was, so its bold and links stay.
import type { components } from '@pasal/client';

export type PageKey = components['schemas']['ContentPage']['pageKey'];
export type Section = components['schemas']['ContentPage']['sections'][number];
export type SectionKey = Section['sectionKey'];

export type Field =
  | { kind: 'rich'; key: string; limit: number; required?: boolean; multiline?: boolean }
  | { kind: 'text'; key: string; max: number; required?: boolean; multiline?: boolean }
  | { kind: 'url'; key: string; required?: boolean }
  | { kind: 'bool'; key: string }
  | { kind: 'object'; key: string; fields: Field[]; required?: boolean }
  | { kind: 'list'; key: string; fields: Field[]; min: number; max: number; required?: boolean }
  | {
      kind: 'texts';
      key: string;
      max: number;
      min: number;
      itemMax: number;
      rich?: boolean;
      required?: boolean;
    };

export const PAGE_KEYS: readonly PageKey[] = [
  'home',
  'about',
  'faq',
  'privacy_policy',
  'terms_of_service',
  'products_thangkas',
  'products_singing_bowls',
  'products_statues',
  'products_jewellery',
  'global_footer',
];

const productPage: SectionKey[] = ['hero', 'products_header', 'blogs_header'];
export const ALLOWED_SECTIONS: Record<PageKey, readonly SectionKey[]> = {
  home: ['hero', 'top_picks', 'categories', 'heritage', 'why_us', 'faq_intro', 'blogs'],
  about: ['hero', 'quote', 'why_choose', 'story_blocks', 'faq_intro', 'blogs'],
  faq: ['faq_intro'],
  privacy_policy: ['document'],
  terms_of_service: ['document'],
  products_thangkas: productPage,
  products_singing_bowls: productPage,
  products_statues: productPage,
  products_jewellery: productPage,
  global_footer: [
    'brand_block',
    'quick_links',
    'collections_links',
    'support_links',
    'featured_collections_cards',
    'copyright',
  ],
};

const label = (key = 'label', required = true): Field => ({ kind: 'rich', key, limit: 60, required });
const heading = (key = 'heading', required = true): Field => ({ kind: 'rich', key, limit: 110, required });
const description = (key = 'description', required = true): Field => ({
  kind: 'rich',
  key,
  limit: 320,
  required,
  multiline: true,
});
const image = (key: string, required = false): Field => ({
  kind: 'object',
  key,
  required,
  fields: [
    { kind: 'url', key: 'src', required: true },
    { kind: 'text', key: 'alt', max: 255 },
  ],
});
const cta: Field = {
  kind: 'object',
  key: 'cta',
  fields: [label('label'), { kind: 'url', key: 'href', required: true }],
};
const images = (keys: string[]): Field => ({
  kind: 'object',
  key: 'images',
  fields: keys.map((key) => image(key)),
});
const links = (min: number, max: number): Field => ({
  kind: 'list',
  key: 'items',
  min,
  max,
  required: true,
  fields: [label('label'), { kind: 'url', key: 'href', required: true }],
});
const headingBlock = [heading(), label('label', false), description('description', false)];
const featureCards = [
  heading(),
  label('label', false),
  description('description', false),
  {
    kind: 'list',
    key: 'cards',
    min: 1,
    max: 12,
    required: true,
    fields: [
      { kind: 'rich', key: 'title', limit: 60, required: true },
      { kind: 'rich', key: 'description', limit: 220, required: true, multiline: true },
      { kind: 'text', key: 'iconKey', max: 80, required: true },
    ],
  } satisfies Field,
];
const linkList = [label('title'), links(1, 20)];
const listingHeader = [heading(), label('label', false), description('description', false), cta];

export const SECTION_FIELDS: Record<SectionKey, Field[]> = {
  hero: [label(), heading(), description(), images(['main', 'top', 'bottom']), cta],
  top_picks: headingBlock,
  categories: headingBlock,
  heritage: [
    label(),
    heading(),
    description(),
    description('quote'),
    images(['main', 'collageTop', 'collageBottom', 'logo']),
  ],
  why_us: featureCards,
  why_choose: featureCards,
  faq_intro: [label(), heading(), description(), cta],
  blogs: [heading(), label('label', false), description('description', false), cta],
  quote: [description('text'), label('author', false)],
  story_blocks: [
    {
      kind: 'list',
      key: 'blocks',
      min: 1,
      max: 10,
      required: true,
      fields: [
        label(),
        heading(),
        description(),
        image('image', true),
        { kind: 'texts', key: 'overlayLines', min: 0, max: 6, itemMax: 110, rich: true },
        { kind: 'bool', key: 'reverse' },
      ],
    },
  ],
  products_header: listingHeader,
  blogs_header: listingHeader,
  brand_block: [heading(), description('tagline'), label('legalLabel', false)],
  quick_links: linkList,
  collections_links: linkList,
  support_links: linkList,
  featured_collections_cards: [links(1, 12), heading('title', false)],
  copyright: [description('text')],
  document: [
    { kind: 'text', key: 'eyebrow', max: 60, required: true },
    { kind: 'text', key: 'title', max: 255, required: true },
    { kind: 'text', key: 'summary', max: 1000, required: true, multiline: true },
    { kind: 'text', key: 'lastUpdated', max: 60, required: true },
    {
      kind: 'list',
      key: 'sections',
      min: 1,
      max: 50,
      required: true,
      fields: [
        { kind: 'text', key: 'id', max: 80, required: true },
        { kind: 'text', key: 'title', max: 255, required: true },
        { kind: 'texts', key: 'paragraphs', min: 1, max: 20, itemMax: 5000, required: true },
        { kind: 'texts', key: 'bullets', min: 0, max: 40, itemMax: 1000 },
      ],
    },
  ],
};

// ── Rich text ───────────────────────────────────────────────────────────────────────────────

interface RichDoc {
  type: 'doc';
  content: { type: 'paragraph'; content?: { type: 'text'; text: string }[] }[];
}

function isRichDoc(value: unknown): value is RichDoc {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { type?: unknown }).type === 'doc' &&
    Array.isArray((value as { content?: unknown }).content)
  );
}

/** The words of a rich text, a blank line between paragraphs. */
export function richToText(value: unknown): string {
  if (!isRichDoc(value)) return '';
  return value.content.map((p) => (p.content ?? []).map((n) => n.text).join('')).join('\n\n');
}

/** A rich text of these words: a paragraph per block of lines. */
export function textToRich(text: string): RichDoc {
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  return {
    type: 'doc',
    content: paragraphs.map((p) => ({ type: 'paragraph', content: [{ type: 'text', text: p }] })),
  };
}

// ── Payload ⇄ form values ─────────────────────────────────────────────────────────────────
// Form values: the payload's shape with every rich text as its words (strings), lists as arrays
// of value objects, absent optional objects as empty objects.

export type Values = Record<string, unknown>;

export function valuesOf(fields: Field[], payload: unknown): Values {
  const source = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>;
  const out: Values = {};
  for (const field of fields) {
    const value = source[field.key];
    switch (field.kind) {
      case 'rich':
        out[field.key] = richToText(value);
        break;
      case 'text':
      case 'url':
        out[field.key] = typeof value === 'string' ? value : '';
        break;
      case 'bool':
        out[field.key] = value === true;
        break;
      case 'object':
        out[field.key] = valuesOf(field.fields, value);
        break;
      case 'list': {
        const rows = Array.isArray(value) ? value : [];
        const filled = rows.map((row) => valuesOf(field.fields, row));
        while (filled.length < field.min) filled.push(valuesOf(field.fields, {}));
        out[field.key] = filled;
        break;
      }
      case 'texts': {
        const rows = Array.isArray(value) ? value : [];
        const texts = rows.map((row) => (field.rich ? richToText(row) : typeof row === 'string' ? row : ''));
        while (texts.length < field.min) texts.push('');
        out[field.key] = texts;
        break;
      }
    }
  }
  return out;
}

function isBlank(values: Values, fields: Field[]): boolean {
  return fields.every((field) => {
    const value = values[field.key];
    if (field.kind === 'object') return isBlank((value ?? {}) as Values, field.fields);
    if (field.kind === 'bool') return value !== true;
    if (Array.isArray(value)) return value.length === 0;
    return typeof value !== 'string' || value.trim() === '';
  });
}

/**
 * The payload to send. `original` is the payload as loaded: a rich text whose words are
 * unchanged goes back as it was. Empty optional fields are left out; empty required ones are
 * sent empty, so the API names them.
 */
export function payloadOf(fields: Field[], values: Values, original: unknown): Record<string, unknown> {
  const before = (typeof original === 'object' && original !== null ? original : {}) as Record<
    string,
    unknown
  >;
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.key];
    switch (field.kind) {
      case 'rich': {
        const text = typeof value === 'string' ? value : '';
        if (!text.trim() && !field.required) break;
        out[field.key] =
          isRichDoc(before[field.key]) && richToText(before[field.key]) === text
            ? before[field.key]
            : textToRich(text);
        break;
      }
      case 'text':
      case 'url': {
        const text = typeof value === 'string' ? value.trim() : '';
        if (!text && !field.required) break;
        out[field.key] = text;
        break;
      }
      case 'bool':
        if (value === true) out[field.key] = true;
        break;
      case 'object': {
        const inner = (value ?? {}) as Values;
        if (!field.required && isBlank(inner, field.fields)) break;
        const built = payloadOf(field.fields, inner, before[field.key]);
        if (field.key === 'images' && Object.keys(built).length === 0) break;
        out[field.key] = built;
        break;
      }
      case 'list': {
        const rows = (Array.isArray(value) ? value : []) as Values[];
        const previous = Array.isArray(before[field.key]) ? (before[field.key] as unknown[]) : [];
        if (rows.length === 0 && !field.required) break;
        out[field.key] = rows.map((row, index) => payloadOf(field.fields, row, previous[index]));
        break;
      }
      case 'texts': {
        const rows = (Array.isArray(value) ? value : []) as string[];
        const previous = Array.isArray(before[field.key]) ? (before[field.key] as unknown[]) : [];
        if (rows.length === 0 && !field.required) break;
        out[field.key] = rows.map((text, index) =>
          field.rich
            ? richToText(previous[index]) === text && isRichDoc(previous[index])
              ? previous[index]
              : textToRich(text)
            : text.trim(),
        );
        break;
      }
    }
  }
  return out;
}

/** `payload.items[2].href` (the API's detail path) as the form's key `items.2.href`. */
export function formPathOf(apiPath: string): string {
  return apiPath
    .replace(/^payload\.?/, '')
    .replace(/\[(\d+)\]/g, '.$1')
    .replace(/^\./, '');
}
