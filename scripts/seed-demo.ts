// `npm run seed:demo`: a small, realistic store to try the API at once — handicrafts, laptops
// and software licences with stock and keys, a care package, shipping fees, a superadmin and a
// customer. Everything goes through the modules' service functions, so the store's rules hold
// (and the activity trail shows the demo admin's writes). It fills an empty catalog only.
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { count, eq } from 'drizzle-orm';
import pino from 'pino';
import { loadConfig, loadEnvFile } from '../src/config';
import * as bannerSchemas from '../src/modules/banners/banners/banners.schemas';
import { createBanner } from '../src/modules/banners/banners/banners.service';
import type { BannerDeps } from '../src/modules/banners/banners.service';
import * as campaignSchemas from '../src/modules/banners/campaigns/campaigns.schemas';
import {
  createAssignment,
  createCampaign,
  createLink,
  moveCampaign,
} from '../src/modules/banners/campaigns/campaigns.service';
import * as placementSchemas from '../src/modules/banners/placements/placements.schemas';
import { createPlacement } from '../src/modules/banners/placements/placements.service';
import { createBlogCategory, createBlogPost } from '../src/modules/blog';
import { createPostBody } from '../src/modules/blog/posts/posts.schemas';
import { createCouponBody } from '../src/modules/cart/coupons/coupons.schemas';
import { createCoupon } from '../src/modules/cart/coupons/coupons.service';
import { createCarePackageBody } from '../src/modules/catalog/care-packages/care-packages.schemas';
import { createCarePackage } from '../src/modules/catalog/care-packages/care-packages.service';
import { addDigitalKeys } from '../src/modules/catalog/digital-keys/digital-keys.service';
import { createProductBody } from '../src/modules/catalog/products/products.schemas';
import { createProduct, type ProductDeps } from '../src/modules/catalog/products/products.service';
import { products } from '../src/modules/catalog/products/products.table';
import {
  findShippingDistrict,
  updateShippingDistrict,
} from '../src/modules/catalog/shipping-districts/shipping-districts.service';
import { adjustStock } from '../src/modules/catalog/stock/stock.service';
import {
  createBrandBody,
  createCategoryBody,
  createTagBody,
} from '../src/modules/catalog/taxonomy/taxonomy.schemas';
import { createBrand, createCategory, createTag } from '../src/modules/catalog/taxonomy/taxonomy.service';
import { createAdmin, createCustomerAccount, SUPERADMIN_ROLE } from '../src/modules/identity';
import { users } from '../src/modules/identity/identity.table';
import type { UserPrincipal } from '../src/platform/auth/principal';
import { createMemoryCache } from '../src/platform/cache/memory-cache';
import { createMemoryQueue } from '../src/platform/jobs/memory-queue';
import { seedDemoContent } from './seed-demo-content';
import { seedDemoEmiRepairs } from './seed-demo-emi-repairs';
import { seedDemoInvoices } from './seed-demo-invoices';
import { type DemoOrderProducts, seedDemoOrders } from './seed-demo-orders';
import { seedDemoPos } from './seed-demo-pos';
import { seedDemoReviews } from './seed-demo-reviews';
import { seedDemoSupport } from './seed-demo-support';

export const DEMO_ADMIN = { email: 'admin@pasal.demo', password: 'pasal-demo-admin', name: 'Demo Admin' };
export const DEMO_CUSTOMER = {
  email: 'customer@pasal.demo',
  password: 'pasal-demo-customer',
  name: 'Sita Shrestha',
};

export type SeedDeps = ProductDeps;

export interface DemoSummary {
  products: number;
  digitalKeys: number;
  districts: number;
  blogPosts: number;

  /** A coupon code customers can apply to their cart. */
  coupon: string;

  /** The banner placement that serves at once: GET /api/banners/serve/<slug>. */
  bannerPlacement: string;
  /** Approved reviews and visible testimonials (`seedDemoReviews`). */
  reviews: { reviews: number; testimonials: number };
  /** What the demo orders buy (`seedDemoOrders`). */
  orderProducts: DemoOrderProducts;
  admin: typeof DEMO_ADMIN;
  customer: typeof DEMO_CUSTOMER;
}

export class DemoSeedRefused extends Error {
  override name = 'DemoSeedRefused';
}

