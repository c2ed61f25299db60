// `http_request_duration_seconds` by method, route pattern and status. Each route gets its own
// onResponse hook with its pattern closed over, because reading the pattern per request
// (`request.routeOptions`) builds a new options object every time; answers without a route
// (404s) are counted under `unmatched` by one light global hook.
import type { FastifyInstance, onResponseHookHandler } from 'fastify';
import type { Metrics } from '../metrics/metrics';

export function recordRequestDurations(app: FastifyInstance, metrics: Metrics): void {
  const observe = (method: string, route: string, status: number, elapsedMs: number) =>
    metrics.httpDuration.observe({ method, route, status_code: status }, elapsedMs / 1000);

  app.addHook('onRoute', (route) => {
    const pattern = route.url;
    const record: onResponseHookHandler = (request, reply, done) => {
      observe(request.method, pattern, reply.statusCode, reply.elapsedTime);
      done();
    };
    const existing = route.onResponse;
    route.onResponse = existing ? [...(Array.isArray(existing) ? existing : [existing]), record] : [record];
  });

  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) observe(request.method, 'unmatched', reply.statusCode, reply.elapsedTime);
    done();
  });
}
