// The blog's settings: the public read cache. src/config.ts composes them with the others.
import { int, setting } from '../../platform/settings';

export const blogSettings = {
  BLOG_PUBLIC_CACHE_TTL_SECONDS: setting({
    doc: 'Public and mobile blog reads (lists, categories, posts) are kept this long in the cache (0: off). Any admin blog write clears them.',
    schema: int(0, 86400),
    default: '300',
  }),
};
