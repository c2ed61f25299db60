// Routes for operators and load balancers: liveness, readiness, metrics.
import { z } from 'zod';
import type { ApiApp } from '../module';
import type { Platform } from '../platform';
import { envelopeSchema, ok } from './envelope';
import { httpErrors } from './errors';

const readinessSchema = z.object({
  database: z.enum(['up', 'down']),
  redis: z.enum(['up', 'down', 'not_configured']),
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
        summary: 'Readiness: the database (and Redis, when configured) answer',
        response: { 200: envelopeSchema(readinessSchema) },
      },
    },
    async (request) => {
      const { redis } = platform;
      const state = {
        database: await probe(() => platform.database.ping()),
        redis: redis ? await probe(() => redis.ping()) : ('not_configured' as const),
      };
      if (state.database === 'down' || state.redis === 'down') {
        request.log.warn({ state }, 'not ready');
        throw httpErrors.notReady();
      }
      return ok(state);
    },
  );

  if (platform.config.METRICS_ENABLED) {
    app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
      reply.type(platform.metrics.registry.contentType);
      return platform.metrics.registry.metrics();
    });
  }
}
