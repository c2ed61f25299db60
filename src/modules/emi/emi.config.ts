// EMI's settings: the public read cache. src/config.ts composes them with the others.
import { int, setting } from '../../platform/settings';

export const emiSettings = {
  EMI_PUBLIC_CACHE_TTL_SECONDS: setting({
    doc: 'The public EMI config and bank list (`/api/mobile/emi/config`, `/api/mobile/emi/banks`) are kept this long in the cache (0: off). Every admin change of the config or a bank clears them.',
    schema: int(0, 86_400),
    default: '300',
  }),
};
