// The product search: a term resolved to the categories and tags it names and to the title
// trigram keys a typo may match, and the SQL of its branches. products.repository.ts builds the
// list queries (filters, sorts, the bounded relevance order) around it.
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import { containsPattern, rowsOf } from '../catalog.repository';
import { categories, tags } from '../taxonomy/taxonomy.table';
import { products, productTags } from './products.table';

/** A search term with the categories and tags whose names contain it, resolved beforehand. */
export interface ProductSearch {
  term: string;
  categoryIds: number[];
  tagIds: number[];
  /** The title similarity a typo must reach (`SEARCH_SIMILARITY_THRESHOLD`). */
  threshold: number;
  /**
   * The keys of `products_title_keys_idx` the typo branch asks for (`titleSearchKeys`); null
   * for the plain `title % term` branch (a threshold of about 0, or too many keys: a very long term).
   */
  titleKeys: string[] | null;
  /** How many trigrams the term has (`show_trgm`): the m of the similarity bound. */
  trigramCount: number;
  /**
   * Rank by similarity() of every match, in one plain statement: the shape before the bounded
   * relevance order (`rankedSearchSql`), kept as `comparePublicSearch`'s reference.
   */
  exactRanking?: boolean;
}

/**
 * How common each title trigram is: the share of titles holding it, from the
 * `products_title_trigrams` statistics (refreshed by ANALYZE; none before it has run). The
 * search asks the title keys for the rarest trigrams first; the shares steer which titles are
 * looked at, never which match, so a copy some minutes old is as good.
 */
export type TitleTrigramShares = Array<[trigram: string, share: number]>;

export async function titleTrigramShares(db: Db): Promise<TitleTrigramShares> {
  const rows = await rowsOf<{ t: string; f: number | string }>(
    db,
    sql`select e.t, e.f
          from pg_stats_ext_exprs s,
               unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) as e(t, f)
         where s.statistics_name = 'products_title_trigrams' and s.statistics_schemaname = current_schema()`,
  );
  return rows.map((r) => [r.t, Number(r.f)]);
}

/**
 * The categories and tags whose names contain the term. They are few, and knowing them as
 * plain ids lets the planner estimate the product side well (an id list computed inside the
 * query gets a blind guess that can push it off the trigram indexes). `shares` as
 * `titleTrigramShares` reads them (read here when not given).
 */
export async function resolveSearch(
  db: Db,
  term: string,
  threshold: number,
  shares?: TitleTrigramShares,
): Promise<ProductSearch> {
  const pattern = containsPattern(term);
  // One statement: the categories, the tags, and the term's trigrams as pg_trgm finds them.
  const [row] = await rowsOf<{
    categoryIds: number[] | string;
    tagIds: number[] | string;
    trigrams: string[] | string;
  }>(
    db,
    sql`select
      (select coalesce(json_agg(c.id), '[]') from ${categories} c where c.name ilike ${pattern}) as "categoryIds",
      (select coalesce(json_agg(t.id), '[]') from ${tags} t where t.name ilike ${pattern}) as "tagIds",
      to_json(show_trgm(${term})) as trigrams`,
  );
  const json = <T>(value: T | string): T => (typeof value === 'string' ? JSON.parse(value) : value);
  const shareOf = new Map(shares ?? (await titleTrigramShares(db)));
  const trigrams = json(row!.trigrams).map((trigram) => ({ trigram, share: shareOf.get(trigram) ?? 0 }));
  return {
    term,
    categoryIds: json(row!.categoryIds),
    tagIds: json(row!.tagIds),
    threshold,
    titleKeys: titleSearchKeys(trigrams, threshold),
    trigramCount: trigrams.length,
  };
}

/** Above this many keys the typo branch falls back to `title % term` (a very long term). */
const MAX_TITLE_KEYS = 4000;

/**
 * The keys of `products_title_keys_idx` that every title matching `similarity(title, term) >=
 * threshold` holds at least one of. pg_trgm's similarity is c / (n + m - c) in float4 for a
 * title of n trigrams, a term of m and c in common, so a title of n trigrams needs c >= k(n); it
 * then holds at least one of any (m - k(n) + 1) of the term's trigrams, and the rarest ones
 * (statistics first, then by the padding spaces pg_trgm adds at a word's edges: fewer first) keep the
 * candidates few. A necessary condition only: the branch still checks similarity() itself,
 * so the matches are exactly those of `title % term`.
 */
