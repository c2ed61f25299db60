// Customer sign-in through the identity provider (customer surface only: the interface has no
// provider route under /api/auth). Without IDP_ISSUER_URL the routes exist and answer 404
// AUTH_IDP_NOT_CONFIGURED, before validation, so a client learns why rather than what is wrong.
import type { FastifyReply } from 'fastify';
import { access } from '../../../platform/auth/access';
import { envelopeSchema, ok } from '../../../platform/http/envelope';
import type { ModuleContext } from '../../../platform/module';
import * as authSchemas from '../auth/auth.schemas';
import { createIdpClient } from './idp.client';
import { idpErrors } from './idp.errors';
import * as s from './idp.schemas';
import * as idp from './idp.service';

const PREFIX = '/api/mobile/auth/idp';
/** Each start writes a row; this keeps one address from filling the table. */
export const IDP_START_PER_MINUTE = 30;

export function idpRoutes(ctx: ModuleContext) {
  const { app, config } = ctx;
  const client = config.IDP_ISSUER_URL
    ? createIdpClient({
        issuerUrl: config.IDP_ISSUER_URL,
        clientId: config.IDP_CLIENT_ID,
        clientSecret: config.IDP_CLIENT_SECRET,
        callbackUrl: idp.callbackUrlOf(config),
        scopes: config.IDP_SCOPES,
        allowInsecure:
          new URL(config.IDP_ISSUER_URL).protocol === 'http:' && config.NODE_ENV !== 'production',
      })
    : undefined;
  const deps: idp.IdpDeps = { ...ctx, idp: client };
  const whenConfigured = async () => {
    if (!client) throw idpErrors.notConfigured();
  };
  const tags = ['customer auth'];
  // The Location carries a one-time code: no cache may keep it.
  const redirect = (reply: FastifyReply, location: string) =>
    reply.header('cache-control', 'no-store').redirect(location, 302);

  app.get(
    PREFIX,
    {
      config: {
        access: access.public(),
        rateLimit: { max: IDP_START_PER_MINUTE, timeWindow: 60_000 },
        operation: 'startIdpLogin',
        errors: [idpErrors.notConfigured(), idpErrors.redirectNotAllowed(), idpErrors.unavailable()],
      },
      onRequest: whenConfigured,
      schema: {
        tags,
        summary: 'Start sign-in at the identity provider (302 to its authorization endpoint)',
        description:
          '400 `AUTH_IDP_REDIRECT_NOT_ALLOWED` when redirect_uri is not in the allowlist; ' +
          '502 `AUTH_IDP_UNAVAILABLE` when the provider cannot be discovered; ' +
          '404 `AUTH_IDP_NOT_CONFIGURED` when no provider is set up.',
        querystring: s.startQuery,
      },
    },
    async (request, reply) =>
      redirect(reply, await idp.startSignIn(deps, { redirectUri: request.query.redirect_uri })),
  );

  app.get(
    `${PREFIX}/callback`,
    {
      config: {
        access: access.public(),
        operation: 'finishIdpLogin',
        errors: [idpErrors.notConfigured(), idpErrors.stateInvalid(), idpErrors.redirectNotAllowed()],
      },
      onRequest: whenConfigured,
      schema: {
        tags,
        summary: 'Provider callback: 302 to the frontend redirect_uri with code= (or error=)',
        description:
          '400 `AUTH_IDP_STATE_INVALID` for a bad, expired or used state. Otherwise 302 to the ' +
          'redirect_uri given at the start, with `code=<one-time code>` for the exchange route, ' +
          'or `error=AUTH_IDP_PROVIDER_ERROR`, `AUTH_IDP_ACCESS_DENIED` or `AUTH_IDP_UNAVAILABLE`.',
        querystring: s.callbackQuery,
      },
    },
    async (request, reply) => {
      const url = request.raw.url ?? '';
      const rawQuery = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
      return redirect(reply, await idp.completeCallback(deps, { rawQuery }));
    },
  );

  app.post(
    `${PREFIX}/exchange`,
    {
      config: {
        access: access.public(),
        operation: 'exchangeIdpCode',
        errors: [
          idpErrors.notConfigured(),
          idpErrors.codeInvalid(),
          idpErrors.emailRequired(),
          idpErrors.emailNotVerified(),
          idpErrors.adminAccount(),
          idpErrors.accountDisabled(),
        ],
      },
      onRequest: whenConfigured,
      schema: {
        tags,
        summary: 'Exchange the one-time code of the callback for the user and a token pair',
        description:
          'Single use. 400 `AUTH_IDP_CODE_INVALID` (unknown, used or expired), 400 ' +
          '`AUTH_IDP_EMAIL_REQUIRED`, 403 `AUTH_IDP_EMAIL_NOT_VERIFIED`, 401 ' +
          '`AUTH_IDP_ADMIN_ACCOUNT`, 403 `AUTH_IDP_ACCOUNT_DISABLED`.',
        body: s.exchangeBody,
        response: { 200: envelopeSchema(authSchemas.signedIn) },
      },
    },
    async (request) => {
      const result = await idp.exchangeCode(deps, request.body);
      const message = result.restored ? 'Welcome back: your account was restored' : 'Signed in';
      return ok({ user: result.user, tokens: result.tokens }, message);
    },
  );
}