interface DemoProduct {
  title: string;
  category: string;
  brand?: string;
  tags?: string[];
  mrp: number;
  sp?: number;
  description: string;
  specifications?: Array<{ key: string; value: string }>;
  stock?: number;
  keys?: number;
}

const CATEGORIES = ['Thangka Paintings', 'Singing Bowls', 'Statues', 'Jewellery', 'Laptops', 'Software'];
const BRANDS = [
  'Bhaktapur Artisans',
  'Himalayan Sound',
  'Patan Metalcraft',
  'Dell',
  'Lenovo',
  'Apple',
  'Microsoft',
  'Kaspersky',
];
const TAGS = ['Handmade', 'Gift', 'Meditation', 'Bestseller', 'Work from home'];

const PHYSICAL: DemoProduct[] = [
  {
    title: 'Medicine Buddha Thangka',
    category: 'Thangka Paintings',
    brand: 'Bhaktapur Artisans',
    tags: ['Handmade', 'Bestseller'],
    mrp: 45_000,
    sp: 39_999,
    description: '<p>Hand-painted on cotton canvas with mineral pigments and 24K gold detailing.</p>',
    specifications: [
      { key: 'Size', value: '60 × 45 cm' },
      { key: 'Material', value: 'Cotton canvas, mineral pigments' },
    ],
    stock: 4,
  },
  {
    title: 'Green Tara Thangka',
    category: 'Thangka Paintings',
    brand: 'Bhaktapur Artisans',
    tags: ['Handmade', 'Gift'],
    mrp: 32_000,
    description: '<p>Green Tara, the mother of liberation, painted by a master of the Newari school.</p>',
    stock: 3,
  },
  {
    title: 'Kalachakra Mandala Thangka',
    category: 'Thangka Paintings',
    brand: 'Bhaktapur Artisans',
    tags: ['Handmade'],
    mrp: 68_000,
    description: '<p>A detailed Kalachakra mandala with gold leaf, framed in brocade silk.</p>',
    stock: 2,
  },
  {
    title: 'Seven Metal Singing Bowl, 15 cm',
    category: 'Singing Bowls',
    brand: 'Himalayan Sound',
    tags: ['Handmade', 'Meditation', 'Bestseller'],
    mrp: 8_500,
    sp: 7_500,
    description: '<p>Hand-hammered from seven metals; comes with a wooden striker and a silk cushion.</p>',
    specifications: [{ key: 'Diameter', value: '15 cm' }],
    stock: 25,
  },
  {
    title: 'Full Moon Singing Bowl, 25 cm',
    category: 'Singing Bowls',
    brand: 'Himalayan Sound',
    tags: ['Handmade', 'Meditation'],
    mrp: 22_000,
    description: '<p>Made on the full moon night by tradition; a deep, long-lasting tone.</p>',
    stock: 8,
  },
  {
    title: 'Copper Buddha Statue, 30 cm',
    category: 'Statues',
    brand: 'Patan Metalcraft',
    tags: ['Handmade', 'Gift'],
    mrp: 35_000,
    sp: 32_500,
    description: '<p>Lost-wax cast in Patan, gilded face, hand-finished.</p>',
    stock: 6,
  },
  {
    title: 'Ganesh Brass Statue, 20 cm',
    category: 'Statues',
    brand: 'Patan Metalcraft',
    tags: ['Gift'],
    mrp: 12_000,
    description: '<p>Brass Ganesh, the remover of obstacles, for home or office.</p>',
    stock: 10,
  },
  {
    title: 'Silver Om Pendant',
    category: 'Jewellery',
    tags: ['Handmade', 'Gift'],
    mrp: 3_500,
    description: '<p>Sterling silver pendant with a hand-engraved Om, chain included.</p>',
    stock: 40,
  },
  {
    title: 'Turquoise and Coral Necklace',
    category: 'Jewellery',
    tags: ['Handmade'],
    mrp: 9_800,
    sp: 8_900,
    description: '<p>Tibetan-style necklace of turquoise and coral beads on silver.</p>',
    stock: 12,
  },
  {
    title: 'Dell Inspiron 15 (Core i5, 16 GB, 512 GB SSD)',
    category: 'Laptops',
    brand: 'Dell',
    tags: ['Work from home'],
    mrp: 115_000,
    sp: 108_000,
    description: '<p>15.6" full HD, Intel Core i5, 16 GB RAM, 512 GB SSD, Windows 11.</p>',
    specifications: [
      { key: 'Processor', value: 'Intel Core i5-1335U' },
      { key: 'Memory', value: '16 GB' },
      { key: 'Storage', value: '512 GB SSD' },
    ],
    stock: 7,
  },
  {
    title: 'Lenovo ThinkPad E14 Gen 5',
    category: 'Laptops',
    brand: 'Lenovo',
    tags: ['Work from home', 'Bestseller'],
    mrp: 135_000,
    description: '<p>14" business laptop with a spill-resistant keyboard, AMD Ryzen 7, 16 GB RAM.</p>',
    stock: 5,
  },
  {
    title: 'Apple MacBook Air 13-inch (M3, 8 GB, 256 GB)',
    category: 'Laptops',
    brand: 'Apple',
    mrp: 185_000,
    sp: 179_000,
    description: '<p>Apple M3 chip, 13.6" Liquid Retina display, up to 18 hours of battery.</p>',
    stock: 3,
  },
];

