// buildApp: the Fastify instance, its shared plugins in a fixed order, then every module.
// Start-up order is readable here: framework → errors → security headers → rate limits →
// API docs → operations routes → the API scope with the modules.
import { randomUUID } from 'node:crypto';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import packageJson from '../package.json' with { type: 'json' };
import type { Role } from './config';
import { activityModule } from './modules/activity';
import { bannersModule } from './modules/banners';
import { blogModule } from './modules/blog';
import { cartModule } from './modules/cart';
import { catalogModule } from './modules/catalog';
import { contentModule } from './modules/content';
import { emiModule } from './modules/emi';
import { IDEMPOTENCY_HEADER, idempotencyHeaderDoc, idempotencyModule } from './modules/idempotency';
import { identityModule } from './modules/identity';
import { invoicesModule } from './modules/invoices';
import { notificationsModule } from './modules/notifications';
import { ordersModule } from './modules/orders';
import { paymentsModule } from './modules/payments';
import { posModule } from './modules/pos';
import { repairsModule } from './modules/repairs';
import { reviewsModule } from './modules/reviews';
import { supportModule } from './modules/support';
import { systemModule } from './modules/system';
import { uploadsModule } from './modules/uploads';
import { enforceAccess } from './platform/http/access-hook';
import { errorEnvelope, installErrorHandling } from './platform/http/error-handler';
import { httpErrors } from './platform/http/errors';
import { openApiOptions } from './platform/http/openapi';
import { registerOperationsRoutes } from './platform/http/operations';
import { recordRequestDurations } from './platform/http/request-metrics';
import { sendSecurityHeaders } from './platform/http/security-headers';
import { refuseUnstorableText } from './platform/http/text-guard';
import type { ApiApp, PasalModule, PermissionGroup } from './platform/module';
import type { Platform } from './platform/platform';
import { registerFilesRoute } from './platform/storage/files';

/** Every feature module, in registration order. */
export const modules: PasalModule[] = [
  // First: its hooks serve every route that declares `config.idempotency`.
  idempotencyModule,
  identityModule,
  activityModule,
  systemModule,
  uploadsModule,
  notificationsModule,
  supportModule,
  catalogModule,
  blogModule,
  cartModule,
  contentModule,
  bannersModule,
  ordersModule,
  paymentsModule,
  reviewsModule,
  emiModule,
  repairsModule,
  posModule,
  invoicesModule,
];

export const permissionCatalog: PermissionGroup[] = modules.flatMap((m) => m.permissions ?? []);

export const JSON_BODY_LIMIT = 1_048_576; // decisions.md: JSON bodies up to 1 MB

export interface BuildAppOptions {
  role?: Role;
  /** Extra routes for tests, registered inside the API scope like a module's. */
  testRoutes?: (app: ApiApp) => void | Promise<void>;
}

function trustProxy(
  value: string | undefined,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (!value) return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return (_address, hop) => hop < hops;
  }
  return value.split(',').map((s) => s.trim());
}

export async function buildApp(platform: Platform, options: BuildAppOptions = {}): Promise<ApiApp> {
  const { config, log, clock } = platform;
  const now = () => clock.now();

  const app = Fastify({
    loggerInstance: log,
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: trustProxy(config.TRUST_PROXY),
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w.:-]{1,128}$/.test(incoming) ? incoming : randomUUID();
    },
    routerOptions: { maxParamLength: 500 },
    // Malformed URLs are answered before the error handler runs: give them the envelope too.
    frameworkErrors: (error, request, reply) => {
      const issue = { path: 'url', message: error.message, location: 'url' };
      const envelope = errorEnvelope(
        httpErrors.validation([issue], 'The request URL is not valid'),
        request.url,
        now(),
      );
      (reply as unknown as { status(code: number): { send(body: unknown): void } })
        .status(400)
        .send(envelope);
    },
  }).withTypeProvider<ZodTypeProvider>() as unknown as ApiApp;

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // While shutting down, ask keep-alive clients to reconnect elsewhere: otherwise Fastify waits
  // for their idle connections until the keep-alive timeout (fastify/fastify#7044).
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Callback hooks, not async ones: every request pays for these, and a promise each is measurable.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  recordRequestDurations(app, platform.metrics);

  // The API answers JSON; the only HTML is the docs UI, which needs its inline scripts.
  sendSecurityHeaders(app, { contentSecurityPolicy: false });
  if (config.CORS_ORIGINS.length) {
    await app.register(cors, { origin: config.CORS_ORIGINS.includes('*') ? true : config.CORS_ORIGINS });
  }
  await app.register(rateLimit, {
    global: false,
    redis: platform.redis,
    nameSpace: `${config.REDIS_PREFIX}:ratelimit:`,
    allowList: () => !config.RATE_LIMIT_ENABLED,
    errorResponseBuilder: (_request, context) =>
      httpErrors.rateLimited(Math.max(1, Math.ceil(context.ttl / 1000))),
  });
  installErrorHandling(app, now);
  // Before any route: a NUL in a path, query or body string is 400 on every route, new ones too.
  refuseUnstorableText(app);

  if (config.DOCS_ENABLED) {
    await app.register(
      swagger,
      openApiOptions({
        title: 'Pasal API',
        version: packageJson.version,
        serverUrl: config.PUBLIC_BASE_URL,
        extraHeader: (routeConfig) => {
          if (!routeConfig?.idempotency) return undefined;
          const doc = idempotencyHeaderDoc(routeConfig.idempotency);
          return {
            name: IDEMPOTENCY_HEADER,
            schema: { ...doc.schema, description: doc.description },
            required: doc.required,
            errors: doc.errors,
          };
        },
      }),
    );
    await app.register(swaggerUi, { routePrefix: '/docs' });
    app.get('/docs/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  }

  registerOperationsRoutes(app, platform);

  await app.register(async (api) => {
    enforceAccess(api, platform.authenticator);
    registerFilesRoute(api as ApiApp, platform.storage, now);
    for (const module of modules) {
      await module.register({
        app: api as ApiApp,
        config,
        role: options.role ?? 'all',
        log,
        db: platform.database.db,
        databaseDriver: platform.database.driver,
        clock,
        cache: platform.cache,
        jobs: platform.jobs,
        mail: platform.outgoing.mail,
        sms: platform.outgoing.sms,
        push: platform.outgoing.push,
        tokens: platform.tokens,
        authenticator: platform.authenticator,
        realtime: platform.realtime,
        storage: platform.storage,
        permissionCatalog,
      });
    }
    await options.testRoutes?.(api as ApiApp);
  });

  if ((options.role ?? 'all') !== 'worker') {
    platform.realtime.attach(app.server);
    app.addHook('onReady', () => platform.realtime.ready());
    // Open sockets would keep the HTTP server from closing.
    app.addHook('preClose', async () => platform.realtime.disconnectLocal());
  }
  return app;
}
