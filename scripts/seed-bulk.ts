// `npm run seed:bulk -- --products 100000 [--batch 2000]`: a synthetic catalog for benchmarks
// and load tests — categories in a tree, brands, tags, and products with realistic titles and
// descriptions, mostly published. Inserted in batches (one `unnest` insert per batch), with a
// progress bar and rate on a terminal and plain progress lines otherwise. Runs on PGlite
// (DATA_DIR) or on DATABASE_URL; running it again adds more products.
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { inArray } from 'drizzle-orm';
import { loadConfig, loadEnvFile } from '../src/config';
import {
  type BulkProduct,
  countProducts,
  insertProductBatch,
  vacuumCatalog,
} from '../src/modules/catalog/products/products.service';
import { brands, categories, tags } from '../src/modules/catalog/taxonomy/taxonomy.table';
import type { Db } from '../src/platform/db/database';

const ROOTS: Record<string, string[]> = {
  Thangkas: ['Mandala thangkas', 'Buddha thangkas', 'Wheel of life'],
  'Singing bowls': ['Hand-hammered bowls', 'Machine-made bowls', 'Bowl sets'],
  Statues: ['Buddha statues', 'Tara statues', 'Ganesh statues'],
  Jewellery: ['Rings', 'Necklaces', 'Earrings'],
  Laptops: ['Ultrabooks', 'Gaming laptops', 'Business laptops'],
  Software: ['Antivirus', 'Office suites', 'Design tools'],
  Textiles: ['Pashmina shawls', 'Yak wool blankets', 'Prayer flags'],
  Incense: ['Rope incense', 'Stick incense', 'Incense burners'],
};
const BRANDS = [
  'Patan Metalworks',
  'Bhaktapur Crafts',
  'Kathmandu Thangka House',
  'Himalayan Bronze',
  'Newari Silver',
  'Lenovo',
  'Dell',
  'Asus',
  'HP',
  'Acer',
  'Everest Wool',
  'Lumbini Arts',
  'Pokhara Handmade',
  'Janakpur Mithila',
  'Boudha Studio',
  'Mustang Traders',
];
const TAGS = [
  'Handmade',
  'Bestseller',
  'New arrival',
  'Gift idea',
  'Meditation',
  'Antique finish',
  'Limited edition',
  'Eco friendly',
  'Sale',
  'Premium',
  'Fair trade',
  'Made in Nepal',
];
const ADJECTIVES = [
  'Antique',
  'Hand-hammered',
  'Gilded',
  'Carved',
  'Tibetan',
  'Newari',
  'Traditional',
  'Modern',
  'Large',
  'Small',
  'Premium',
  'Classic',
  'Vintage',
  'Painted',
  'Polished',
  'Oxidised',
  'Embroidered',
  'Hand-woven',
  'Lightweight',
];
const MATERIALS = [
  'brass',
  'bronze',
  'copper',
  'silver',
  'gold-plated',
  'wooden',
  'cotton',
  'yak wool',
  'pashmina',
  'turquoise',
  'coral',
  'aluminium',
  'carbon',
  'stone',
  'clay',
  'seven-metal',
];
const NOUNS: Record<string, string[]> = {
  Thangkas: ['thangka', 'mandala painting', 'scroll painting'],
  'Singing bowls': ['singing bowl', 'meditation bowl', 'healing bowl'],
  Statues: ['Buddha statue', 'Tara statue', 'Ganesh figurine', 'Manjushri statue'],
  Jewellery: ['ring', 'pendant', 'necklace', 'bracelet', 'earrings'],
  Laptops: ['laptop', 'notebook', 'ultrabook'],
  Software: ['antivirus licence', 'office licence', 'design suite licence'],
  Textiles: ['shawl', 'blanket', 'scarf', 'prayer flag set'],
  Incense: ['incense pack', 'incense burner', 'rope incense bundle'],
};
const PHRASES = [
  'Made by artisans of the Kathmandu valley.',
  'Each piece is unique and may vary slightly.',
  'Ships in protective packaging.',
  'Ideal for meditation and sound healing.',
  'Comes with a certificate of authenticity.',
  'A thoughtful gift for family and friends.',
  'Finished by hand with natural pigments.',
  'Backed by a one-year warranty.',
];

/** A small deterministic generator, so two runs with the same size build the same catalog. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

interface Taxonomy {
  /** Leaf category ids by root name. */
  leaves: Map<string, number[]>;
  brandIds: number[];
  tagIds: number[];
}

/** The bulk catalog's categories, brands and tags, created once (slugs start with `bulk-`). */
async function ensureTaxonomy(db: Db): Promise<Taxonomy> {
  const leaves = new Map<string, number[]>();
  let position = 0;
  for (const [root, children] of Object.entries(ROOTS)) {
    const rootSlug = `bulk-${slugOf(root)}`;
    await db
      .insert(categories)
      .values({ name: root, slug: rootSlug, position: position++ })
      .onConflictDoNothing();
    const [rootRow] = await db
      .select()
      .from(categories)
      .where(inArray(categories.slug, [rootSlug]));
    const childSlugs = children.map((c) => `bulk-${slugOf(c)}`);
    await db
      .insert(categories)
      .values(children.map((name, i) => ({ name, slug: childSlugs[i]!, parentId: rootRow!.id, position: i })))
      .onConflictDoNothing();
    const rows = await db
      .select({ id: categories.id })
      .from(categories)
      .where(inArray(categories.slug, childSlugs));
    leaves.set(root, [rootRow!.id, ...rows.map((r) => r.id)]);
  }
  const brandSlugs = BRANDS.map((b) => `bulk-${slugOf(b)}`);
  await db
    .insert(brands)
    .values(BRANDS.map((name, i) => ({ name, slug: brandSlugs[i]! })))
    .onConflictDoNothing();
  const tagSlugs = TAGS.map((t) => `bulk-${slugOf(t)}`);
  await db
    .insert(tags)
    .values(TAGS.map((name, i) => ({ name, slug: tagSlugs[i]! })))
    .onConflictDoNothing();
  const brandIds = (
    await db.select({ id: brands.id }).from(brands).where(inArray(brands.slug, brandSlugs))
  ).map((r) => r.id);
  const tagIds = (await db.select({ id: tags.id }).from(tags).where(inArray(tags.slug, tagSlugs))).map(
    (r) => r.id,
  );
  return { leaves, brandIds, tagIds };
}