const DIGITAL: DemoProduct[] = [
  {
    title: 'Microsoft Office Home 2024 (licence key)',
    category: 'Software',
    brand: 'Microsoft',
    tags: ['Work from home'],
    mrp: 22_000,
    sp: 19_999,
    description: '<p>Word, Excel, PowerPoint and OneNote for one PC or Mac. The key arrives by email.</p>',
    keys: 10,
  },
  {
    title: 'Kaspersky Standard, 1 device, 1 year',
    category: 'Software',
    brand: 'Kaspersky',
    mrp: 2_500,
    description:
      '<p>Antivirus and online protection for one device for a year. The key arrives by email.</p>',
    keys: 15,
  },
];

const DISTRICT_FEES: Array<[string, number]> = [
  ['Kathmandu', 100],
  ['Lalitpur', 100],
  ['Bhaktapur', 120],
  ['Kaski', 200],
  ['Chitwan', 180],
  ['Morang', 250],
  ['Rupandehi', 220],
];

/** What the demo orders buy, in `seedDemoOrders`' order. */
const ORDERED_PHYSICAL = [
  'Seven Metal Singing Bowl, 15 cm',
  'Ganesh Brass Statue, 20 cm',
  'Silver Om Pendant',
  'Lenovo ThinkPad E14 Gen 5',
  'Green Tara Thangka',
];
const ORDERED_DIGITAL = 'Kaspersky Standard, 1 device, 1 year';

export const DEMO_COUPON = 'DASHAIN10';

/** A coupon to try the cart with: 10% off orders from NPR 1,000, at most NPR 5,000. */
async function seedDemoCoupon(deps: SeedDeps, actor: UserPrincipal): Promise<string> {
  const coupon = await createCoupon(
    deps,
    actor,
    createCouponBody.parse({
      code: DEMO_COUPON,
      discountType: 'percent',
      value: 10,
      minOrderTotal: 1_000,
      maxDiscount: 5_000,
      perCustomerLimit: 1,
    }),
  );
  return coupon.code;
}

/** A licence key that looks like one and cannot be mistaken for a real one. */
const demoKey = () =>
  `DEMO-${Array.from({ length: 4 }, () => randomBytes(3).toString('hex').toUpperCase().slice(0, 5)).join('-')}`;

