// The storage layout every module shares (`uploads/…` private, `public/…` public), its error
// codes, and `/files/<key>`: how local-disk objects reach clients.
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { access } from '../auth/access';
import { AppError } from '../http/errors';
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

/** Streams a stored object with its own type; never sniffed, never run as a page. */
export function sendObject(reply: FastifyReply, object: StoredObject, cacheControl: string) {
  return (
    reply
      .header('content-type', object.contentType)
      .header('content-length', object.size)
      .header('cache-control', cacheControl)
      .header('x-content-type-options', 'nosniff')
      // An uploaded SVG or HTML file opened from the API's origin must not run scripts there.
      .header('content-security-policy', "default-src 'none'; sandbox")
      .send(object.body)
  );
}

export function registerFilesRoute(app: ApiApp, storage: Storage): void {
  app.get(
    '/files/*',
    {
      config: { access: access.public() },
      schema: {
        tags: ['files'],
        summary: 'Read a stored file: public keys as they are, private keys with a signed URL',
        params: z.object({ '*': z.string() }),
        querystring: z.object({ expires: z.string().optional(), signature: z.string().optional() }),
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
      return sendObject(
        reply,
        object,
        open ? 'public, max-age=31536000, immutable' : 'private, max-age=3600',
      );
    },
  );
}
