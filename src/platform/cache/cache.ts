import { randomUUID } from 'node:crypto';

// Cache port: the in-process LRU by default, Redis when REDIS_URL is set (shared by every
// process). Also holds atomic counters, which business throttles (per email, per address) use.
/**
 * For public reads that every visitor shares (a content page, a placement's banners, a product
 * list): `local: true` lets a process answer from its own copy, at most `CACHE_LOCAL_TTL_MS` old,
 * without asking Redis. Every delete, and every set of such a key, is announced to the other
 * processes, which drop their copies at once; the age limit bounds what a lost announcement can
 * cost. The in-process cache is local already and ignores it.
 */
export interface LocalCopy {
  local?: boolean;
}

/** What a change dropped: one key, or every key under a prefix ('' is everything). */
export type CacheDrop = { key: string } | { prefix: string };

export interface Cache {
  readonly driver: 'memory' | 'redis';
  /**
   * Whether every process hears of every drop (`onDrop`): always for the in-process cache (there
   * is one process); with Redis only while processes keep local copies (`CACHE_LOCAL_TTL_MS` > 0),
   * since the announcements travel with those.
   */
  readonly announcesDrops: boolean;
  /**
   * Calls `listener` on this process whenever a key or prefix is dropped: by a delete, by a set of
   * a shared key (`local: true`), or by another process's announcement (after Redis comes back,
   * with prefix '', since announcements may have been lost meanwhile). For what a module keeps in
   * its own memory beside the cache and must forget on the same changes: the live-session copies
   * of the authenticator.
   */
  onDrop(listener: (drop: CacheDrop) => void): void;
  get<T>(key: string, options?: LocalCopy): Promise<T | undefined>;
  /** The values of `keys` in one round trip (undefined where there is none); no local copies. */
  getMany(keys: readonly string[]): Promise<unknown[]>;
  set<T>(key: string, value: T, ttlMs: number, options?: LocalCopy): Promise<void>;
  delete(key: string): Promise<void>;
  /** Removes every key that starts with `prefix` (e.g. all cached pages of one list). */
  deleteByPrefix(prefix: string): Promise<void>;
  /**
   * Adds one to a counter and returns its new value; the counter's window starts with its
   * first hit and lasts `windowMs`. `ttlMs` is what is left of the window.
   */
  increment(key: string, windowMs: number): Promise<{ count: number; ttlMs: number }>;
  close(): Promise<void>;
}

/**
 * Reads through the cache: `load` runs only on a miss, and its result is kept for `ttlMs`. A
 * cache that fails (Redis past `CACHE_COMMAND_TIMEOUT_MS`, or down) is a miss whose value is not
 * kept: the answer comes from `load`, never an error, since the cache only saves work.
 */
export async function cached<T>(
  cache: Cache,
  key: string,
  ttlMs: number,
  load: () => Promise<T>,
  options?: LocalCopy,
): Promise<T> {
  let hit: T | undefined;
  try {
    hit = await cache.get<T>(key, options);
  } catch {
    return load();
  }
  if (hit !== undefined) return hit;
  const value = await load();
  await cache.set(key, value, ttlMs, options).catch(() => {});
  return value;
}

/** Longer than any entry filed under a token lives, so a token outlives its entries. */
const GENERATION_TTL_MS = 86_400_000;

async function freshGenerationToken(cache: Cache, key: string): Promise<string> {
  const fresh = randomUUID();
  await cache.set(key, fresh, GENERATION_TTL_MS);
  return fresh;
}

/**
 * Reads through the cache like `cached`, for an entry that a change must clear after its commit
 * and that a read may be loading meanwhile. The entry is kept under `key` together with the
 * generation token it was loaded under (a random value under `generationKey`, made when there is
 * none); a change deletes the token after its commit, and a read fetches the token and the entry
 * in one round trip: a hit is an entry whose token is the current one. A read that loaded just
 * before the commit stores its stale copy with the dropped token, which no later read takes
 * (deleting the entry itself would not do: that copy could be written after the delete). One
 * token can stand for many entries (every page of a customer's orders), so a change clears them
 * all with one delete, without scanning the key space. The token and the entry are read
 * together because a signed-in cart read spent a tenth of its CPU on a second round trip.
 */
export async function cachedInGeneration<T>(
  cache: Cache,
  generationKey: string,
  key: string,
  ttlMs: number,
  load: () => Promise<T>,
  /** JSON by default; `asText` for a value that is text already. */
  codec: TextCodec<T> = asJson as TextCodec<T>,
): Promise<T> {
  let token: string;
  let hit: string | undefined;
  try {
    const [current, entry] = await cache.getMany([generationKey, key]);
    if (typeof current === 'string' && current) {
      token = current;
      if (typeof entry === 'string' && entry.startsWith(`${token} `)) hit = entry.slice(token.length + 1);
    } else {
      token = await freshGenerationToken(cache, generationKey);
    }
  } catch {
    return load();
  }
  if (hit !== undefined) return codec.decode(hit);
  const value = await load();
  const text = codec.encode(value);
  if (text !== undefined) await cache.set(key, `${token} ${text}`, ttlMs).catch(() => {});
  return value;
}

/** How `cachedInGeneration` keeps a value as text (undefined: not kept). */
export interface TextCodec<T> {
  encode(value: T): string | undefined;
  decode(text: string): T;
}

const asJson: TextCodec<unknown> = {
  encode: (value) => JSON.stringify(value),
  decode: (text) => JSON.parse(text),
};
/** For `cachedInGeneration` of a value that is text already (an answer serialised once). */
export const asText: TextCodec<string> = { encode: (text) => text, decode: (text) => text };
