// Valid section payloads for every section key, and a small rich-text builder, shared by the
// content tests.
import type { SectionKey } from '../../../src/modules/content';

/** A one-paragraph rich text. */
export const rt = (...paragraphs: string[]) => ({
  type: 'doc',
  content: paragraphs.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
});

const img = (name: string, alt = name) => ({ src: `/files/public/content/${name}.webp`, alt });
const cta = (label: string, href: string) => ({ label: rt(label), href });

const links = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ label: rt(`${prefix} ${i + 1}`), href: `/${prefix}/${i + 1}` }));

/** One valid payload per section key: the full form (every optional field) for most. */
export const VALID_PAYLOADS: Record<SectionKey, Record<string, unknown>> = {
  hero: {
    label: rt('Handmade in Nepal'),
    heading: rt('Thangkas, singing bowls and statues from the valley'),
    description: rt('Every piece is made by artisans in Patan, Bhaktapur and Kathmandu.'),
    images: { main: img('hero-main'), top: img('hero-top'), bottom: img('hero-bottom') },
    cta: cta('Shop now', '/products'),
  },
  top_picks: { heading: rt('Top picks'), label: rt('Bestsellers'), description: rt('What others bought') },
  categories: { heading: rt('Shop by category') },
  heritage: {
    label: rt('Our heritage'),
    heading: rt('Crafts of the Kathmandu valley'),
    description: rt('Newari metal casting and thangka painting go back centuries.'),
    quote: rt('A bowl sings when it is made with patience.'),
    images: {
      main: img('h-main'),
      collageTop: img('h-top'),
      collageBottom: img('h-bottom'),
      logo: img('logo'),
    },
  },
  why_us: {
    heading: rt('Why shop with us'),
    label: rt('Promise'),
    description: rt('Fair prices, fair pay'),
    cards: [
      { title: rt('Authentic'), description: rt('Certified by the maker'), iconKey: 'badge-check' },
      { title: rt('Insured shipping'), description: rt('Across all 77 districts'), iconKey: 'truck' },
    ],
  },
  faq_intro: {
    label: rt('Questions'),
    heading: rt('Frequently asked'),
    description: rt('Shipping, returns and care'),
    cta: cta('Read the FAQ', '/faq'),
  },
  blogs: { heading: rt('From the journal'), cta: cta('All stories', '/blogs'), label: rt('Journal') },
  quote: { text: rt('Patience is the first tool of a craftsman.'), author: rt('Ratna Shakya') },
  why_choose: {
    heading: rt('Why choose us'),
    cards: [{ title: rt('Since 1998'), description: rt('A family workshop'), iconKey: 'home' }],
  },
  story_blocks: {
    blocks: [
      {
        label: rt('Chapter one'),
        heading: rt('The workshop'),
        description: rt('Where the bowls are hammered'),
        image: img('workshop'),
        overlayLines: [rt('Patan'), rt('1998')],
        reverse: true,
      },
      {
        label: rt('Chapter two'),
        heading: rt('The painters'),
        description: rt('Mineral pigments and gold'),
        image: img('painters', ''),
      },
    ],
  },
  products_header: {
    heading: rt('Thangka paintings'),
    label: rt('Collection'),
    description: rt('Hand painted'),
    cta: cta('See all', '/categories/thangka-paintings'),
  },
  blogs_header: { heading: rt('Stories about thangkas') },
  brand_block: { heading: rt('Pasal'), tagline: rt('Crafts of Nepal'), legalLabel: rt('Pasal Pvt. Ltd.') },
  quick_links: { title: rt('Shop'), items: links('shop', 3) },
  collections_links: { title: rt('Collections'), items: links('collections', 2) },
  support_links: {
    title: rt('Help'),
    items: [{ label: rt('Contact'), href: 'https://help.example.com/contact' }],
  },
  featured_collections_cards: { title: rt('Featured'), items: links('featured', 2) },
  copyright: { text: rt('© 2026 Pasal') },
  document: {
    eyebrow: 'Legal',
    title: 'Privacy policy',
    summary: 'How we handle your data.',
    lastUpdated: '2026-11-01',
    sections: [
      {
        id: 'data-we-collect',
        title: 'Data we collect',
        paragraphs: ['Your name, email and address.'],
        bullets: ['Name', 'Email'],
      },
      { id: 'contact', title: 'Contact', paragraphs: ['Write to privacy@example.com.'] },
    ],
  },
};

