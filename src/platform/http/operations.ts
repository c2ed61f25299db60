// Routes for operators and load balancers: liveness, readiness, metrics.
import { z } from 'zod';
import { type Config, PAYMENT_PROVIDERS, paymentGatewayProviders } from '../../config';
import { bearerToken } from '../auth/authenticator';
import type { ApiApp } from '../module';
import type { Platform } from '../platform';
import { constantTimeEqual, sha256Hex } from '../security/tokens';
import { envelopeSchema, ok } from './envelope';
import { httpErrors } from './errors';

const gatewayProvider = z.enum([...PAYMENT_PROVIDERS, 'none']);
const readinessSchema = z.object({
  database: z.enum(['up', 'down']),
  redis: z.enum(['up', 'down', 'not_configured']),
  /** Which provider backs each online gateway (`none`: a sandbox gateway in live mode). No secrets. */
  paymentGateways: z.object({
    gateway_card: gatewayProvider,
    gateway_wallet_a: gatewayProvider,
    gateway_wallet_b: gatewayProvider,
    gateway_bank: gatewayProvider,
  }),
  sms: z
    .string()
    .describe('The SMS provider in use: outbox, sparrow or aakash (not probed: providers bill per call)'),
  push: z.string().describe('The push provider in use: outbox or fcm'),
});

async function probe(check: () => Promise<unknown>): Promise<'up' | 'down'> {
  try {
    await check();
    return 'up';
  } catch {
    return 'down';
  }
}

export function registerOperationsRoutes(app: ApiApp, platform: Platform): void {
  app.get(
    '/health',
    {
      schema: {
        tags: ['operations'],
        summary: 'Liveness: the process answers',
        response: { 200: envelopeSchema(z.object({ status: z.literal('ok') })) },
      },
    },
    async () => ok({ status: 'ok' as const }),
  );

  app.get(
    '/ready',
    {
      schema: {
        tags: ['operations'],
        summary:
          'Readiness: the database (and Redis, when configured) answer; which provider backs each payment gateway; the SMS and push providers',
        response: { 200: envelopeSchema(readinessSchema) },
      },
    },
    async (request) => {
      const { redis } = platform;
      const state = {
        database: await probe(() => platform.database.ping()),
        redis: redis ? await probe(() => redis.ping()) : ('not_configured' as const),
        sms: platform.sms.driver,
        push: platform.push.driver,
      };
      if (state.database === 'down' || state.redis === 'down') {
        request.log.warn({ state }, 'not ready');
        throw httpErrors.notReady();
      }
      return ok({ ...state, paymentGateways: paymentGatewayProviders(platform.config) });
    },
  );

  if (platform.config.METRICS_ENABLED) {
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      // A refused scraper cannot tell the path from one that does not exist.
      if (!metricsReadable(platform.config, request.headers.authorization)) {
        throw httpErrors.routeNotFound(request.method, request.url);
      }
      reply.type(platform.metrics.registry.contentType);
      return platform.metrics.registry.metrics();
    });
  }
}

/**
 * docs/decisions.md, "Metrics": open outside production; in production only to
 * `Authorization: Bearer <METRICS_TOKEN>`, and to nobody when the token is unset.
 */
export function metricsReadable(
  config: Pick<Config, 'NODE_ENV' | 'METRICS_TOKEN'>,
  authorization: string | undefined,
): boolean {
  if (config.NODE_ENV !== 'production') return true;
  if (!config.METRICS_TOKEN) return false;
  const presented = bearerToken(authorization);
  if (!presented) return false;
  // Digests of equal length, so the comparison reveals neither the token nor its length.
  return constantTimeEqual(sha256Hex(presented), sha256Hex(config.METRICS_TOKEN));
}
