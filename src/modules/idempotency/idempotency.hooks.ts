// How a route becomes idempotent: it declares `config.idempotency` ('optional' or
// 'required') beside its access, and these hooks do the rest for every such route — the
// claim before the handler (after validation and access, so a refused request claims
// nothing), the replay instead of the handler, and the stored answer on the way out. The
// hooks are added to those routes only, so every other request pays nothing for them.
import type { FastifyReply, FastifyRequest, onSendHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/database';
import { httpErrors } from '../../platform/http/errors';
import type { ApiApp } from '../../platform/module';
import { sha256Hex } from '../../platform/security/tokens';
import { idempotencyErrors } from './idempotency.errors';
import type { KeyId } from './idempotency.repository';
import { claimIdempotencyKey, finishIdempotentRequest, requestDigest } from './idempotency.service';

export type IdempotencyMode = 'optional' | 'required';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `Idempotency-Key` handling of the route (docs/decisions.md "Idempotency"): optional, or
     * required (POS).
     */
    idempotency?: IdempotencyMode;
  }
  interface FastifyRequest {
    /** The key this request claimed, until its answer is stored. */
    idempotencyClaim: KeyId | null;
  }
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const MAX_KEY_LENGTH = 255;

/** Keys are per caller: the same key from two customers is two keys. */
function callerScope(request: FastifyRequest): string {
  const p = request.principal;
  if (!p) return `ip:${request.ip}`;
  // A guest's credential is a secret: the table keeps its digest, never the token itself.
  if (p.actor === 'guest') return `guest:${sha256Hex(p.token)}`;
  return `${p.actor}:${p.userId}`;
}

function invalidKey(message: string) {
  return httpErrors.validation(
    [{ path: IDEMPOTENCY_HEADER, message }],
    'The Idempotency-Key header is not valid',
  );
}

export function installIdempotency(deps: { app: ApiApp; db: Db; clock: Clock }): void {
  const { app, db, clock } = deps;
  app.decorateRequest('idempotencyClaim', null);

  // Registered first among the modules, so it sees every module's routes as they are declared.
  app.addHook('onRoute', (route) => {
    const mode = route.config?.idempotency;
    if (!mode) return;
    route.preHandler = [...asArray(route.preHandler), claimOrReplay(mode)];
    route.onSend = [...asArray(route.onSend), storeAnswer];
  });

  function claimOrReplay(mode: IdempotencyMode): preHandlerAsyncHookHandler {
    return async function claimOrReplay(request: FastifyRequest, reply: FastifyReply) {
      const header = request.headers[IDEMPOTENCY_HEADER];
      if (header === undefined) {
        if (mode === 'required') throw invalidKey('Idempotency-Key header is required');
        return;
      }
      if (typeof header !== 'string') throw invalidKey('send one Idempotency-Key header');
      if (header.length < 1 || header.length > MAX_KEY_LENGTH) {
        throw invalidKey(`must be 1 to ${MAX_KEY_LENGTH} characters`);
      }
      const id: KeyId = {
        scope: callerScope(request),
        route: `${request.method} ${request.routeOptions.url}`,
        key: header,
      };
      const claim = await claimIdempotencyKey(db, id, requestDigest(request), clock.now());
      if (claim.kind === 'replay') {
        const { status, contentType, body } = claim.response;
        reply.code(status).header('idempotent-replayed', 'true');
        if (contentType) reply.header('content-type', contentType);
        return reply.send(body);
      }
      request.idempotencyClaim = id;
    };
  }

  const storeAnswer: onSendHookHandler = async (request, reply, payload) => {
    const id = request.idempotencyClaim;
    if (!id) return payload;
    request.idempotencyClaim = null;
    const contentType = reply.getHeader('content-type');
    // Idempotent routes answer JSON; anything else (a stream) cannot be replayed, so the key
    // is freed rather than kept with an answer it cannot give again.
    const body = typeof payload === 'string' ? payload : null;
    try {
      await finishIdempotentRequest(
        db,
        id,
        {
          status: body === null ? 500 : reply.statusCode,
          contentType: typeof contentType === 'string' ? contentType : null,
          body: body ?? '',
        },
        clock.now(),
      );
    } catch (error) {
      // The answer still goes out; the key stays `running` (409 to replays) until it expires,
      // which is safer for money than running the request a second time.
      request.log.error({ err: error, idempotencyKey: id }, 'storing the idempotent answer failed');
    }
    return payload;
  };
}

const asArray = <T>(hooks: T | T[] | undefined): T[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];

/** The header as the OpenAPI document shows it on an idempotent route. */
export function idempotencyHeaderDoc(mode: IdempotencyMode) {
  return {
    schema: { type: 'string', minLength: 1, maxLength: MAX_KEY_LENGTH },
    required: mode === 'required',
    description:
      'A client-chosen key (1–255 characters). Repeating a request with the same key and body returns ' +
      'the first answer again (header `Idempotent-Replayed: true`); another body answers 422 ' +
      '`IDEMPOTENCY_KEY_MISMATCH`; while the first is still running, 409 `IDEMPOTENCY_REQUEST_IN_PROGRESS`. ' +
      'Keys are kept 24 hours, per caller and route.',
    errors: [idempotencyErrors.inProgress(), idempotencyErrors.keyMismatch()],
  };
}
