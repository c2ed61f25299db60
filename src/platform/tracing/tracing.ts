// OpenTelemetry traces over OTLP/HTTP, started by main.ts before the app is imported, and only
// when an OTLP endpoint is configured. Spans: HTTP requests (named by method and route template),
// outgoing HTTP calls to providers (fetch/undici and node:http), PostgreSQL statements
// (node-postgres, or the embedded PGlite), Redis commands, and jobs in the trace of the request
// that queued them. Attributes never carry query strings, tokens, e-mail addresses or phone
// numbers: they are scrubbed before export. The packages are imported inside startTracing: the
// build bundles this file into dist/main.js, where a static import would load them always.
import diagnostics from 'node:diagnostics_channel';
import { createRequire, register } from 'node:module';
import type { Attributes, Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace';
import type { Role } from '../../config';
import { installTracingHooks, type TraceCarrier } from './hooks';

export interface Tracing {
  serviceName: string;
  protocol: string;
  shutdown(): Promise<void>;
}

/** `service.name` of each process role, unless OTEL_SERVICE_NAME names one. */
export const SERVICE_NAMES: Record<Role, string> = { api: 'pasal-api', worker: 'pasal-worker', all: 'pasal' };

/** Paths probed all day long: not worth a trace each. */
const UNTRACED_PATHS = new Set(['/health', '/ready', '/metrics']);

// Attributes dropped outright: query strings, headers, the client's address and user agent.
const DROPPED = [
  /^url\.query$/,
  /^http\.(request|response)\.header\./,
  /^user_agent\./,
  /^http\.user_agent$/,
];
const DROPPED_PERSONAL = new Set(['client.address', 'net.peer.ip', 'http.client_ip', 'network.peer.address']);
const URL_KEYS = new Set(['http.url', 'url.full', 'http.target', 'url.path', 'url.original']);
const EMAIL = /[\w.+-]+@[\w-]+(\.[\w-]+)+/g;
const PHONE = /(\+?977[-\s]?)?\b9[678]\d{8}\b/g;
const TOKENS = [/\bBearer\s+\S+/gi, /\beyJ[\w-]+\.[\w-]+\.[\w-]+/g, /\b(si|rt|whsec)_[\w-]{8,}/g];

export function scrubText(value: string): string {
  let out = value.replace(EMAIL, '[email]').replace(PHONE, '[phone]');
  for (const pattern of TOKENS) out = out.replace(pattern, '[token]');
  return out;
}

/** Makes a span's attributes safe to leave the process (applied to every span before export). */
export function scrubAttributes(attributes: Attributes): void {
  const route = attributes['http.route'];
  for (const key of Object.keys(attributes)) {
    const value = attributes[key];
    if (DROPPED_PERSONAL.has(key) || DROPPED.some((pattern) => pattern.test(key))) {
      delete attributes[key];
    } else if (URL_KEYS.has(key) && typeof value === 'string') {
      // A server path can hold a token (`/verify/:token`): its route template stands in for it.
      const path = typeof route === 'string' && (key === 'http.target' || key === 'url.path') ? route : value;
      attributes[key] = scrubText(path.replace(/[?#].*$/, ''));
    } else if (typeof value === 'string') {
      attributes[key] = scrubText(value);
    }
  }
}

/** Scrubs each span as it ends, then hands it on to the exporting processor. */
class ScrubbingProcessor implements SpanProcessor {
  constructor(private readonly next: SpanProcessor) {}
  onStart(span: Span, parent: Context): void {
    this.next.onStart(span, parent);
  }
  onEnd(span: ReadableSpan): void {
    scrubAttributes(span.attributes);
    this.next.onEnd(span);
  }
  forceFlush(): Promise<void> {
    return this.next.forceFlush();
  }
  shutdown(): Promise<void> {
    return this.next.shutdown();
  }
}

export async function startTracing(role: Role, env: NodeJS.ProcessEnv = process.env): Promise<Tracing> {
  // ESM modules imported after this point are patched through this hook (from source, the app's
  // modules are imported after tracing starts).
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const protocol =
    env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf';
  if (protocol !== 'http/protobuf' && protocol !== 'http/json') {
    throw new Error(
      `OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported: use http/protobuf or http/json`,
    );
  }
  const serviceName = env.OTEL_SERVICE_NAME?.trim() || SERVICE_NAMES[role];
  // Traces only: metrics stay on /metrics (Prometheus), logs on stdout, unless asked for.
  env.OTEL_METRICS_EXPORTER ??= 'none';
  env.OTEL_LOGS_EXPORTER ??= 'none';
  const [api, sdkNode, sdkTrace, http, undici, pgInst, redisInst, exporterModule] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-undici'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-ioredis'),
    protocol === 'http/json'
      ? import('@opentelemetry/exporter-trace-otlp-http')
      : import('@opentelemetry/exporter-trace-otlp-proto'),
  ]);
  const { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } = api;
  // The exporters read the endpoint, headers, timeout and compression from the OTEL_* variables.
  const exporter = new exporterModule.OTLPTraceExporter();
  const sdk = new sdkNode.NodeSDK({
    serviceName,
    spanProcessors: [new ScrubbingProcessor(new sdkTrace.BatchSpanProcessor({ exporter }))],
    instrumentations: [
      new http.HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.has((request.url ?? '').split('?')[0] ?? ''),
      }),
      new undici.UndiciInstrumentation(),
      // Statement text only (drizzle sends values as parameters, which are not recorded).
      new pgInst.PgInstrumentation({ requireParentSpan: true }),
      // The command name only: arguments hold keys and values (tokens, cached records).
      new redisInst.IORedisInstrumentation({
        requireParentSpan: true,
        dbStatementSerializer: (command) => command,
      }),
    ],
  });
  sdk.start();
  // The built server (one bundle) has already loaded node:http and pg by now; CommonJS hands a
  // later require the same module objects, so requiring them again lets the instrumentations
  // patch them (their prototypes, shared by every instance).
  const load = createRequire(import.meta.url);
  for (const name of ['node:http', 'node:https', 'pg']) load(name);
  nameRequestSpansByRoute(trace);
  await traceEmbeddedStatements(api);

  const tracer = trace.getTracer('pasal');
  installTracingHooks({
    capture() {
      const carrier: TraceCarrier = {};
      propagation.inject(context.active(), carrier);
      return carrier.traceparent ? carrier : undefined;
    },
    runJob(name, carrier, work) {
      const parent = carrier ? propagation.extract(ROOT_CONTEXT, carrier) : ROOT_CONTEXT;
      return tracer.startActiveSpan(
        `job ${name}`,
        { kind: SpanKind.CONSUMER, attributes: { 'job.name': name, 'messaging.operation.type': 'process' } },
        parent,
        async (span) => {
          try {
            return await work();
          } catch (error) {
            // The type only: a message can quote a customer's data.
            span.setStatus({
              code: SpanStatusCode.ERROR,
              message: error instanceof Error ? error.name : 'Error',
            });
            throw error;
          } finally {
            span.end();
          }
        },
      );
    },
    logFields(): Record<string, string> {
      const span = trace.getActiveSpan()?.spanContext();
      return span ? { trace_id: span.traceId, span_id: span.spanId } : {};
    },
  });
  return { serviceName, protocol, shutdown: () => sdk.shutdown() };
}