export async function seedDemoStore(deps: SeedDeps): Promise<DemoSummary> {
  const { db } = deps;
  if (deps.config.NODE_ENV === 'production') {
    throw new DemoSeedRefused('seed:demo does not run in production: its accounts have published passwords.');
  }
  const [existing] = await db.select({ n: count() }).from(products);
  if (existing && existing.n > 0) {
    const [demo] = await db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_ADMIN.email));
    throw new DemoSeedRefused(
      demo
        ? 'The demo store is already seeded; nothing was changed. Start from an empty database to seed it again.'
        : `The catalog already has ${existing.n} product(s); seed:demo fills an empty store only. Nothing was changed.`,
    );
  }

  const adminUser = await createAdmin({ db, ...DEMO_ADMIN, role: SUPERADMIN_ROLE });
  await createCustomerAccount({ db, ...DEMO_CUSTOMER, emailVerified: true });
  const actor: UserPrincipal = {
    actor: 'admin',
    userId: adminUser.id,
    sessionId: 'seed-demo',
    role: SUPERADMIN_ROLE,
    permissions: new Set(),
  };

  const categoryIds = new Map<string, number>();
  for (const [position, name] of CATEGORIES.entries()) {
    const category = await createCategory(deps, actor, createCategoryBody.parse({ name, position }));
    categoryIds.set(name, category.id);
  }
  const brandIds = new Map<string, number>();
  for (const name of BRANDS)
    brandIds.set(name, (await createBrand(deps, actor, createBrandBody.parse({ name }))).id);
  const tagIds = new Map<string, number>();
  for (const name of TAGS) tagIds.set(name, (await createTag(deps, actor, createTagBody.parse({ name }))).id);

  const create = (p: DemoProduct, productKind: 'physical' | 'digital' | 'care_package', extra = {}) =>
    createProduct(
      deps,
      actor,
      createProductBody.parse({
        title: p.title,
        productKind,
        mrp: p.mrp,
        sp: p.sp ?? 0,
        description: p.description,
        categoryId: categoryIds.get(p.category),
        brandId: p.brand ? brandIds.get(p.brand) : undefined,
        tagIds: (p.tags ?? []).map((t) => tagIds.get(t)!),
        specifications: p.specifications ?? [],
        status: 'published',
        ...extra,
      }),
    );

  let productCount = 0;
  const idOf = new Map<string, number>();
  for (const p of PHYSICAL) {
    const product = await create(p, 'physical');
    idOf.set(p.title, product.id);
    if (p.stock) await adjustStock(deps, actor, product.id, { onHand: p.stock, reason: 'Opening stock' });
    productCount += 1;
  }
  let keyCount = 0;
  for (const p of DIGITAL) {
    const product = await create(p, 'digital');
    idOf.set(p.title, product.id);
    const keys = Array.from({ length: p.keys ?? 0 }, demoKey);
    keyCount += (await addDigitalKeys(deps, actor, product.id, { keys })).added;
    productCount += 1;
  }

  const care = await createCarePackage(
    deps,
    actor,
    createCarePackageBody.parse({
      name: 'Laptop Care',
      description: 'Repairs, parts and a loan laptop while yours is in the workshop.',
      rules: { categoryIds: [categoryIds.get('Laptops')!], minPrice: 50_000 },
      tiers: [
        { label: '1 year', durationMonths: 12, price: 4_999 },
        { label: '2 years', durationMonths: 24, price: 8_999 },
      ],
    }),
  );
  // The same cover, sold on its own to a customer who bought the laptop elsewhere.
  await create(
    {
      title: 'Laptop Care, 1 year',
      category: 'Laptops',
      mrp: 5_499,
      description: '<p>One year of Laptop Care for a laptop bought elsewhere.</p>',
    },
    'care_package',
    { carePackageTierId: care.tiers[0]!.id },
  );
  productCount += 1;

  for (const [name, shippingFee] of DISTRICT_FEES) {
    const district = await findShippingDistrict(db, { name });
    if (district) await updateShippingDistrict(deps, actor, district.id, { shippingFee, isActive: true });
  }
  await seedDemoContent(deps, actor);

  const blogPosts = await seedDemoBlog(deps, actor);

  const coupon = await seedDemoCoupon(deps, actor);

  const bannerPlacement = await seedDemoBanners(deps, actor);

  const reviews = await seedDemoReviews(deps, actor);

  return {
    products: productCount,
    digitalKeys: keyCount,
    districts: DISTRICT_FEES.length,
    blogPosts,

    coupon,

    bannerPlacement,
    reviews,
    orderProducts: {
      physical: ORDERED_PHYSICAL.map((title) => idOf.get(title)!),
      digital: idOf.get(ORDERED_DIGITAL)!,
    },
    admin: DEMO_ADMIN,
    customer: DEMO_CUSTOMER,
  };
}

