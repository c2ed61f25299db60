// EMI (instalments): the store's EMI setting and partner banks, kept by the back office and
// read (cached) by the app, and the inquiries shoppers send about buying a product on
// instalments. The POS module submits an inquiry for a walk-in customer with `submitEmiInquiry`.
import type { PasalModule } from '../../platform/module';
import { emiBankPermissions, emiConfigPermissions, emiInquiryPermissions } from './emi.permissions';
import { adminEmiRoutes, publicEmiRoutes } from './emi.routes';
import type { EmiDeps } from './emi.service';

export { emiErrors } from './emi.errors';
export {
  type EmiInquiryBody,
  type EmiInquiryView,
  emiInquiryBody,
  emiInquiryView,
} from './emi.schemas';
export { type EmiDeps, submitEmiInquiry } from './emi.service';

export const emiModule: PasalModule = {
  name: 'emi',
  tags: {
    emi: 'Instalment (EMI) plans offered by banks, and inquiries about them.',
    'emi (admin)': 'EMI settings, banks and inquiries in the back office.',
  },
  permissions: [emiConfigPermissions, emiBankPermissions, emiInquiryPermissions].map((p) => ({
    module: p.module,
    codes: p.codes,
  })),
  register(ctx) {
    // A module context is what the EMI services take (EmiDeps picks from it).
    const deps: EmiDeps = ctx;
    adminEmiRoutes(ctx.app, deps);
    publicEmiRoutes(ctx.app, deps);
  },
};