/** One page that allows each section key. */
export const PAGE_OF: Record<SectionKey, string> = {
  hero: 'home',
  top_picks: 'home',
  categories: 'home',
  heritage: 'home',
  why_us: 'home',
  faq_intro: 'faq',
  blogs: 'about',
  quote: 'about',
  why_choose: 'about',
  story_blocks: 'about',
  products_header: 'products_thangkas',
  blogs_header: 'products_singing_bowls',
  brand_block: 'global_footer',
  quick_links: 'global_footer',
  collections_links: 'global_footer',
  support_links: 'global_footer',
  featured_collections_cards: 'global_footer',
  copyright: 'global_footer',
  document: 'privacy_policy',
};

/** For every section key: an invalid payload and the detail path it must name. */
export const INVALID_PAYLOADS: Record<SectionKey, { payload: Record<string, unknown>; path: string }> = {
  hero: {
    payload: { ...VALID_PAYLOADS.hero, cta: { label: rt('Go'), href: 'javascript:alert(1)' } },
    path: 'payload.cta.href',
  },
  top_picks: { payload: { label: rt('No heading') }, path: 'payload.heading' },
  categories: { payload: { heading: 'plain string, not rich text' }, path: 'payload.heading' },
  heritage: {
    payload: {
      ...VALID_PAYLOADS.heritage,
      images: { main: { src: 'data:image/png;base64,AAAA', alt: 'x' } },
    },
    path: 'payload.images.main.src',
  },
  why_us: { payload: { heading: rt('Why'), cards: [] }, path: 'payload.cards' },
  faq_intro: {
    payload: { ...VALID_PAYLOADS.faq_intro, description: rt('x'.repeat(4000)) },
    path: 'payload.description',
  },
  blogs: { payload: { heading: rt('Blog'), cta: { label: rt('Go'), href: '' } }, path: 'payload.cta.href' },
  quote: { payload: { author: rt('Someone') }, path: 'payload.text' },
  why_choose: {
    payload: {
      heading: rt('Why'),
      cards: Array.from({ length: 13 }, () => ({ title: rt('t'), description: rt('d'), iconKey: 'star' })),
    },
    path: 'payload.cards',
  },
  story_blocks: {
    payload: {
      blocks: [
        {
          ...(VALID_PAYLOADS.story_blocks.blocks as object[])[0],
          overlayLines: Array.from({ length: 7 }, () => rt('line')),
        },
      ],
    },
    path: 'payload.blocks[0].overlayLines',
  },
  products_header: {
    payload: { heading: rt('Header'), label: { type: 'doc', content: [] } },
    path: 'payload.label.content',
  },
  blogs_header: { payload: { heading: rt('H'), extra: true }, path: 'payload' },
  brand_block: { payload: { heading: rt('Pasal') }, path: 'payload.tagline' },
  quick_links: {
    payload: {
      title: rt('Shop'),
      items: [...links('shop', 2), { label: rt('Bad'), href: 'ftp://files.example.com' }],
    },
    path: 'payload.items[2].href',
  },
  collections_links: { payload: { title: rt('C'), items: links('c', 21) }, path: 'payload.items' },
  support_links: {
    payload: { title: rt('Help'), items: [{ label: rt('Contact'), href: 'javascript:void(0)' }] },
    path: 'payload.items[0].href',
  },
  featured_collections_cards: { payload: { items: links('f', 13) }, path: 'payload.items' },
  copyright: { payload: { text: rt('   ') }, path: 'payload.text' },
  document: {
    payload: {
      ...(VALID_PAYLOADS.document as object),
      sections: [{ id: 'Not Kebab', title: 'T', paragraphs: ['p'] }],
    },
    path: 'payload.sections[0].id',
  },
};