/** Two published blog posts; the first has FAQs, a call-to-action and links a demo product. */
async function seedDemoBlog(deps: SeedDeps, actor: UserPrincipal): Promise<number> {
  const [bowl] = await deps.db
    .select({ id: products.id })
    .from(products)
    .where(eq(products.title, 'Seven Metal Singing Bowl, 15 cm'));
  const guides = await createBlogCategory(deps, actor, {
    name: 'Guides',
    description: 'Caring for what you bought',
  });
  const culture = await createBlogCategory(deps, actor, {
    name: 'Culture',
    description: 'The crafts behind the shop',
  });
  await createBlogPost(
    deps,
    actor,
    createPostBody.parse({
      title: 'How to Care for Your Singing Bowl',
      excerpt: 'Cleaning, storing and playing a hand-hammered bowl so it sings for decades.',
      heroIntro: 'A singing bowl needs little care, but the right care.',
      body: '<p>Wipe the bowl with a soft, dry cloth after playing. Keep it away from damp corners, and play it often: the metal likes to be used.</p>',
      displayDate: '2026-01-15',
      categoryId: guides.id,
      status: 'published',
      productIds: bowl ? [bowl.id] : [],
      faqs: [
        {
          question: 'Can I wash a singing bowl with water?',
          answer: 'Rarely, and dry it at once; a soft cloth is enough.',
        },
        {
          question: 'Why does my bowl sound dull?',
          answer: 'Try a softer striker and a slower, steady circle.',
        },
      ],
      cta: {
        ctaTitle: 'Find your bowl',
        ctaButtonLabel: 'Shop singing bowls',
        ctaButtonLink: '/products?search=singing',
      },
    }),
  );
  await createBlogPost(
    deps,
    actor,
    createPostBody.parse({
      title: 'The Story Behind Thangka Painting',
      excerpt: 'Mineral pigments, gold leaf and months of patient work in a Bhaktapur studio.',
      body: '<p>A thangka starts as cotton canvas stretched on a frame and primed with chalk and glue. The drawing follows a strict grid; colours come from ground minerals.</p>',
      displayDate: '2026-02-01',
      categoryId: culture.id,
      status: 'published',
    }),
  );
  return 2;
}

export const DEMO_BANNER_PLACEMENT = 'home-hero';

/**
 * The home page slider: a placement with a running campaign and three banners (plus a fallback),
 * so GET /api/banners/serve/home-hero answers with banners at once.
 */
async function seedDemoBanners(deps: SeedDeps, actor: UserPrincipal): Promise<string> {
  const bannerDeps: BannerDeps = {
    db: deps.db,
    clock: deps.clock,
    config: deps.config,
    cache: deps.cache ?? createMemoryCache({ maxEntries: 100, clock: deps.clock }),
    log: pino({ level: 'silent' }),
    jobs: createMemoryQueue({ concurrency: 1 }), // admin writes queue nothing
  };
  const placement = await createPlacement(
    bannerDeps,
    actor,
    placementSchemas.createPlacementBody.parse({
      slug: DEMO_BANNER_PLACEMENT,
      label: 'Home page slider',
      layoutType: 'full_slider',
      pageContext: 'home',
      maxBanners: 3,
      recommendedWidth: 1920,
      recommendedHeight: 640,
      recommendedAspectRatio: '3:1',
      allowPartialRender: true,
    }),
  );
  const campaign = await createCampaign(
    bannerDeps,
    actor,
    campaignSchemas.createCampaignBody.parse({
      name: 'Festive season',
      description: 'Dashain and Tihar offers',
    }),
  );
  await moveCampaign(bannerDeps, actor, campaign.publicId, 'activate');
  await createLink(bannerDeps, actor, campaign.publicId, { placementPublicId: placement.publicId });
  const slides = [
    [
      'Thangkas from Bhaktapur',
      'Hand-painted with mineral pigments',
      '/products?categorySlug=thangka-paintings',
    ],
    ['Singing bowls', 'Seven metals, hand-hammered', '/products?search=singing%20bowl'],
    ['Laptops for work from home', 'With Laptop Care', '/products?categorySlug=laptops'],
    ['Welcome to Pasal', 'Handicrafts, laptops and software', '/'],
  ] as const;
  for (const [index, [title, subheadline, ctaUrl]] of slides.entries()) {
    const banner = await createBanner(
      bannerDeps,
      actor,
      bannerSchemas.createBannerBody.parse({
        title,
        primaryImageUrl: `/images/demo/banner-${index + 1}.webp`,
        primaryImageAlt: title,
        headline: title,
        subheadline,
        ctaLabel: 'Shop now',
        ctaUrl,
      }),
    );
    const isFallback = index === slides.length - 1;
    await createAssignment(
      bannerDeps,
      actor,
      campaign.publicId,
      placement.publicId,
      campaignSchemas.createAssignmentBody.parse({
        bannerPublicId: banner.publicId,
        displayOrder: index,
        isFallback,
        transitionDurationMs: 5000,
      }),
    );
  }
  return placement.slug;
}

