// The demo store's home page (part of `npm run seed:demo`): every home section, written through
// the content service, so the payloads pass the same checks as an admin's and the activity
// trail shows the demo admin's writes.
import pino from 'pino';
import type { SectionKey } from '../src/modules/content';
import { type ContentDeps, updatePageMeta, upsertSection } from '../src/modules/content/content.service';
import type { UserPrincipal } from '../src/platform/auth/principal';
import type { Cache } from '../src/platform/cache/cache';

/** A paragraph per argument, as the admin editor writes rich text. */
const rt = (...paragraphs: string[]) => ({
  type: 'doc',
  content: paragraphs.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
});
const image = (name: string, alt: string) => ({ src: `/files/public/demo/home/${name}.webp`, alt });

export const DEMO_HOME_TITLE = 'Pasal: Himalayan crafts and everyday tech';

/** The home sections in display order. */
export const DEMO_HOME_SECTIONS: Array<{ key: SectionKey; payload: Record<string, unknown> }> = [
  {
    key: 'hero',
    payload: {
      label: rt('Handmade in the Kathmandu valley'),
      heading: rt('Thangkas, singing bowls and statues, straight from the artisans'),
      description: rt(
        'Every piece is made by families in Patan, Bhaktapur and Kathmandu and shipped insured to all 77 districts.',
      ),
      images: {
        main: image('hero-thangka', 'A Medicine Buddha thangka being painted with mineral pigments'),
        top: image('hero-bowl', 'A seven metal singing bowl on a silk cushion'),
        bottom: image('hero-statue', 'A copper Buddha statue with a gilded face'),
      },
      cta: { label: rt('Shop the collection'), href: '/products' },
    },
  },
  {
    key: 'top_picks',
    payload: {
      label: rt('Bestsellers'),
      heading: rt('Top picks this season'),
      description: rt('The pieces our customers in Nepal and abroad chose most this Dashain and Tihar.'),
    },
  },
  {
    key: 'categories',
    payload: {
      label: rt('Browse'),
      heading: rt('Shop by category'),
      description: rt('From hand-painted thangkas to laptops with a local warranty.'),
    },
  },
  {
    key: 'heritage',
    payload: {
      label: rt('Our heritage'),
      heading: rt('Newari craft, kept alive for centuries'),
      description: rt(
        'Lost-wax casting in Patan and thangka painting in Bhaktapur are passed from parent to child. We buy directly from the workshops and pay fairly.',
      ),
      quote: rt('A bowl sings only when it is made with patience.'),
      images: {
        main: image('heritage-workshop', 'Metal casters at work in a Patan courtyard'),
        collageTop: image('heritage-brush', 'A thangka painter’s brushes and pigments'),
        collageBottom: image('heritage-bowls', 'Singing bowls cooling after hammering'),
        logo: image('heritage-seal', 'The Pasal artisan seal'),
      },
    },
  },
  {
    key: 'why_us',
    payload: {
      label: rt('Why Pasal'),
      heading: rt('Why shop with us'),
      description: rt('A store that knows both crafts and computers.'),
      cards: [
        {
          title: rt('Authentic, certified'),
          description: rt('Every thangka and statue comes with a certificate signed by its maker.'),
          iconKey: 'badge-check',
        },
        {
          title: rt('Insured delivery'),
          description: rt('Safe packing and insured shipping to all 77 districts of Nepal.'),
          iconKey: 'truck',
        },
        {
          title: rt('Pay your way'),
          description: rt('eSewa, Khalti, cards, bank transfer or cash on delivery.'),
          iconKey: 'wallet',
        },
        {
          title: rt('Local warranty'),
          description: rt('Laptops and software keys with support from our Kathmandu service centre.'),
          iconKey: 'shield',
        },
      ],
    },
  },
  {
    key: 'faq_intro',
    payload: {
      label: rt('Questions'),
      heading: rt('Frequently asked questions'),
      description: rt('Shipping times, returns, caring for a thangka and activating a licence key.'),
      cta: { label: rt('Read the FAQ'), href: '/faq' },
    },
  },
  {
    key: 'blogs',
    payload: {
      label: rt('Journal'),
      heading: rt('Stories from the workshops'),
      description: rt('How singing bowls are tuned, what the colours of a thangka mean, and more.'),
      cta: { label: rt('Read the journal'), href: '/blogs' },
    },
  },
];

/** A cache that keeps nothing, for seeding without the server's cache at hand. */
const noCache: Cache = {
  driver: 'memory',
  announcesDrops: true,
  onDrop: () => {},
  get: async () => undefined,
  getMany: async (keys) => keys.map(() => undefined),
  set: async () => {},
  delete: async () => {},
  deleteByPrefix: async () => {},
  increment: async (_key, windowMs) => ({ count: 1, ttlMs: windowMs }),
  close: async () => {},
};

/** Writes the demo home page and its sections; returns how many sections it wrote. */
export async function seedDemoContent(
  deps: Pick<ContentDeps, 'db' | 'clock' | 'config'> & Partial<Pick<ContentDeps, 'cache' | 'log'>>,
  actor: UserPrincipal,
): Promise<number> {
  const content: ContentDeps = {
    ...deps,
    cache: deps.cache ?? noCache,
    log: deps.log ?? pino({ level: 'silent' }),
  };
  await updatePageMeta(content, actor, 'home', { title: DEMO_HOME_TITLE });
  for (const [position, section] of DEMO_HOME_SECTIONS.entries()) {
    await upsertSection(content, actor, 'home', section.key, {
      payloadJson: section.payload,
      position,
      isEnabled: true,
    });
  }
  return DEMO_HOME_SECTIONS.length;
}
