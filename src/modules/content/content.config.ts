// Content pages' settings: the public and admin caches and the admin rate limits. src/config.ts
// composes them with the others.
import { int, setting } from '../../platform/settings';

export const contentSettings = {
  CONTENT_PAGE_PUBLIC_CACHE_TTL_SECONDS: setting({
    doc: 'Public and mobile content page reads are kept this long in the cache (0: off). Every content write clears its page.',
    schema: int(0, 86_400),
    default: '300',
  }),
  CONTENT_PAGE_ADMIN_CACHE_TTL_SECONDS: setting({
    doc: 'Admin content page reads are kept this long in the cache (0: off). Every content write clears its page.',
    schema: int(0, 86_400),
    default: '120',
  }),
  CONTENT_ADMIN_READ_RATE_LIMIT: setting({
    doc: 'Admin content page reads allowed per admin user per `CONTENT_ADMIN_RATE_WINDOW_SECONDS`.',
    schema: int(1),
    default: '30',
  }),
  CONTENT_ADMIN_WRITE_RATE_LIMIT: setting({
    doc: 'Admin content writes (meta, section upsert, section delete, together) allowed per admin user per `CONTENT_ADMIN_RATE_WINDOW_SECONDS`.',
    schema: int(1),
    default: '10',
  }),
  CONTENT_ADMIN_RATE_WINDOW_SECONDS: setting({
    doc: 'Window of the content admin rate limits, in seconds.',
    schema: int(1),
    default: '60',
  }),
};