/**
 * The embedded database has no instrumentation of its own: its statements get a span like
 * node-postgres's (statement text, never the values), inside a request or a job only. drizzle
 * calls `query` and `exec` on the instance, or on the transaction object `transaction` hands it.
 */
async function traceEmbeddedStatements(api: typeof import('@opentelemetry/api')): Promise<void> {
  const { PGlite } = await import('@electric-sql/pglite');
  const tracer = api.trace.getTracer('pasal-pglite');
  type Run = (this: unknown, text: unknown, ...rest: unknown[]) => Promise<unknown>;
  const wrap = (target: Record<string, unknown>, method: 'query' | 'exec') => {
    const original = target[method] as Run;
    target[method] = function (this: unknown, text: unknown, ...rest: unknown[]) {
      if (!api.trace.getActiveSpan()) return original.call(this, text, ...rest);
      const statement = String(text);
      const operation = /^\s*(\w+)/.exec(statement)?.[1]?.toUpperCase() ?? 'SQL';
      return tracer.startActiveSpan(
        `pglite.${method}:${operation}`,
        {
          kind: api.SpanKind.CLIENT,
          attributes: {
            'db.system.name': 'postgresql',
            'db.operation.name': operation,
            'db.query.text': statement.slice(0, 4000),
          },
        },
        async (span) => {
          try {
            return await original.call(this, text, ...rest);
          } catch (error) {
            span.setStatus({
              code: api.SpanStatusCode.ERROR,
              message: error instanceof Error ? error.name : 'Error',
            });
            throw error;
          } finally {
            span.end();
          }
        },
      );
    };
  };
  const prototype = PGlite.prototype as unknown as Record<string, unknown>;
  wrap(prototype, 'query');
  wrap(prototype, 'exec');
  const transaction = prototype.transaction as (
    this: unknown,
    work: (tx: unknown) => Promise<unknown>,
  ) => Promise<unknown>;
  prototype.transaction = function (this: unknown, work: (tx: unknown) => Promise<unknown>) {
    return transaction.call(this, (tx) => {
      wrap(tx as Record<string, unknown>, 'query');
      wrap(tx as Record<string, unknown>, 'exec');
      return work(tx);
    });
  };
}

/**
 * The HTTP instrumentation names a server span by its method only; Fastify knows the route
 * template once it has matched the request. Every Fastify instance made after this is told,
 * through the channel Fastify announces each new instance on, to rename the request's span.
 */
function nameRequestSpansByRoute(trace: typeof import('@opentelemetry/api').trace): void {
  diagnostics.subscribe('fastify.initialization', (message) => {
    const { fastify } = message as {
      fastify: {
        addHook(
          name: 'onRequest',
          hook: (
            request: { method: string; routeOptions: { url?: string } },
            reply: unknown,
            done: () => void,
          ) => void,
        ): void;
      };
    };
    fastify.addHook('onRequest', (request, _reply, done) => {
      const route = request.routeOptions.url;
      const span = trace.getActiveSpan();
      if (span && route) {
        span.updateName(`${request.method} ${route}`);
        span.setAttribute('http.route', route);
      }
      done();
    });
  });
}
