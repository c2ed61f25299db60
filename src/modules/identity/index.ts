// Identity: who is calling. Users (admins and customers), roles with their permission codes,
// sessions and the sign-in flows of both surfaces; it tells the platform whether a token's
// session is still alive, and what its holder may do.
import type { PasalModule } from '../../platform/module';
import { adminPermissionGroups } from './admin/admin.permissions';
import { adminRoutes } from './admin/admin.routes';
import {
  ANONYMIZE_CRON,
  accountMailJobs,
  anonymizeDeletedAccountsJob,
  PURGE_CODES_CRON,
  purgeSpentCodesJob,
} from './auth/auth.jobs';
import { authRoutes } from './auth/auth.routes';
import { customerPermissions } from './identity.permissions';
import { forgetPushToken } from './identity.repository';
import { createUserResolver } from './identity.service';
import { idpRoutes } from './idp/idp.routes';
import { sessionRoutes } from './sessions/sessions.routes';
import { twoFactorRoutes } from './two-factor/two-factor.routes';

export { getCustomer } from './admin/admin.service';
export { sendAdminInvitation, toProfile } from './auth/auth.service';
export * as counterCustomers from './identity.counter';
export { activeAdminIdsWithPermission, livePushTokens } from './identity.repository';
export type { SessionTokens } from './identity.service';
export {
  CUSTOMER_ROLE,
  createAdmin,
  createCustomerAccount,
  createRole,
  customerIdsMatching,
  endAllSessions,
  endSession,
  ensureBootstrapAdmin,
  findCustomerIdByEmail,
  findUserCard,
  findUserContacts,
  findUserEmail,
  findUserForOrder,
  SUPERADMIN_ROLE,
  setAccountActive,
  startSession,
  type UserCard,
  type UserContact,
} from './identity.service';

export const identityModule: PasalModule = {
  name: 'identity',
  events: { publishes: ['customer.registered'], subscribes: [] },
  tags: {
    'admin auth': 'Sign-in, token refresh, password and verification for admin accounts (`/api/auth`).',
    'customer auth':
      'Registration, sign-in, token refresh, password and verification for customers (`/api/mobile/auth`).',
    roles: 'Admin roles and the permission codes they hold.',
    'admin users': 'Admin accounts of the back office.',
    customers: 'Customer accounts, as the back office sees them.',
  },
  permissions: [...adminPermissionGroups, customerPermissions],
  async register(ctx) {
    const { db, clock, authenticator, permissionCatalog, jobs } = ctx;
    authenticator.setUserResolver(
      createUserResolver({
        db,
        clock,
        allPermissions: () => permissionCatalog.flatMap((g) => g.codes),
        staffSecondFactorRequired: ctx.config.STAFF_2FA_REQUIRED,
      }),
    );
    const anonymize = anonymizeDeletedAccountsJob({ db, clock, realtime: ctx.realtime, authenticator });
    jobs.register(anonymize);
    await jobs.schedule(anonymize, ANONYMIZE_CRON, {});
    const purgeCodes = purgeSpentCodesJob({ db, clock });
    jobs.register(purgeCodes);
    await jobs.schedule(purgeCodes, PURGE_CODES_CRON, {});
    // A device token FCM no longer knows is removed from the sessions that reported it.
    ctx.push.onRejectedToken(async (token) => {
      await forgetPushToken(db, token);
    });
    const mailJobs = accountMailJobs(ctx);
    jobs.register(mailJobs.passwordReset);
    jobs.register(mailJobs.verification);
    authRoutes(ctx, mailJobs);
    twoFactorRoutes(ctx);
    sessionRoutes(ctx);
    idpRoutes(ctx);
    adminRoutes(ctx);
  },
};
