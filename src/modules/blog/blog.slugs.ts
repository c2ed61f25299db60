// Post slugs: made from the title, unique against the slugs posts have now and had before.

/** How many numeric suffixes (`-2` … `-N`) are tried before the timestamp fallback. */
export const MAX_SLUG_SUFFIX = 50;

/**
 * The first of `base`, `base-2`, … `base-50` that is not in `taken`; when all are taken,
 * `base-<milliseconds of now>` (then `-<ms>-2`, … should even that be taken).
 */
export function uniqueSlug(base: string, taken: ReadonlySet<string>, now: Date): string {
  if (!taken.has(base)) return base;
  for (let n = 2; n <= MAX_SLUG_SUFFIX; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
  const stamped = `${base}-${now.getTime()}`;
  if (!taken.has(stamped)) return stamped;
  for (let n = 2; ; n++) {
    const candidate = `${stamped}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** `base`, `base-<n>` and `base-<n>-<n>` as a regular expression, to find the slugs a new one must avoid. */
export const slugFamilyPattern = (base: string) => `^${base.replace(/[^a-z0-9-]/g, '')}(-[0-9]+){0,2}$`;
