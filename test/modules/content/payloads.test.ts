// The section payload schemas, table-driven: every section key's valid and invalid payloads,
// the building blocks (safe URL, rich text and its length rule, image, CTA), list bounds, the
// allowed sections per page, and the detail paths a client sees.
import { describe, expect, it } from 'vitest';
import {
  ALLOWED_SECTIONS,
  isSafeUrl,
  PAGE_KEYS,
  parseSectionPayload,
  payloadPath,
  RICH_TEXT_FACTOR,
  richText,
  SECTION_KEYS,
  SECTION_PAYLOADS,
  type SectionKey,
} from '../../../src/modules/content/content.payloads';
import { INVALID_PAYLOADS, rt, VALID_PAYLOADS } from './fixtures';

const paths = (key: SectionKey, payload: unknown) => {
  const result = parseSectionPayload(key, payload);
  return result.ok ? [] : result.issues.map((i) => i.path);
};

describe('section payload schemas', () => {
  it.each(SECTION_KEYS.map((k) => [k]))('%s accepts its valid payload unchanged', (key) => {
    const result = parseSectionPayload(key, VALID_PAYLOADS[key]);
    expect(result).toEqual({ ok: true, payload: VALID_PAYLOADS[key] });
  });

  it.each(SECTION_KEYS.map((k) => [k]))('%s refuses an invalid payload and names the path', (key) => {
    const { payload, path } = INVALID_PAYLOADS[key];
    expect(paths(key, payload)).toContain(path);
  });

  it.each(SECTION_KEYS.map((k) => [k]))('%s refuses a non-object payload and an unknown field', (key) => {
    for (const bad of [null, 'text', 42, []]) expect(parseSectionPayload(key, bad).ok).toBe(false);
    const extra = parseSectionPayload(key, { ...VALID_PAYLOADS[key], surprise: 1 });
    expect(extra.ok).toBe(false);
    if (!extra.ok) expect(extra.issues[0]?.message).toContain('surprise');
  });

  it('link lists share the quick_links schema (docs/decisions.md "Link lists")', () => {
    expect(SECTION_PAYLOADS.collections_links).toBe(SECTION_PAYLOADS.quick_links);
    expect(SECTION_PAYLOADS.support_links).toBe(SECTION_PAYLOADS.quick_links);
  });

  it.each([
    ['hero', { heading: rt('h'), description: rt('d') }, 'payload.label'],
    ['hero', { ...VALID_PAYLOADS.hero, images: { side: { src: '/a.webp', alt: '' } } }, 'payload.images'],
    ['hero', { ...VALID_PAYLOADS.hero, images: { main: { src: '/a.webp' } } }, 'payload.images.main.alt'],
    [
      'hero',
      { ...VALID_PAYLOADS.hero, images: { main: { src: '/a', alt: 'x'.repeat(256) } } },
      'payload.images.main.alt',
    ],
    ['heritage', { label: rt('l'), heading: rt('h'), description: rt('d') }, 'payload.quote'],
    [
      'why_us',
      { heading: rt('h'), cards: [{ title: rt('t'), description: rt('d') }] },
      'payload.cards[0].iconKey',
    ],
    [
      'why_us',
      { heading: rt('h'), cards: [{ title: rt('t'), description: rt('d'), iconKey: 'x'.repeat(81) }] },
      'payload.cards[0].iconKey',
    ],
    [
      'why_us',
      { heading: rt('h'), cards: [{ title: rt('t'.repeat(700)), description: rt('d'), iconKey: 'i' }] },
      'payload.cards[0].title',
    ],
    ['faq_intro', { label: rt('l'), heading: rt('h') }, 'payload.description'],
    ['story_blocks', { blocks: [] }, 'payload.blocks'],
    [
      'story_blocks',
      { blocks: Array.from({ length: 11 }, () => (VALID_PAYLOADS.story_blocks.blocks as object[])[0]) },
      'payload.blocks',
    ],
    [
      'story_blocks',
      { blocks: [{ ...(VALID_PAYLOADS.story_blocks.blocks as object[])[0], reverse: 'yes' }] },
      'payload.blocks[0].reverse',
    ],
    [
      'story_blocks',
      { blocks: [{ label: rt('l'), heading: rt('h'), description: rt('d') }] },
      'payload.blocks[0].image',
    ],
    ['quick_links', { title: rt('t'), items: [] }, 'payload.items'],
    ['quick_links', { items: [{ label: rt('a'), href: '/a' }] }, 'payload.title'],
    ['featured_collections_cards', { items: [] }, 'payload.items'],
    ['document', { ...VALID_PAYLOADS.document, sections: [] }, 'payload.sections'],
    ['document', { ...VALID_PAYLOADS.document, title: '  ' }, 'payload.title'],
    [
      'document',
      { ...VALID_PAYLOADS.document, sections: [{ id: 'a', title: 't', paragraphs: [] }] },
      'payload.sections[0].paragraphs',
    ],
    [
      'document',
      { ...VALID_PAYLOADS.document, sections: [{ id: 'a', title: 't', paragraphs: Array(21).fill('p') }] },
      'payload.sections[0].paragraphs',
    ],
    [
      'document',
      { ...VALID_PAYLOADS.document, sections: [{ id: 'a', title: 't', paragraphs: ['p'], bullets: [] }] },
      'payload.sections[0].bullets',
    ],
    [
      'document',
      {
        ...VALID_PAYLOADS.document,
        sections: [{ id: 'a', title: 't', paragraphs: ['p'], bullets: Array(41).fill('b') }],
      },
      'payload.sections[0].bullets',
    ],
    [
      'document',
      {
        ...VALID_PAYLOADS.document,
        sections: Array.from({ length: 51 }, (_, i) => ({ id: `s-${i}`, title: 't', paragraphs: ['p'] })),
      },
      'payload.sections',
    ],
    [
      'document',
      { ...VALID_PAYLOADS.document, sections: [{ id: 'a', title: 't', paragraphs: [7] }] },
      'payload.sections[0].paragraphs[0]',
    ],
  ] as Array<[SectionKey, unknown, string]>)('%s: refuses %j at %s', (key, payload, path) => {
    expect(paths(key, payload)).toContain(path);
  });

  it('accepts the bounds themselves: 12 cards, 10 blocks, 6 overlay lines, 20 and 12 links, 50/20/40', () => {
    const card = { title: rt('t'), description: rt('d'), iconKey: 'star' };
    expect(parseSectionPayload('why_us', { heading: rt('h'), cards: Array(12).fill(card) }).ok).toBe(true);
    const block = {
      ...(VALID_PAYLOADS.story_blocks.blocks as object[])[0],
      overlayLines: Array(6).fill(rt('l')),
    };
    expect(parseSectionPayload('story_blocks', { blocks: Array(10).fill(block) }).ok).toBe(true);
    const link = { label: rt('a'), href: '/a' };
    expect(parseSectionPayload('support_links', { title: rt('t'), items: Array(20).fill(link) }).ok).toBe(
      true,
    );
    expect(parseSectionPayload('featured_collections_cards', { items: Array(12).fill(link) }).ok).toBe(true);
    const part = (i: number) => ({
      id: `part-${i}`,
      title: 'Part',
      paragraphs: Array(20).fill('p'),
      bullets: Array(40).fill('b'),
    });
    const doc = { ...VALID_PAYLOADS.document, sections: Array.from({ length: 50 }, (_, i) => part(i)) };
    expect(parseSectionPayload('document', doc).ok).toBe(true);
  });
});