async function main(): Promise<number> {
  loadEnvFile('.env');
  const config = loadConfig();
  const { createPlatform } = await import('../src/platform/platform');
  const platform = await createPlatform({
    ...config,
    LOG_LEVEL: 'warn',
    // The demo shows Nepal tax invoices unless the operator said otherwise; a demo seller PAN
    // stands in when none is configured.
    ...(process.env.TAX_INVOICES_ENABLED === undefined
      ? { TAX_INVOICES_ENABLED: true, SELLER_PAN: config.SELLER_PAN ?? '600000001' }
      : {}),
  });
  try {
    await platform.database.migrate();
    const summary = await seedDemoStore({
      db: platform.database.db,
      clock: platform.clock,
      storage: platform.storage,
      config: platform.config,
      cache: platform.cache,
    });
    // The orders go through the API itself, jobs included (payment verification, async commands).
    const { buildApp } = await import('../src/app');
    const app = await buildApp(platform, { role: 'all' });
    let orders: Awaited<ReturnType<typeof seedDemoOrders>>;
    let emiRepairs: Awaited<ReturnType<typeof seedDemoEmiRepairs>>;
    let taxDocuments: Awaited<ReturnType<typeof seedDemoInvoices>> | null = null;
    let support: Awaited<ReturnType<typeof seedDemoSupport>>;
    try {
      await app.ready();
      await platform.jobs.start();
      const returnUrl = platform.config.PAYMENT_RETURN_URL_ALLOWLIST[0];
      if (!returnUrl)
        throw new DemoSeedRefused(
          'PAYMENT_RETURN_URL_ALLOWLIST is empty: the demo orders need a return URL.',
        );
      orders = await seedDemoOrders(app, summary, summary.orderProducts, returnUrl);
      emiRepairs = await seedDemoEmiRepairs(app, summary);
      support = await seedDemoSupport(app, platform.database.db, summary);
      orders.push(
        ...(await seedDemoPos(app, summary, [
          summary.orderProducts.physical[0]!,
          summary.orderProducts.physical[1]!,
        ])),
      );
      if (platform.config.TAX_INVOICES_ENABLED)
        taxDocuments = await seedDemoInvoices(app, summary, summary.orderProducts.physical[2]!, returnUrl);
    } finally {
      await app.close();
    }
    process.stdout.write(
      [
        `Demo store seeded (${platform.database.driver}): ${summary.products} products, ` +
          `${summary.digitalKeys} digital keys, shipping to ${summary.districts} districts, ${summary.blogPosts} blog posts.`,
        `  Banners:    GET /api/banners/serve/${summary.bannerPlacement}`,
        `  Superadmin: ${summary.admin.email} / ${summary.admin.password}  (POST /api/auth/login/email)`,
        `  Customer:   ${summary.customer.email} / ${summary.customer.password}`,
        `  Support agent (a role limited to support): ${support.agent.email} / ${support.agent.password}`,
        `  Customer 2: ${support.secondCustomer.email} / ${support.secondCustomer.password}`,
        `  Support:    ${support.inquiries} inquiries, ${support.tickets} ticket(s), ${support.feedback} feedback  (console: /admin/support)`,
        `  Coupon:     ${summary.coupon}  (POST /api/cart/coupon)`,
        `  EMI:        ${emiRepairs.banks} banks  (GET /api/mobile/emi/banks, /api/mobile/emi/config)`,
        `  Repair:     ${emiRepairs.repairTicket ?? '-'} for the customer  (GET /api/repair-requests)`,
        `  Reviews:    ${summary.reviews.reviews} approved, ${summary.reviews.testimonials} testimonials  (GET /api/reviews/testimonials)`,
        `  Tax:        ${taxDocuments ? `invoices ${taxDocuments.invoices.join(', ')}; credit notes ${taxDocuments.creditNotes.join(', ')}  (GET /api/admin/invoices, /api/admin/credit-notes)` : 'off (TAX_INVOICES_ENABLED=false)'}`,
        '  Orders (status / payment / fulfilment), for the customer and GET /api/admin/orders:',
        ...orders.map(
          (o) =>
            `    ${o.orderNumber}  ${o.orderStatus} / ${o.paymentStatus} / ${o.fulfillmentStatus ?? '-'}`,
        ),
        '',
      ].join('\n'),
    );
    return 0;
  } catch (error) {
    if (error instanceof DemoSeedRefused) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await platform.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (code) => process.exit(code),
    (error) => {
      process.stderr.write(`seed:demo failed: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
}