/** Product number `n` of the synthetic catalog. */
function syntheticProduct(n: number, taxonomy: Taxonomy, next: () => number): BulkProduct {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const root = pick(Object.keys(ROOTS));
  const title = `${pick(ADJECTIVES)} ${pick(MATERIALS)} ${pick(NOUNS[root]!)} ${n}`;
  const mrp = Math.round((500 + next() * (root === 'Laptops' ? 300_000 : 60_000)) / 10) * 10;
  const discounted = next() < 0.4;
  const tagCount = Math.floor(next() * 3);
  const tagIds = [...new Set(Array.from({ length: tagCount }, () => pick(taxonomy.tagIds)))];
  const statusRoll = next();
  return {
    title: title[0]!.toUpperCase() + title.slice(1),
    slug: `${slugOf(title)}`,
    description: `${title}. ${pick(PHRASES)} ${pick(PHRASES)}`,
    productKind: root === 'Software' ? 'digital' : 'physical',
    status: statusRoll < 0.9 ? 'published' : statusRoll < 0.97 ? 'draft' : 'archived',
    isSellable: next() < 0.97,
    mrp,
    sp: discounted ? Math.round((mrp * (0.7 + next() * 0.25)) / 10) * 10 : 0,
    categoryId: pick(taxonomy.leaves.get(root)!),
    brandId: next() < 0.8 ? pick(taxonomy.brandIds) : null,
    tagIds,
  };
}

interface Progress {
  update(done: number): void;
  finish(done: number): void;
}

/** A bar with rate and ETA on a terminal; a line every 10 % otherwise (logs, CI). */
function progress(total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  const started = Date.now();
  let lastTenth = -1;
  const rate = (done: number) => done / Math.max((Date.now() - started) / 1000, 0.001);
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  return {
    update(done) {
      const r = rate(done);
      if (stream.isTTY) {
        const width = 30;
        const filled = Math.round((done / total) * width);
        const eta = r > 0 ? (total - done) / r : 0;
        stream.write(
          `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${((done / total) * 100).toFixed(0).padStart(3)}% ` +
            `${fmt(done)}/${fmt(total)} products, ${fmt(r)}/s, ETA ${eta.toFixed(0)} s   `,
        );
        return;
      }
      const tenth = Math.floor((done / total) * 10);
      if (tenth > lastTenth) {
        lastTenth = tenth;
        stream.write(`seed:bulk ${fmt(done)}/${fmt(total)} products (${tenth * 10} %), ${fmt(r)}/s\n`);
      }
    },
    finish(done) {
      if (stream.isTTY) stream.write('\n');
      stream.write(
        `seed:bulk inserted ${fmt(done)} products in ${((Date.now() - started) / 1000).toFixed(1)} s (${fmt(rate(done))}/s)\n`,
      );
    },
  };
}

export interface BulkSeedOptions {
  products: number;
  batchSize?: number;
  /** Quiet for tests. */
  progress?: boolean;
}

/** Adds `products` synthetic products to the catalog; returns how many were inserted. */
export async function seedBulk(db: Db, opts: BulkSeedOptions): Promise<number> {
  const batchSize = opts.batchSize ?? 2000;
  const taxonomy = await ensureTaxonomy(db);
  const start = (await countProducts(db)) + 1;
  const next = random(start);
  const bar = opts.progress === false ? undefined : progress(opts.products);
  let inserted = 0;
  for (let offset = 0; offset < opts.products; offset += batchSize) {
    const size = Math.min(batchSize, opts.products - offset);
    const batch = Array.from({ length: size }, (_, i) =>
      syntheticProduct(start + offset + i, taxonomy, next),
    );
    inserted += await insertProductBatch(db, batch);
    bar?.update(offset + size);
  }
  await vacuumCatalog(db);
  bar?.finish(inserted);
  return inserted;
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { products: { type: 'string', default: '100000' }, batch: { type: 'string', default: '2000' } },
    strict: true,
  });
  const count = Number(values.products);
  const batchSize = Number(values.batch);
  if (!Number.isInteger(count) || count < 1) throw new Error('--products must be a positive whole number');
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 20_000) {
    throw new Error('--batch must be a whole number from 1 to 20000');
  }
  loadEnvFile('.env');
  const config = loadConfig();
  const { openDatabase } = await import('../src/platform/db/database');
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    poolSize: 2,
    dataDir: config.DATA_DIR,
  });
  try {
    await database.migrate();
    process.stderr.write(
      `seed:bulk adding ${count.toLocaleString('en-US')} products to ${database.driver === 'pglite' ? `PGlite at ${config.DATA_DIR}` : 'PostgreSQL'} …\n`,
    );
    await seedBulk(database.db, { products: count, batchSize });
    return 0;
  } finally {
    await database.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
