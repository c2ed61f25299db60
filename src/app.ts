// buildApp: the Fastify instance, its shared plugins in a fixed order, then every module.
// Start-up order is readable here: framework → errors → security headers → rate limits →
// API docs → operations routes → the API scope with the modules.
import { randomUUID } from 'node:crypto';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import packageJson from '../package.json' with { type: 'json' };
import type { Role } from './config';
import { activityModule } from './modules/activity';
import { backupsModule } from './modules/backups';
import { bannersModule } from './modules/banners';
import { blogModule } from './modules/blog';
import { cartModule } from './modules/cart';
import { catalogModule } from './modules/catalog';
import { contentModule } from './modules/content';
import { dashboardModule } from './modules/dashboard';
import { emiModule } from './modules/emi';
import { IDEMPOTENCY_HEADER, idempotencyHeaderDoc, idempotencyModule } from './modules/idempotency';
import { identityModule } from './modules/identity';
import { invoicesModule, saleReceipts } from './modules/invoices';
import { notificationsModule } from './modules/notifications';
import { ordersModule } from './modules/orders';
import { paymentsModule } from './modules/payments';
import { createPosModule } from './modules/pos';
import { repairsModule } from './modules/repairs';
import { reviewsModule } from './modules/reviews';
import { supportModule } from './modules/support';
import { systemModule } from './modules/system';
import { uploadsModule } from './modules/uploads';
import { webhooksModule } from './modules/webhooks';
import { declaredSubscriptions } from './platform/events/events';
import { enforceAccess } from './platform/http/access-hook';
import { defaultConsoleDir, registerConsole } from './platform/http/console';
import { errorEnvelope, installErrorHandling } from './platform/http/error-handler';
import { httpErrors } from './platform/http/errors';
import { moduleTags, openApiOptions } from './platform/http/openapi';
import { registerOperationsRoutes } from './platform/http/operations';
import { OneLinePerRequest } from './platform/http/request-log';
import { recordRequestDurations } from './platform/http/request-metrics';
import { helmetHeaders } from './platform/http/security-headers';
import { responseSerializerCompiler } from './platform/http/serializer';
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
  // The counter prints a paid sale's tax invoice as its receipt (invoices imports pos).
  createPosModule({ saleReceipt: saleReceipts }),
  invoicesModule,
  dashboardModule,
  backupsModule,
  webhooksModule,
];

export const permissionCatalog: PermissionGroup[] = modules.flatMap((m) => m.permissions ?? []);

export const JSON_BODY_LIMIT = 1_048_576; // docs/decisions.md "Body size": JSON bodies up to 1 MB

export interface BuildAppOptions {
  role?: Role;
  /** Extra routes for tests, registered inside the API scope like a module's. */
  testRoutes?: (app: ApiApp) => void | Promise<void>;
  /** Tests: modules built with other dependencies, each replacing the app's module of its name. */
  replaceModules?: PasalModule[];
  /** The built admin console served at /admin; default `console/dist` of this checkout. */
  consoleDir?: string;
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

  // The API answers JSON; the only HTML is the docs UI, which needs its inline scripts.
  const securityHeaders = helmetHeaders({ contentSecurityPolicy: false });
  const answerHeaders = (request: FastifyRequest, reply: FastifyReply) => {
    reply.headers(securityHeaders);
    reply.header('x-request-id', request.id);
  };

  const app = Fastify({
    loggerInstance: log,
    logController: new OneLinePerRequest(),
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: trustProxy(config.TRUST_PROXY),
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w.:-]{1,128}$/.test(incoming) ? incoming : randomUUID();
    },
    routerOptions: { maxParamLength: 500 },
    // Malformed URLs are answered before the error handler runs: give them the envelope too.
    // Answered before any hook runs: the answer gets the headers the onRequest hook gives others.
    frameworkErrors: (error, request, reply) => {
      answerHeaders(request, reply);
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
  app.setSerializerCompiler(responseSerializerCompiler);
  // While shutting down, keep-alive clients must reconnect elsewhere: otherwise Fastify waits for
  // their idle connections until the keep-alive timeout (fastify/fastify#7044). Fastify closes
  // the connections idle when the close starts; one busy then becomes idle once its answer is
  // out, so idle connections are closed again every 50 ms until the server has stopped (a timer
  // while closing, rather than a hook every answer passes through).
  let closing = false;
  let closeIdle: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    closing = true;
    closeIdle = setInterval(() => app.server.closeIdleConnections(), 50);
    closeIdle.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(closeIdle);
  });
  // The headers every answer carries, set in one callback hook as the request arrives (errors
  // and 404s included): each hook a request passes, and a promise each, is measurable.
  app.addHook('onRequest', (request, reply, done) => {
    answerHeaders(request, reply);
    if (closing) reply.header('connection', 'close');
    done();
  });
  recordRequestDurations(app, platform.metrics);
  if (config.CORS_ORIGINS.length) {
    await app.register(cors, { origin: config.CORS_ORIGINS.includes('*') ? true : config.CORS_ORIGINS });
  }
  if (config.RATE_LIMIT_ENABLED) {
    await app.register(rateLimit, {
      global: false,
      redis: platform.redis,
      nameSpace: `${config.REDIS_PREFIX}:ratelimit:`,
      errorResponseBuilder: (_request, context) =>
        httpErrors.rateLimited(Math.max(1, Math.ceil(context.ttl / 1000))),
    });
  } else {
    // Turned off (a proxy in front limits, or the bench): no limiter on any route's path, where
    // each would only ask whether it is on. Routes still declare their limits (`config.rateLimit`,
    // `rateLimiter`), so the OpenAPI document is the same whatever this setting says.
    // (Typed by the plugin as an async hook; a callback hook costs no promise, and Fastify tells
    // the two apart by their arity.)
    app.decorate('rateLimit', (() => passThrough) as never);
  }
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
        tags: moduleTags(modules),
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
  if (config.CONSOLE_ENABLED && (options.role ?? 'all') !== 'worker') {
    await registerConsole(app, {
      dir: options.consoleDir ?? defaultConsoleDir(),
      publicBaseUrl: config.PUBLIC_BASE_URL,
      fileOrigins: platform.storage.browserOrigins,
      log,
      now,
    });
  }

  await app.register(async (api) => {
    enforceAccess(api, platform.authenticator);
    registerFilesRoute(api as ApiApp, platform.storage, now);
    const replaced = new Map((options.replaceModules ?? []).map((m) => [m.name, m]));
    for (const module of modules.map((m) => replaced.get(m.name) ?? m)) {
      await module.register({
        app: api as ApiApp,
        config,
        role: options.role ?? 'all',
        log,
        db: platform.database.db,
        databaseDriver: platform.database.driver,
        clock,
        cache: platform.cache,
        counters: platform.counters,
        jobs: platform.jobs,
        mail: platform.outgoing.mail,
        sms: platform.outgoing.sms,
        push: platform.outgoing.push,
        tokens: platform.tokens,
        authenticator: platform.authenticator,
        realtime: platform.realtime,
        storage: platform.storage,
        permissionCatalog,
        events: declaredSubscriptions(module.name, module.events, platform.events),
        metrics: platform.metrics,
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

/** The limiter of a route while rate limiting is off: lets every request through. */
function passThrough(_request: FastifyRequest, _reply: FastifyReply, done: () => void): void {
  done();
}
