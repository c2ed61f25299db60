// One structured log line per request at `info` (`request completed`, with method, URL, status
// and response time; the request id comes from the request's logger), instead of Fastify's two
// (`incoming request` and `request completed`, each serialising the whole request or reply),
// and a 404 has no extra `Route … not found` line.
// Failed answers keep Fastify's `request errored` line at `error`.
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  // A 404's line is its `request completed` with status 404, like any other answer's.
  override routeNotFound(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
