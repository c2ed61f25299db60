// Identity: who is calling. Users (admins and customers), roles with their permission
// codes, and sessions; it tells the platform whether a token's session is still alive.
// The sign-in routes come with the identity issue; this is the part every module needs.
import type { PasalModule } from '../../platform/module';
import { createUserResolver } from './identity.service';

export type { SessionTokens } from './identity.service';
export {
  CUSTOMER_ROLE,
  createAdmin,
  createCustomerAccount,
  createRole,
  endSession,
  ensureBootstrapAdmin,
  SUPERADMIN_ROLE,
  setAccountActive,
  startSession,
} from './identity.service';

export const identityModule: PasalModule = {
  name: 'identity',
  register({ db, clock, authenticator, permissionCatalog }) {
    authenticator.setUserResolver(
      createUserResolver({ db, clock, allPermissions: () => permissionCatalog.flatMap((g) => g.codes) }),
    );
  },
};