describe('rich text', () => {
  const heading = richText(110);
  const text = (s: string) => ({
    type: 'doc',
    content: [{ type: 'paragraph', content: [{ type: 'text', text: s }] }],
  });

  it.each([
    ['one paragraph', rt('Hello')],
    [
      'several paragraphs and an empty one',
      { type: 'doc', content: [...rt('a', 'b').content, { type: 'paragraph' }] },
    ],
    [
      'marks and a safe link',
      {
        type: 'doc',
        content: [
          {
            type: 'paragraph',
            attrs: { textAlign: 'center' },
            content: [
              { type: 'text', text: 'Bold', marks: [{ type: 'bold' }, { type: 'italic' }] },
              {
                type: 'text',
                text: ' link',
                marks: [{ type: 'link', attrs: { href: 'https://example.com', target: '_blank' } }],
              },
            ],
          },
        ],
      },
    ],
  ])('accepts %s', (_name, value) => {
    expect(heading.safeParse(value).success).toBe(true);
  });

  it.each([
    ['a string', 'Hello'],
    ['another type', { type: 'html', content: rt('a').content }],
    ['no content', { type: 'doc' }],
    ['empty content', { type: 'doc', content: [] }],
    [
      'a heading node',
      { type: 'doc', content: [{ type: 'heading', content: [{ type: 'text', text: 'a' }] }] },
    ],
    [
      'an image node inside a paragraph',
      { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'image', attrs: { src: '/a' } }] }] },
    ],
    ['an empty text node', text('')],
    ['only blanks', text('   ')],
    [
      'a javascript: link',
      {
        type: 'doc',
        content: [
          {
            type: 'paragraph',
            content: [
              { type: 'text', text: 'x', marks: [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }] },
            ],
          },
        ],
      },
    ],
    [
      'an unknown mark',
      {
        type: 'doc',
        content: [{ type: 'paragraph', content: [{ type: 'text', text: 'x', marks: [{ type: 'script' }] }] }],
      },
    ],
    [
      'an unknown attribute',
      { type: 'doc', content: [{ type: 'paragraph', attrs: { onclick: 'x' }, content: [] }] },
    ],
  ])('refuses %s', (_name, value) => {
    expect(heading.safeParse(value).success).toBe(false);
  });

  it(`limits the serialised JSON to ${RICH_TEXT_FACTOR} × the field limit`, () => {
    const overhead = JSON.stringify(text('')).length;
    const limit = 110 * RICH_TEXT_FACTOR;
    expect(JSON.stringify(text('x'.repeat(limit - overhead))).length).toBe(limit);
    expect(heading.safeParse(text('x'.repeat(limit - overhead))).success).toBe(true);
    const over = heading.safeParse(text('x'.repeat(limit - overhead + 1)));
    expect(over.success).toBe(false);
    expect(over.error?.issues[0]?.message).toContain(String(limit));
  });

  it.each([
    ['label', 'hero', 'label', 60],
    ['heading', 'hero', 'heading', 110],
    ['description', 'hero', 'description', 320],
  ] as const)('the %s limit applies to %s.%s', (_n, key, field, limit) => {
    const overhead = JSON.stringify(text('')).length;
    const fits = { ...VALID_PAYLOADS[key], [field]: text('y'.repeat(limit * RICH_TEXT_FACTOR - overhead)) };
    const over = {
      ...VALID_PAYLOADS[key],
      [field]: text('y'.repeat(limit * RICH_TEXT_FACTOR - overhead + 1)),
    };
    expect(parseSectionPayload(key, fits).ok).toBe(true);
    expect(paths(key, over)).toEqual([`payload.${field}`]);
  });

  it('applies the card limits to card titles (60) and descriptions (220)', () => {
    const overhead = JSON.stringify(text('')).length;
    const card = (title: number, description: number) => ({
      heading: rt('h'),
      cards: [
        {
          title: text('t'.repeat(title - overhead)),
          description: text('d'.repeat(description - overhead)),
          iconKey: 'i',
        },
      ],
    });
    expect(parseSectionPayload('why_us', card(60 * 12, 220 * 12)).ok).toBe(true);
    expect(paths('why_us', card(60 * 12 + 1, 220 * 12))).toEqual(['payload.cards[0].title']);
    expect(paths('why_us', card(60 * 12, 220 * 12 + 1))).toEqual(['payload.cards[0].description']);
  });
});