export function titleSearchKeys(
  trigrams: Array<{ trigram: string; share: number }>,
  threshold: number,
): string[] | null {
  // A hair under the threshold: float4 rounding can only add candidates, never lose a match.
  const floor = threshold - 1e-6;
  if (!(floor > 0)) return null;
  const m = trigrams.length;
  const edges = (t: string) => t.split(' ').length - 1;
  const rarest = [...trigrams]
    .sort(
      (a, b) =>
        a.share - b.share ||
        edges(a.trigram) - edges(b.trigram) ||
        (a.trigram < b.trigram ? -1 : a.trigram > b.trigram ? 1 : 0),
    )
    .map((t) => t.trigram);
  const keys: string[] = [];
  // The similarity is at most m / n, so longer titles than m / threshold cannot match.
  for (let n = 1; n <= Math.floor(m / floor) + 1; n++) {
    let need = 0;
    for (let c = 1; c <= Math.min(n, m); c++) {
      if (Math.fround(c / (n + m - c)) >= floor) {
        need = c;
        break;
      }
    }
    if (need === 0) continue;
    for (const t of rarest.slice(0, m - need + 1)) keys.push(`${t}|${n}`);
    if (keys.length > MAX_TITLE_KEYS) return null;
  }
  return keys;
}

/**
 * The search block of the commerce interface. Every branch can use an index, so PostgreSQL
 * answers it with one BitmapOr: the trigram GIN indexes serve `ILIKE` and the `%` operator on
 * title and description (`%` compares with `pg_trgm.similarity_threshold`, which the caller
 * sets for its transaction — a plain `similarity(title, q) > x` could not use the index), the
 * category index serves the matching categories and the primary key the tagged products.
 */
export function searchSql(search: ProductSearch): SQL {
  return sql`(${sql.join([...plainBranches(search), typoSql(search)], sql` or `)})`;
}

/** The branches of the search block other than the typo branch: substrings, categories, tags. */
export function plainBranches(search: ProductSearch): SQL[] {
  const pattern = containsPattern(search.term);
  const branches = [sql`${products.title} ilike ${pattern}`, sql`${products.description} ilike ${pattern}`];
  if (search.categoryIds.length) {
    branches.push(
      sql`${products.categoryId} in (${sql.join(
        search.categoryIds.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
  }
  if (search.tagIds.length) {
    branches.push(sql`${products.id} = any(array(
      select product_id from ${productTags} where tag_id in (${sql.join(
        search.tagIds.map((id) => sql`${id}`),
        sql`, `,
      )})))`);
  }
  return branches;
}

/**
 * The typo branch: titles whose trigram similarity to the term reaches the threshold. With
 * title keys, the ids come from one scan of `products_title_keys_idx` and a similarity() check
 * of its few candidates, found once (an `array(…)` the outer BitmapOr reads through the primary
 * key); without, `title % term` on the trigram index, which rechecks every title holding
 * enough of the term's trigrams (thousands at 100,000 products).
 */
function typoSql(search: ProductSearch): SQL {
  if (!search.titleKeys) return sql`${products.title} % ${search.term}`;
  return sql`${products.id} = any(array(
    select k.id from ${products} k
     where product_title_keys(k.title) && ${textArray(search.titleKeys)}::text[]
       and similarity(k.title, ${search.term}) >= ${search.threshold}::float8))`;
}

/**
 * Sets the title similarity threshold of `%` for the rest of the transaction (`true`: local
 * to it), so concurrent requests with other settings never see each other's value.
 */
export async function setSimilarityThreshold(tx: Db, threshold: number): Promise<void> {
  // No parallel workers for the search: starting them costs more than the typo branch's scan,
  // and on a busy server every request would take three processes.
  await tx.execute(sql`select set_config('pg_trgm.similarity_threshold', ${String(threshold)}, true),
    set_config('max_parallel_workers_per_gather', '0', true)`);
}

/** A PostgreSQL array literal of texts: one parameter however many rows (both drivers take it). */
export function textArray(values: string[]): string {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}
