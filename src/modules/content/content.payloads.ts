// What a section may hold: the payload building blocks (rich text, safe URL, image, CTA) and
// one schema per section key, exactly as the content interface's tables say. Every schema is
// strict (an unknown field is refused, so a typo never disappears silently) and carries an
// OpenAPI component name, so clients can generate types for the payloads they render.
import { z } from 'zod';
import { isSafeLink } from '../../platform/http/fields';

export const PAGE_KEYS = [
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
] as const;
export type PageKey = (typeof PAGE_KEYS)[number];

export const SECTION_KEYS = [
  'hero',
  'top_picks',
  'categories',
  'heritage',
  'why_us',
  'faq_intro',
  'blogs',
  'quote',
  'why_choose',
  'story_blocks',
  'products_header',
  'blogs_header',
  'brand_block',
  'quick_links',
  'collections_links',
  'support_links',
  'featured_collections_cards',
  'copyright',
  'document',
] as const;
export type SectionKey = (typeof SECTION_KEYS)[number];

const productPage = ['hero', 'products_header', 'blogs_header'] as const;
const legalPage = ['document'] as const;

/** The sections each page may hold (the interface's "Allowed sections per page"). */
export const ALLOWED_SECTIONS: Record<PageKey, readonly SectionKey[]> = {
  home: ['hero', 'top_picks', 'categories', 'heritage', 'why_us', 'faq_intro', 'blogs'],
  about: ['hero', 'quote', 'why_choose', 'story_blocks', 'faq_intro', 'blogs'],
  faq: ['faq_intro'],
  privacy_policy: legalPage,
  terms_of_service: legalPage,
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

export const isSectionAllowed = (pageKey: PageKey, sectionKey: SectionKey) =>
  ALLOWED_SECTIONS[pageKey].includes(sectionKey);

/** Character limits of the interface; a rich text's JSON may be 12 times its limit. */
export const TEXT_LIMITS = {
  label: 60,
  heading: 110,
  description: 320,
  cardTitle: 60,
  cardDescription: 220,
  imageAlt: 255,
  iconKey: 80,
} as const;
export const RICH_TEXT_FACTOR = 12;

// ── Safe URL ────────────────────────────────────────────────────────────────────────────────

/** The platform's one link check (docs/decisions.md, "Local links"), under the name content's tests know. */
export const isSafeUrl = isSafeLink;

export const safeUrl = z
  .string()
  .refine(isSafeUrl, { message: 'must be an http(s) URL or a path starting with /' })
  .meta({
    id: 'ContentSafeUrl',
    description: 'An `http://` or `https://` URL, or a site path starting with `/`.',
  });

// ── Rich text ───────────────────────────────────────────────────────────────────────────────

const linkMark = z
  .object({
    type: z.literal('link'),
    attrs: z
      .object({
        href: safeUrl,
        target: z.enum(['_blank', '_self']).nullable().optional(),
        rel: z.string().max(100).nullable().optional(),
      })
      .strict(),
  })
  .strict();
const styleMark = z.object({ type: z.enum(['bold', 'italic', 'underline', 'strike', 'code']) }).strict();

export const richTextNode = z
  .object({
    type: z.literal('text'),
    text: z.string().min(1, 'a text node holds at least one character'),
    marks: z
      .array(z.union([styleMark, linkMark]))
      .max(10)
      .optional(),
  })
  .strict()
  .meta({ id: 'ContentRichTextNode' });

export const richTextParagraph = z
  .object({
    type: z.literal('paragraph'),
    attrs: z
      .object({ textAlign: z.enum(['left', 'center', 'right', 'justify']).nullable().optional() })
      .strict()
      .optional(),
    content: z.array(richTextNode).optional(),
  })
  .strict()
  .meta({ id: 'ContentRichTextParagraph' });

const richTextDoc = z
  .object({
    type: z.literal('doc'),
    content: z.array(richTextParagraph).min(1, 'a rich text holds at least one paragraph'),
  })
  .strict();

/** The plain text of a rich text, for length and blank checks. */
export const richTextPlain = (doc: z.output<typeof richTextDoc>) =>
  doc.content.map((p) => (p.content ?? []).map((n) => n.text).join('')).join('\n');

/** A rich text whose serialised JSON is at most 12 × `limit` characters and holds some text. */
export const richText = (limit: number) =>
  richTextDoc
    .refine((doc) => JSON.stringify(doc).length <= limit * RICH_TEXT_FACTOR, {
      message: `is too long: its JSON may hold at most ${limit * RICH_TEXT_FACTOR} characters (${limit} × ${RICH_TEXT_FACTOR})`,
    })
    .refine((doc) => richTextPlain(doc).trim().length > 0, { message: 'holds no text' })
    .meta({
      description: `Rich text: \`{ type: "doc", content: [paragraph…] }\`; its JSON is at most ${limit * RICH_TEXT_FACTOR} characters.`,
    });

const label = () => richText(TEXT_LIMITS.label);
const heading = () => richText(TEXT_LIMITS.heading);
const description = () => richText(TEXT_LIMITS.description);

// ── Image, CTA ──────────────────────────────────────────────────────────────────────────────

export const image = z
  .object({ src: safeUrl, alt: z.string().max(TEXT_LIMITS.imageAlt) })
  .strict()
  .meta({ id: 'ContentImage' });

export const cta = z
  .object({ label: richText(TEXT_LIMITS.label), href: safeUrl })
  .strict()
  .meta({ id: 'ContentCta' });

const images = <K extends string>(keys: readonly K[]) =>
  z
    .object(
      Object.fromEntries(keys.map((k) => [k, image.optional()])) as Record<K, z.ZodOptional<typeof image>>,
    )
    .strict();

const plain = (max: number) => z.string().trim().min(1, 'must not be blank').max(max);

// ── Section payloads ────────────────────────────────────────────────────────────────────────

const named = <T extends z.ZodType>(schema: T, id: string, description: string) =>
  schema.meta({ id, description });

export const heroPayload = named(
  z
    .object({
      label: label(),
      heading: heading(),
      description: description(),
      images: images(['main', 'top', 'bottom'] as const).optional(),
      cta: cta.optional(),
    })
    .strict(),
  'ContentHeroPayload',
  'Section `hero` (home, about, product pages).',
);

export const headingBlockPayload = named(
  z.object({ heading: heading(), label: label().optional(), description: description().optional() }).strict(),
  'ContentHeadingBlockPayload',
  'Sections `top_picks` and `categories` (home).',
);

export const heritagePayload = named(
  z
    .object({
      label: label(),
      heading: heading(),
      description: description(),
      quote: description(),
      images: images(['main', 'collageTop', 'collageBottom', 'logo'] as const).optional(),
    })
    .strict(),
  'ContentHeritagePayload',
  'Section `heritage` (home).',
);

export const featureCard = z
  .object({
    title: richText(TEXT_LIMITS.cardTitle),
    description: richText(TEXT_LIMITS.cardDescription),
    iconKey: plain(TEXT_LIMITS.iconKey),
  })
  .strict()
  .meta({ id: 'ContentFeatureCard' });

export const featureCardsPayload = named(
  z
    .object({
      heading: heading(),
      cards: z.array(featureCard).min(1).max(12),
      label: label().optional(),
      description: description().optional(),
    })
    .strict(),
  'ContentFeatureCardsPayload',
  'Sections `why_us` (home) and `why_choose` (about): 1 to 12 cards.',
);

export const faqIntroPayload = named(
  z.object({ label: label(), heading: heading(), description: description(), cta: cta.optional() }).strict(),
  'ContentFaqIntroPayload',
  'Section `faq_intro` (home, about, faq).',
);

export const blogsPayload = named(
  z
    .object({
      heading: heading(),
      cta: cta.optional(),
      label: label().optional(),
      description: description().optional(),
    })
    .strict(),
  'ContentBlogsPayload',
  'Section `blogs` (home, about).',
);

export const quotePayload = named(
  z.object({ text: description(), author: label().optional() }).strict(),
  'ContentQuotePayload',
  'Section `quote` (about).',
);

export const storyBlock = z
  .object({
    label: label(),
    heading: heading(),
    description: description(),
    image,
    overlayLines: z.array(heading()).max(6).optional(),
    reverse: z.boolean().optional(),
  })
  .strict()
  .meta({ id: 'ContentStoryBlock' });

export const storyBlocksPayload = named(
  z.object({ blocks: z.array(storyBlock).min(1).max(10) }).strict(),
  'ContentStoryBlocksPayload',
  'Section `story_blocks` (about): 1 to 10 blocks.',
);

export const listingHeaderPayload = named(
  z
    .object({
      heading: heading(),
      label: label().optional(),
      description: description().optional(),
      cta: cta.optional(),
    })
    .strict(),
  'ContentListingHeaderPayload',
  'Sections `products_header` and `blogs_header` (product pages).',
);

export const brandBlockPayload = named(
  z.object({ heading: heading(), tagline: description(), legalLabel: label().optional() }).strict(),
  'ContentBrandBlockPayload',
  'Section `brand_block` (global footer).',
);

export const link = z.object({ label: label(), href: safeUrl }).strict().meta({ id: 'ContentLink' });

export const linkListPayload = named(
  z.object({ title: label(), items: z.array(link).min(1).max(20) }).strict(),
  'ContentLinkListPayload',
  'Sections `quick_links`, `collections_links` and `support_links` (global footer): 1 to 20 links.',
);

export const featuredCollectionsCardsPayload = named(
  z.object({ items: z.array(link).min(1).max(12), title: heading().optional() }).strict(),
  'ContentFeaturedCollectionsCardsPayload',
  'Section `featured_collections_cards` (global footer): 1 to 12 cards.',
);

export const copyrightPayload = named(
  z.object({ text: description() }).strict(),
  'ContentCopyrightPayload',
  'Section `copyright` (global footer).',
);

export const documentPart = z
  .object({
    id: z
      .string()
      .max(80)
      .regex(
        /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
        'must be kebab-case: lowercase letters, digits and single hyphens',
      ),
    title: plain(255),
    paragraphs: z.array(plain(5000)).min(1).max(20),
    bullets: z.array(plain(1000)).min(1).max(40).optional(),
  })
  .strict()
  .meta({ id: 'ContentDocumentPart' });

export const documentPayload = named(
  z
    .object({
      eyebrow: plain(60),
      title: plain(255),
      summary: plain(1000),
      lastUpdated: plain(60),
      sections: z.array(documentPart).min(1).max(50),
    })
    .strict(),
  'ContentDocumentPayload',
  'Section `document` (privacy policy, terms of service): 1 to 50 parts.',
);

/** The payload schema of every section key (link lists share one, as docs/decisions.md "Link lists" says). */
export const SECTION_PAYLOADS: Record<SectionKey, z.ZodType> = {
  hero: heroPayload,
  top_picks: headingBlockPayload,
  categories: headingBlockPayload,
  heritage: heritagePayload,
  why_us: featureCardsPayload,
  why_choose: featureCardsPayload,
  faq_intro: faqIntroPayload,
  blogs: blogsPayload,
  quote: quotePayload,
  story_blocks: storyBlocksPayload,
  products_header: listingHeaderPayload,
  blogs_header: listingHeaderPayload,
  brand_block: brandBlockPayload,
  quick_links: linkListPayload,
  collections_links: linkListPayload,
  support_links: linkListPayload,
  featured_collections_cards: featuredCollectionsCardsPayload,
  copyright: copyrightPayload,
  document: documentPayload,
};

export interface PayloadIssue {
  /** Where in the payload, as a client writes it: `payload.items[2].href`. */
  path: string;
  message: string;
}

/** `payload.items[2].href` from zod's `['items', 2, 'href']`. */
export function payloadPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, part) => (typeof part === 'number' ? `${out}[${part}]` : `${out}.${String(part)}`),
    'payload',
  );
}

/** Checks a section's payload; returns the cleaned payload or every problem with its path. */
export function parseSectionPayload(
  sectionKey: SectionKey,
  payload: unknown,
): { ok: true; payload: Record<string, unknown> } | { ok: false; issues: PayloadIssue[] } {
  const result = SECTION_PAYLOADS[sectionKey].safeParse(payload);
  if (result.success) return { ok: true, payload: result.data as Record<string, unknown> };
  return {
    ok: false,
    issues: result.error.issues.map((issue) => ({
      path: payloadPath(issue.path),
      message: issue.message,
    })),
  };
}
