// Content: the storefront's named pages (home, about, the legal pages, the product landing
// pages, the global footer), each made of keyed sections with validated payloads. Admins edit
// them; the storefront and the app read the enabled sections through a cache.
import type { PasalModule } from '../../platform/module';
import { contentPermissions } from './content.permissions';
import { contentRoutes } from './content.routes';

export { PAGE_KEYS, type PageKey, SECTION_KEYS, type SectionKey } from './content.payloads';

export const contentModule: PasalModule = {
  name: 'content',
  tags: {
    content: 'Editable pages of the storefront, section by section.',
  },
  permissions: [{ module: contentPermissions.module, codes: contentPermissions.codes }],
  register(ctx) {
    contentRoutes(ctx);
  },
};
