// Signed-in devices on both surfaces: `/api/auth/sessions` (admins, open during 2FA
// enrolment) and `/api/mobile/auth/sessions` (customers).

import { z } from 'zod';
import { access } from '../../../platform/auth/access';
import { currentUser } from '../../../platform/http/access-hook';
import { envelopeSchema, ok } from '../../../platform/http/envelope';
import type { ModuleContext } from '../../../platform/module';
import { sessionErrors } from './sessions.errors';
import * as s from './sessions.schemas';
import * as sessions from './sessions.service';

export function sessionRoutes(ctx: ModuleContext) {
  const { app } = ctx;
  const deps: sessions.SessionDeps = ctx;

  for (const [prefix, actor] of [
    ['/api/auth', 'admin'],
    ['/api/mobile/auth', 'customer'],
  ] as const) {
    const tags = [actor === 'admin' ? 'admin auth' : 'customer auth'];
    const signedIn =
      actor === 'admin' ? access.admin(undefined, { duringEnrolment: true }) : access.customer();

    app.get(
      `${prefix}/sessions`,
      {
        config: { access: signedIn, operation: 'listSessions' },
        schema: {
          tags,
          summary: 'Signed-in devices of the caller: live sessions, most recently used first',
          response: { 200: envelopeSchema(z.array(s.signedInDevice)) },
        },
      },
      async (request) =>
        ok(await sessions.listSignedInDevices(deps, currentUser(request)), 'Signed-in devices'),
    );

    app.delete(
      `${prefix}/sessions/:sessionId`,
      {
        config: { access: signedIn, operation: 'deleteSession', errors: [sessionErrors.notFound()] },
        schema: {
          tags,
          summary: 'Sign one device out: its refresh token, access tokens and sockets end at once',
          params: s.sessionParams,
          response: { 200: envelopeSchema(z.null()) },
        },
      },
      async (request) => {
        await sessions.signOutDevice(deps, {
          caller: currentUser(request),
          sessionId: request.params.sessionId,
        });
        return ok(null, 'Device signed out');
      },
    );

    app.post(
      `${prefix}/sessions/revoke-others`,
      {
        config: { access: signedIn, operation: 'revokeOtherSessions' },
        schema: {
          tags,
          summary: 'Sign every other device out; this one stays signed in',
          response: { 200: envelopeSchema(s.revokedCount) },
        },
      },
      async (request) =>
        ok(
          await sessions.signOutOtherDevices(deps, { caller: currentUser(request) }),
          'Other devices signed out',
        ),
    );
  }
}
