// Enrolment routes of staff two-factor sign-in (`/api/auth/2fa/*`), open to a signed-in admin
// even while `STAFF_2FA_REQUIRED` confines them to enrolment. The sign-in step itself
// (`/api/auth/login/2fa`) is with the other sign-in routes in auth.routes.ts.
import { z } from 'zod';
import { access } from '../../../platform/auth/access';
import { currentUser } from '../../../platform/http/access-hook';
import { envelopeSchema, ok } from '../../../platform/http/envelope';
import { httpErrors } from '../../../platform/http/errors';
import type { ModuleContext } from '../../../platform/module';
import { authErrors } from '../auth/auth.errors';
import { twoFactorErrors } from './two-factor.errors';
import * as s from './two-factor.schemas';
import * as twoFactor from './two-factor.service';

export function twoFactorRoutes(ctx: ModuleContext) {
  const { app } = ctx;
  const deps: twoFactor.TwoFactorDeps = ctx;
  const tags = ['admin auth'];
  const enrolling = access.admin(undefined, { duringEnrolment: true });

  app.post(
    '/api/auth/2fa/totp/setup',
    {
      config: { access: enrolling, operation: 'setupTotp', errors: [twoFactorErrors.alreadyEnabled()] },
      schema: {
        tags,
        summary: 'Start turning on two-factor sign-in: a new secret for the authenticator app',
        response: { 200: envelopeSchema(s.totpSetup) },
      },
    },
    async (request) =>
      ok(
        await twoFactor.setupTotp(deps, { userId: currentUser(request).userId }),
        'Scan the code with your app',
      ),
  );

  app.post(
    '/api/auth/2fa/totp/confirm',
    {
      config: {
        access: enrolling,
        operation: 'confirmTotp',
        errors: [
          twoFactorErrors.codeInvalid(),
          twoFactorErrors.setupRequired(),
          twoFactorErrors.alreadyEnabled(),
          httpErrors.rateLimited(1),
        ],
      },
      schema: {
        tags,
        summary: 'Turn on two-factor sign-in with a code from the app; answers the recovery codes once',
        body: s.codeBody,
        response: { 200: envelopeSchema(s.recoveryCodes) },
      },
    },
    async (request) =>
      ok(
        await twoFactor.confirmTotp(deps, { userId: currentUser(request).userId, code: request.body.code }),
        'Two-factor sign-in is on',
      ),
  );

  app.post(
    '/api/auth/2fa/recovery-codes',
    {
      config: {
        access: enrolling,
        operation: 'renewRecoveryCodes',
        errors: [twoFactorErrors.codeInvalid(), twoFactorErrors.setupRequired(), httpErrors.rateLimited(1)],
      },
      schema: {
        tags,
        summary: 'Ten new recovery codes for a code from the app; the old ones stop working',
        body: s.codeBody,
        response: { 200: envelopeSchema(s.recoveryCodes) },
      },
    },
    async (request) =>
      ok(
        await twoFactor.renewRecoveryCodes(deps, {
          userId: currentUser(request).userId,
          code: request.body.code,
        }),
        'New recovery codes',
      ),
  );

  app.post(
    '/api/auth/2fa/disable',
    {
      config: {
        access: enrolling,
        operation: 'disableTotp',
        errors: [
          authErrors.invalidCredentials(),
          twoFactorErrors.codeInvalid(),
          twoFactorErrors.setupRequired(),
          httpErrors.rateLimited(1),
        ],
      },
      schema: {
        tags,
        summary: 'Turn off two-factor sign-in (the password and a code from the app)',
        body: s.disableBody,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await twoFactor.disableTotp(deps, { userId: currentUser(request).userId, ...request.body });
      return ok(null, 'Two-factor sign-in is off');
    },
  );
}