describe('safe URL', () => {
  it.each([
    'http://example.com',
    'https://example.com/a?b=c#d',
    'HTTPS://EXAMPLE.COM',
    '/',
    '/products/thangka?x=1',
    '/files/public/a.webp',
  ])('accepts %s', (url) => expect(isSafeUrl(url)).toBe(true));

  it.each([
    '',
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'data:text/html;base64,PHNjcmlwdD4=',
    'ftp://files.example.com',
    'mailto:a@example.com',
    'products/relative',
    '//evil.example.com',
    '/\\evil.example.com',
    'https://',
    'http:/example.com',
    '/path with space',
    '/line\nbreak',
  ])('refuses %j', (url) => expect(isSafeUrl(url)).toBe(false));

  it('refuses a URL longer than 2048 characters', () => {
    expect(isSafeUrl(`/${'a'.repeat(2047)}`)).toBe(true);
    expect(isSafeUrl(`/${'a'.repeat(2048)}`)).toBe(false);
  });
});

describe('pages and paths', () => {
  it('allows exactly the interface table per page', () => {
    expect(Object.keys(ALLOWED_SECTIONS).sort()).toEqual([...PAGE_KEYS].sort());
    expect(ALLOWED_SECTIONS.home).toEqual([
      'hero',
      'top_picks',
      'categories',
      'heritage',
      'why_us',
      'faq_intro',
      'blogs',
    ]);
    expect(ALLOWED_SECTIONS.about).toEqual([
      'hero',
      'quote',
      'why_choose',
      'story_blocks',
      'faq_intro',
      'blogs',
    ]);
    expect(ALLOWED_SECTIONS.faq).toEqual(['faq_intro']);
    expect(ALLOWED_SECTIONS.privacy_policy).toEqual(['document']);
    expect(ALLOWED_SECTIONS.terms_of_service).toEqual(['document']);
    for (const key of [
      'products_thangkas',
      'products_singing_bowls',
      'products_statues',
      'products_jewellery',
    ] as const) {
      expect(ALLOWED_SECTIONS[key]).toEqual(['hero', 'products_header', 'blogs_header']);
    }
    expect(ALLOWED_SECTIONS.global_footer).toEqual([
      'brand_block',
      'quick_links',
      'collections_links',
      'support_links',
      'featured_collections_cards',
      'copyright',
    ]);
    // Every section key is allowed somewhere.
    expect(new Set(Object.values(ALLOWED_SECTIONS).flat())).toEqual(new Set(SECTION_KEYS));
  });

  it.each([
    [[], 'payload'],
    [['items', 2, 'href'], 'payload.items[2].href'],
    [['sections', 0, 'paragraphs', 3], 'payload.sections[0].paragraphs[3]'],
  ] as Array<[PropertyKey[], string]>)('writes %j as %s', (path, expected) => {
    expect(payloadPath(path)).toBe(expected);
  });
});
