// The storage layout every module shares (`uploads/…` private, `public/…` public), its error
// codes, and `/files/<key>`: how local-disk objects reach clients.
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { access } from '../auth/access';
import { errorEnvelope, toAppError } from '../http/error-handler';
import { AppError, httpErrors } from '../http/errors';
import type { ApiApp } from '../module';
import { isSafeKey, type Storage, type StoredObject } from './storage';

export const PUBLIC_PREFIX = 'public/';
export const PRIVATE_PREFIX = 'uploads/';

export const storageErrors = {
  keyInvalid: () =>
    new AppError(400, 'UPLOAD_KEY_INVALID', 'The key must be a stored path under uploads/ or public/'),
  notFound: () => new AppError(404, 'UPLOAD_NOT_FOUND', 'No file is stored under this key'),
  urlInvalid: () =>
    new AppError(403, 'UPLOAD_URL_INVALID', 'The file URL has expired or its signature is wrong'),
};

/** A key this service could have generated: under `uploads/` or `public/`, no traversal. */
export function isStoredPath(key: string): boolean {
  return (key.startsWith(PRIVATE_PREFIX) || key.startsWith(PUBLIC_PREFIX)) && isSafeKey(key);
}

export const isPublicKey = (key: string) => key.startsWith(PUBLIC_PREFIX);

// Types a browser shows in place without running anything: raster images, audio, video and
// plain text. Everything else is served as a download (`Content-Disposition: attachment`).
const INLINE_TYPES = new Set([
  'image/jpeg',
  'image/png',
  'image/apng',
  'image/webp',
  'image/gif',
  'image/avif',
  'image/heic',
  'image/heif',
  'text/plain',
]);
// Types a browser would run as a page or script: served as application/octet-stream, so even
// a client that ignores the attachment disposition gets bytes, not a document.
const ACTIVE_TYPE =
  /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml|[^/]+\/[^;]*javascript|[^/]+\/[^;]*ecmascript)/i;

const baseType = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase();

/** Whether a stored type is served as a download rather than shown in place. */
export function servedAsAttachment(contentType: string): boolean {
  const type = baseType(contentType);
  return !(INLINE_TYPES.has(type) || type.startsWith('video/') || type.startsWith('audio/'));
}

/** The Content-Type a stored type is served with: active documents become plain bytes. */
export function servedContentType(contentType: string): string {
  return ACTIVE_TYPE.test(baseType(contentType)) ? 'application/octet-stream' : contentType;
}

export interface SendOptions {
  cacheControl: string;
  /** Public files may be embedded by pages of other origins (a storefront); private ones not. */
  crossOrigin: boolean;
}

/**
 * Streams a stored object: images, media and plain text in place, anything else (HTML, SVG,
 * PDF, archives…) as an attachment; never sniffed, never run as a page.
 */
export function sendObject(reply: FastifyReply, key: string, object: StoredObject, options: SendOptions) {
  const filename = key.slice(key.lastIndexOf('/') + 1); // a safe key: [A-Za-z0-9._-] only
  return (
    reply
      .header('content-type', servedContentType(object.contentType))
      .header('content-length', object.size)
      .header('cache-control', options.cacheControl)
      .header(
        'content-disposition',
        `${servedAsAttachment(object.contentType) ? 'attachment' : 'inline'}; filename="${filename}"`,
      )
      .header('x-content-type-options', 'nosniff')
      .header('cross-origin-resource-policy', options.crossOrigin ? 'cross-origin' : 'same-origin')
      // An uploaded SVG or HTML file opened from the API's origin must not run scripts there.
      .header('content-security-policy', "default-src 'none'; sandbox")
      .send(object.body)
  );
}

/** Where a `/files/*` error says it happened: the route, never the key (the key is private). */
export const FILES_ERROR_PATH = '/files/*';

export function registerFilesRoute(app: ApiApp, storage: Storage, now: () => Date): void {
  app.get(
    '/files/*',
    {
      config: {
        access: access.public(),
        errors: [storageErrors.keyInvalid(), storageErrors.urlInvalid(), storageErrors.notFound()],
      },
      schema: {
        tags: ['files'],
        summary: 'Read a stored file: public keys as they are, private keys with a signed URL',
        params: z.object({ '*': z.string() }),
        querystring: z.object({ expires: z.string().optional(), signature: z.string().optional() }),
      },
      // A link to a private file is often shared or logged; its error must not repeat the key.
      errorHandler: (error, request, reply) => {
        const appError = toAppError(error) ?? httpErrors.internal();
        if (appError.statusCode >= 500) request.log.error({ err: error }, 'reading a stored file failed');
        return reply
          .status(appError.statusCode)
          .headers(appError.headers ?? {})
          .type('application/json; charset=utf-8')
          .send(errorEnvelope(appError, FILES_ERROR_PATH, now()));
      },
    },
    async (request, reply) => {
      const key = request.params['*'];
      if (!isStoredPath(key)) throw storageErrors.keyInvalid();
      const { expires, signature } = request.query;
      const open = isPublicKey(key);
      if (!open && !storage.verifySignedUrl?.(key, expires, signature)) throw storageErrors.urlInvalid();
      const object = await storage.get(key);
      if (!object) throw storageErrors.notFound();
      // Names are never reused (uuid v7), so a public file can be cached for good.
      return sendObject(reply, key, object, {
        cacheControl: open ? 'public, max-age=31536000, immutable' : 'private, max-age=3600',
        crossOrigin: open,
      });
    },
  );
}
