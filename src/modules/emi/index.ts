// EMI (instalments): the store's EMI setting and partner banks, kept by the back office and
// read (cached) by the app, and the inquiries shoppers send about buying a product on
// instalments. The POS module submits an inquiry for a walk-in customer with `submitEmiInquiry`.
import type { PasalModule } from '../../platform/module';
import { emiBankPermissions, emiConfigPermissions, emiInquiryPermissions } from './emi.permissions';
import { adminEmiRoutes, publicEmiRoutes } from './emi.routes';

export {
  type EmiInquiryBody,
  type EmiInquiryView,
  emiInquiryBody,
  emiInquiryView,
} from './emi.schemas';
export { type EmiDeps, submitEmiInquiry } from './emi.service';

export const emiModule: PasalModule = {
  name: 'emi',
  permissions: [emiConfigPermissions, emiBankPermissions, emiInquiryPermissions].map((p) => ({
    module: p.module,
    codes: p.codes,
  })),
  register(ctx) {
    const deps = { db: ctx.db, clock: ctx.clock, cache: ctx.cache, config: ctx.config, storage: ctx.storage };
    adminEmiRoutes(ctx.app, deps);
    publicEmiRoutes(ctx.app, deps);
  },
};
