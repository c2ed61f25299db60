// Sign-in routes. The admin surface (`/api/auth`) and the customer surface
// (`/api/mobile/auth`) share handlers; each route says which actor it is for.
import { z } from 'zod';
import { access } from '../../../platform/auth/access';
import { currentUser } from '../../../platform/http/access-hook';
import { envelopeSchema, ok } from '../../../platform/http/envelope';
import { httpErrors } from '../../../platform/http/errors';
import type { ModuleContext } from '../../../platform/module';
import type { Actor } from '../../../platform/security/jwt';
import { identityErrors } from '../identity.errors';
import { permissionsOfRole } from '../identity.repository';
import { SUPERADMIN_ROLE } from '../identity.service';
import { twoFactorErrors } from '../two-factor/two-factor.errors';
import * as twoFactorSchemas from '../two-factor/two-factor.schemas';
import { authErrors } from './auth.errors';
import * as s from './auth.schemas';
import * as auth from './auth.service';
import {
  assertSameOrigin,
  clearRefreshCookie,
  deliverRefreshToken,
  refreshCookieErrors,
  refreshTokenFromCookie,
} from './refresh-cookie';

const nullEnvelope = envelopeSchema(z.null());

export function authRoutes(ctx: ModuleContext, mailJobs: auth.AccountMailJobs) {
  const { app } = ctx;
  const deps: auth.AuthDeps = ctx;
  const allPermissions = () => ctx.permissionCatalog.flatMap((g) => g.codes);
  const refreshTtlDays = ctx.config.JWT_REFRESH_TTL_DAYS;

  /** The routes both surfaces have, under `prefix`, for `actor`. */
  const sharedRoutes = (prefix: string, actor: Actor) => {
    const tags = [actor === 'admin' ? 'admin auth' : 'customer auth'];
    const signedInAccess = actor === 'admin' ? access.admin() : access.customer();

    app.post(
      `${prefix}/login/email`,
      {
        config: {
          access: access.public(),
          operation: 'loginWithEmail',
          errors: [authErrors.invalidCredentials(), authErrors.emailNotVerified(), httpErrors.rateLimited(1)],
        },
        schema: {
          tags,
          summary: 'Email and password login',
          // docs/decisions.md, "Device info": customers must describe their device, admins may.
          body: actor === 'admin' ? s.adminLoginBody : s.customerLoginBody,
          // docs/decisions.md, "Sign-in with a second factor": an admin with 2FA gets a challenge.
          response: {
            200: envelopeSchema(
              actor === 'admin' ? z.union([s.signedIn, twoFactorSchemas.challenge]) : s.signedIn,
            ),
          },
        },
      },
      async (request, reply) => {
        const result = await auth.loginWithPassword(deps, { actor, ...request.body, ip: request.ip });
        if ('twoFactorRequired' in result) return ok(result, 'Enter the code from your authenticator app');
        const message = result.restored ? 'Welcome back: your account was restored' : 'Signed in';
        const tokens =
          actor === 'admin'
            ? deliverRefreshToken(request, reply, result.tokens, refreshTtlDays)
            : result.tokens;
        return ok({ user: result.user, tokens }, message);
      },
    );

    app.post(
      `${prefix}/refresh`,
      {
        config: {
          access: access.public(),
          operation: 'refreshTokens',
          errors: [
            authErrors.refreshTokenInvalid(),
            authErrors.refreshTokenReused(),
            ...(actor === 'admin' ? [refreshCookieErrors.originRefused()] : []),
          ],
        },
        schema: {
          tags,
          summary: 'Rotate the refresh token and issue a new access token',
          // The admin surface also takes the console's refresh cookie instead of a body token.
          body: actor === 'admin' ? s.adminRefreshBody : s.refreshBody,
          response: { 200: envelopeSchema(s.signedIn) },
        },
      },
      async (request, reply) => {
        let refreshToken = request.body.refreshToken;
        const byCookie = !refreshToken && actor === 'admin';
        if (byCookie) {
          refreshToken = refreshTokenFromCookie(request);
          if (!refreshToken) throw authErrors.refreshTokenInvalid();
          assertSameOrigin(request);
        }
        try {
          const result = await auth.refresh(deps, { actor, refreshToken: refreshToken! });
          const tokens =
            actor === 'admin'
              ? deliverRefreshToken(request, reply, result.tokens, refreshTtlDays)
              : result.tokens;
          return ok({ ...result, tokens }, 'Tokens refreshed');
        } catch (error) {
          // A cookie the server refused is dead: the browser need not keep sending it.
          if (byCookie) clearRefreshCookie(reply);
          throw error;
        }
      },
    );

    app.post(
      `${prefix}/password/forgot`,
      {
        config: { access: access.public(), operation: 'forgotPassword', errors: [httpErrors.rateLimited(1)] },
        schema: {
          tags,
          summary: 'Email a reset code and link',
          body: s.emailBody,
          response: { 200: nullEnvelope },
        },
      },
      async (request) => {
        await auth.forgotPassword(ctx, mailJobs, { actor, email: request.body.email, ip: request.ip });
        return ok(null, 'If an account exists for this email, a reset email is on its way');
      },
    );

    app.post(
      `${prefix}/password/reset`,
      {
        config: {
          access: access.public(),
          operation: 'resetPassword',
          errors: [authErrors.resetTokenInvalid()],
        },
        schema: {
          tags,
          summary: 'Set a new password with the emailed token or code; ends every session',
          body: s.resetBody,
          response: { 200: nullEnvelope },
        },
      },
      async (request) => {
        await auth.resetPassword(deps, request.body);
        return ok(null, 'Password reset');
      },
    );

    app.post(
      `${prefix}/password/set`,
      {
        config: {
          access: signedInAccess,
          rateLimit: {
            max: auth.PASSWORD_SET_PER_WINDOW,
            timeWindow: auth.PASSWORD_SET_WINDOW_MS,
            hook: 'preHandler',
            keyGenerator: (request) =>
              `password-set:${request.principal?.actor === 'guest' ? '' : request.principal?.userId}`,
          },
          operation: 'setPassword',
          errors: [authErrors.currentPasswordRequired(), authErrors.invalidCredentials()],
        },
        schema: {
          tags,
          summary: 'Set a first password, or change it (currentPassword required when one exists)',
          body: s.setPasswordBody,
          // The interface shows this success with `errorCode: null` beside `data: null`.
          response: { 200: nullEnvelope.extend({ errorCode: z.null() }) },
        },
      },
      async (request) => {
        await auth.setPassword(deps, { userId: currentUser(request).userId, ...request.body });
        return { ...ok(null, 'Password saved'), errorCode: null };
      },
    );

    app.post(
      `${prefix}/email/verify/resend`,
      {
        config: {
          access: access.public(),
          operation: 'resendEmailVerification',
          errors: [httpErrors.rateLimited(1)],
        },
        schema: {
          tags,
          summary: 'Send the verification email again',
          body: s.emailBody,
          response: { 200: nullEnvelope },
        },
      },
      async (request) => {
        await auth.resendVerification(ctx, mailJobs, { email: request.body.email, ip: request.ip });
        return ok(null, 'If an unverified account exists for this email, a verification email is on its way');
      },
    );

    app.post(
      `${prefix}/email/verify/confirm`,
      {
        config: {
          access: access.public(),
          operation: 'confirmEmailVerification',
          errors: [authErrors.emailVerificationInvalid()],
        },
        schema: {
          tags,
          summary: 'Verify the email address with the emailed token or code',
          body: s.confirmEmailBody,
          response: { 200: envelopeSchema(z.object({ user: s.profile })) },
        },
      },
      async (request) => ok({ user: await auth.confirmEmail(deps, request.body) }, 'Email verified'),
    );

    // Both open to an admin that STAFF_2FA_REQUIRED confines to enrolment.
    const enrolmentAccess =
      actor === 'admin' ? access.admin(undefined, { duringEnrolment: true }) : signedInAccess;

    if (actor === 'admin') {
      app.get(
        `${prefix}/me`,
        {
          config: { access: enrolmentAccess, operation: 'getMe' },
          schema: {
            tags,
            summary: 'The signed-in profile, with whether two-factor sign-in is on',
            response: { 200: envelopeSchema(s.adminProfile) },
          },
        },
        async (request) => ok(await auth.currentAdminProfile(deps, currentUser(request).userId), 'Profile'),
      );
    } else {
      app.get(
        `${prefix}/me`,
        {
          config: { access: signedInAccess, operation: 'getMe' },
          schema: {
            tags,
            summary: 'The signed-in profile',
            response: { 200: envelopeSchema(s.profileWithPassword) },
          },
        },
        async (request) => ok(await auth.currentProfile(deps, currentUser(request).userId), 'Profile'),
      );
    }

    app.delete(
      `${prefix}/logout`,
      {
        config: { access: enrolmentAccess, operation: 'logout' },
        schema: { tags, summary: 'End the current session', response: { 200: nullEnvelope } },
      },
      async (request, reply) => {
        await auth.logout(deps, currentUser(request).sessionId);
        if (actor === 'admin') clearRefreshCookie(reply);
        return ok(null, 'Signed out');
      },
    );

    // docs/decisions.md "Phone verification": the same pair on both surfaces (customers beyond the
    // interface), with the same bodies, answers, codes and limits.
    app.post(
      `${prefix}/phone/verify/request`,
      {
        config: {
          access: signedInAccess,
          operation: 'requestPhoneVerification',
          errors: [httpErrors.rateLimited(1)],
        },
        schema: {
          tags,
          summary: 'Text a verification code to a phone',
          body: s.phoneRequestBody,
          response: { 200: nullEnvelope },
        },
      },
      async (request) => {
        await auth.requestPhoneVerification(deps, {
          userId: currentUser(request).userId,
          phone: request.body.phone,
        });
        return ok(null, 'Verification code sent');
      },
    );

    app.post(
      `${prefix}/phone/verify/confirm`,
      {
        config: {
          access: signedInAccess,
          operation: 'confirmPhoneVerification',
          errors: [authErrors.phoneVerificationInvalid()],
        },
        schema: {
          tags,
          summary: 'Confirm the phone with the texted code',
          body: s.phoneConfirmBody,
          response: { 200: envelopeSchema(z.object({ user: s.profile })) },
        },
      },
      async (request) =>
        ok(
          { user: await auth.confirmPhone(deps, { userId: currentUser(request).userId, ...request.body }) },
          'Phone verified',
        ),
    );
  };

  sharedRoutes('/api/auth', 'admin');
  sharedRoutes('/api/mobile/auth', 'customer');

  // ----- admin surface only -----
  const adminTags = ['admin auth'];

  app.post(
    '/api/auth/login/2fa',
    {
      config: {
        access: access.public(),
        operation: 'loginWithSecondFactor',
        errors: [
          twoFactorErrors.signInCodeInvalid(),
          twoFactorErrors.challengeInvalid(),
          httpErrors.rateLimited(1),
        ],
      },
      schema: {
        tags: adminTags,
        summary: 'Second step of an admin sign-in: the challenge with a code from the app or a recovery code',
        body: twoFactorSchemas.secondFactorLoginBody,
        response: { 200: envelopeSchema(s.signedIn) },
      },
    },
    async (request, reply) => {
      const result = await auth.loginWithSecondFactor(deps, { ...request.body, ip: request.ip });
      const tokens = deliverRefreshToken(request, reply, result.tokens, refreshTtlDays);
      return ok({ user: result.user, tokens }, 'Signed in');
    },
  );

  app.get(
    '/api/auth/permissions',
    {
      config: { access: access.admin(), operation: 'listMyPermissions' },
      schema: {
        tags: adminTags,
        summary: "The signed-in admin's role and permission codes",
        response: { 200: envelopeSchema(s.permissionsView) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const permissions =
        user.role === SUPERADMIN_ROLE ? allPermissions() : await permissionsOfRole(ctx.db, user.role);
      return ok({ role: user.role, permissions: [...new Set(permissions)].sort() }, 'Permissions');
    },
  );

  // ----- customer surface only -----
  const customerTags = ['customer auth'];

  app.post(
    '/api/mobile/auth/register',
    {
      config: {
        access: access.public(),
        operation: 'register',
        errors: [
          identityErrors.emailAlreadyExists(),
          authErrors.emailVerificationPending(),
          authErrors.accountPendingDeletion(),
          httpErrors.rateLimited(1),
        ],
      },
      schema: {
        tags: customerTags,
        summary: 'Register with email and password; sends the verification email, issues no tokens',
        body: s.registerBody,
        response: { 201: envelopeSchema(s.profile) },
      },
    },
    async (request, reply) => {
      const user = await auth.register(deps, { ...request.body, ip: request.ip });
      reply.status(201);
      return ok(user, 'Registered: check your email to verify your address');
    },
  );

  app.post(
    '/api/mobile/account/deletion',
    {
      config: {
        access: access.customer(),
        operation: 'requestAccountDeletion',
        errors: [authErrors.currentPasswordRequired(), authErrors.invalidCredentials()],
      },
      schema: {
        tags: customerTags,
        summary: 'Schedule deletion of the account (a login during the grace period cancels it)',
        body: s.deletionBody,
        response: { 200: envelopeSchema(s.deletionView) },
      },
    },
    async (request) =>
      ok(
        await auth.requestAccountDeletion(deps, {
          userId: currentUser(request).userId,
          password: request.body?.password,
        }),
        'Account deletion scheduled',
      ),
  );
}
