import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Access } from '../auth/access';
import { type Authenticator, type BearerResult, bearerToken } from '../auth/authenticator';
import type { Principal, UserPrincipal } from '../auth/principal';
import { httpErrors } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** The signed-in user of a route that requires one (admin or customer). */
export function currentUser(request: FastifyRequest): UserPrincipal {
  const p = request.principal;
  if (!p || p.actor === 'guest') throw httpErrors.unauthorized();
  return p;
}

/**
 * Enforces each route's `access` before validation, so an unauthenticated call learns
 * nothing about the shape of the request. Registered inside the API scope: every route
 * there must declare its access, which makes a forgotten guard a start-up error. The check is
 * the route's own first onRequest hook, added when the route is declared: public routes carry
 * none, and no request reads its route's options to find its rule.
 */
export function enforceAccess(app: FastifyInstance, authenticator: Authenticator): void {
  app.decorateRequest('principal', null);

  app.addHook('onRoute', (route) => {
    const rule = route.config?.access;
    if (!rule) {
      throw new Error(`Route ${route.method} ${route.url} must declare config.access`);
    }
    if (rule.kind === 'public') return;
    const check: onRequestHookHandler = (request, _reply, done) => {
      authenticator.authenticate(bearerToken(request.headers.authorization)).then((result) => {
        try {
          admit(request, rule, result);
        } catch (error) {
          return done(error as Error);
        }
        done();
      }, done);
    };
    const existing = route.onRequest;
    route.onRequest = existing ? [check, ...(Array.isArray(existing) ? existing : [existing])] : [check];
  });
}

/** Sets `request.principal` when `result` satisfies `rule`; throws the refusal otherwise. */
function admit(
  request: FastifyRequest,
  rule: Exclude<Access, { kind: 'public' }>,
  result: BearerResult,
): void {
  switch (rule.kind) {
    case 'optionalCustomer':
      // A guest credential (valid or stale) says the caller is a guest, which these routes
      // serve anyway: a chat widget that keeps its last `si_` token can still open a new one.
      if (result.kind === 'none' || result.kind === 'guest') return;
      if (result.kind !== 'user') throw httpErrors.unauthorized();
      if (result.principal.actor !== 'customer') throw httpErrors.forbidden();
      request.principal = result.principal;
      return;

    case 'customerOrGuest':
      if (result.kind === 'none') throw rule.guestDenied();
      if (result.kind === 'guest') {
        if (result.prefix !== rule.guestPrefix || !result.principal) throw rule.guestDenied();
        request.principal = result.principal;
        return;
      }
      if (result.kind === 'invalid') throw httpErrors.unauthorized();
      if (result.principal.actor !== 'customer') throw httpErrors.forbidden();
      request.principal = result.principal;
      return;

    case 'admin':
    case 'customer': {
      // A guest credential is not a JWT: 401 like any other bad token
      // (docs/decisions.md "Credential on customer-or-guest routes").
      if (result.kind !== 'user') throw httpErrors.unauthorized();
      const user = result.principal;
      if (user.actor !== rule.kind) throw httpErrors.forbidden();
      if (user.secondFactorEnrolmentRequired && !(rule.kind === 'admin' && rule.duringEnrolment)) {
        throw httpErrors.secondFactorEnrolmentRequired();
      }
      if (rule.permission && !user.permissions.has(rule.permission)) {
        throw httpErrors.permissionDenied(rule.permission);
      }
      request.principal = user;
      return;
    }
  }
}
