import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { access } from '../../platform/auth/access';
import { currentUser } from '../../platform/http/access-hook';
import { envelopeSchema, ok } from '../../platform/http/envelope';
import { AppError } from '../../platform/http/errors';
import type { ModuleContext } from '../../platform/module';
import { sendObject } from '../../platform/storage/files';
import { uploadErrors } from './uploads.errors';
import { uploadsPermissions } from './uploads.permissions';
import {
  CUSTOMER_UPLOAD_TYPES,
  keyParams,
  objectUrl,
  signedUrlQuery,
  signedUrlsBody,
  uploadQuery,
  uploadResult,
} from './uploads.schemas';
import {
  ALL_UPLOAD_TYPES,
  adminMaxBytes,
  CUSTOMER_MAX_BYTES,
  type IncomingPart,
  MAX_FILES_PER_REQUEST,
  openFile,
  parseUploadType,
  resolveUrl,
  resolveUrls,
  type UploadOwner,
  uploadFiles,
} from './uploads.service';

export const CUSTOMER_UPLOADS_PER_MINUTE = 10;
export const CUSTOMER_SIGNED_URLS_PER_MINUTE = 60;

const tags = ['uploads'];

// Errors raised by the multipart parser itself (cut-off body, broken part headers). They
// reach the service through a file stream, so they are marked here and told apart later.
// The plugin's own coded errors (a file over the limit, a closed request) are not marked: the
// service answers those itself.
const malformedBody = new WeakSet<object>();
const markMalformed = (error: unknown) => {
  if (error instanceof Error && !(error as { code?: unknown }).code) malformedBody.add(error);
};

const isMultipartFailure = (error: unknown) =>
  typeof error === 'object' && error !== null && malformedBody.has(error);

/**
 * The request's multipart parts, with @fastify/multipart's own failures turned into the
 * upload error codes. busboy stops a file at `maxBytes` and counts files itself, so neither a
 * huge file nor a flood of parts is read further than the limits.
 */
async function* multipartParts(
  request: FastifyRequest,
  limits: { maxBytes: number; maxFiles: number },
): AsyncGenerator<IncomingPart> {
  if (!request.isMultipart()) throw uploadErrors.fileRequired('The body must be multipart/form-data');
  try {
    const parts = request.parts({
      // One more than allowed, so the service sees the extra file and answers 400, not 413.
      limits: {
        fileSize: limits.maxBytes,
        files: limits.maxFiles + 1,
        fields: 20,
        fieldSize: 65_536,
        parts: 40,
      },
    }) as AsyncIterable<IncomingPart>;
    for await (const part of parts) {
      // A body cut off inside a file fails that file's stream, not the iteration: before the
      // part is handed over (the parser ran ahead) or while it is read.
      if (part.type === 'file') {
        if (part.file.errored) markMalformed(part.file.errored);
        part.file.once('error', markMalformed);
      }
      yield part;
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw uploadErrors.tooLarge(limits.maxBytes);
    if (code === 'FST_FILES_LIMIT') throw uploadErrors.tooManyFiles(limits.maxFiles);
    throw uploadErrors.multipartMalformed((error as Error).message);
  }
}

/** Runs an upload, answering a body the parser could not read with 400 VALIDATION_ERROR. */
async function readingMultipart<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isMultipartFailure(error)) throw uploadErrors.multipartMalformed((error as Error).message);
    throw error;
  }
}

const ownerOf = (request: FastifyRequest): UploadOwner => {
  const user = currentUser(request);
  return { actor: user.actor === 'admin' ? 'admin' : 'customer', userId: user.userId };
};

/** What an upload can be refused for: no file, too many, a bad uploadType or file type, its size, the store. */
const uploadWriteErrors = [
  uploadErrors.fileRequired(),
  uploadErrors.tooManyFiles(0),
  uploadErrors.typeInvalid([]),
  uploadErrors.typeNotAllowed(''),
  uploadErrors.tooLarge(0),
  uploadErrors.storageFailed(),
];

export function uploadsRoutes(ctx: ModuleContext) {
  const { app } = ctx;
  const single = envelopeSchema(uploadResult);

  app.post(
    '/upload',
    {
      config: {
        access: access.admin(uploadsPermissions.CREATE),
        operation: 'uploadFile',
        errors: uploadWriteErrors,
      },
      schema: {
        tags,
        summary: 'Upload one file (multipart field `file`); images become WebP unless optimize=false',
        querystring: uploadQuery,
        response: { 200: single },
      },
    },
    async (request) => {
      const uploadType = parseUploadType(request.query.uploadType, ALL_UPLOAD_TYPES);
      const maxBytes = adminMaxBytes(ctx);
      const [result] = await readingMultipart(
        uploadFiles(ctx, {
          parts: multipartParts(request, { maxBytes, maxFiles: 1 }),
          field: 'file',
          maxFiles: 1,
          uploadType,
          optimize: request.query.optimize,
          maxBytes,
          owner: ownerOf(request),
        }),
      );
      return ok(result!, 'File uploaded');
    },
  );

  app.post(
    '/upload/multiple',
    {
      config: {
        access: access.admin(uploadsPermissions.CREATE),
        operation: 'uploadFiles',
        errors: uploadWriteErrors,
      },
      schema: {
        tags,
        summary: `Upload 1 to ${MAX_FILES_PER_REQUEST} files (multipart field \`files\`)`,
        querystring: uploadQuery,
        response: { 200: envelopeSchema(z.array(uploadResult)) },
      },
    },
    async (request) => {
      const uploadType = parseUploadType(request.query.uploadType, ALL_UPLOAD_TYPES);
      const maxBytes = adminMaxBytes(ctx);
      const results = await readingMultipart(
        uploadFiles(ctx, {
          parts: multipartParts(request, { maxBytes, maxFiles: MAX_FILES_PER_REQUEST }),
          field: 'files',
          maxFiles: MAX_FILES_PER_REQUEST,
          uploadType,
          optimize: request.query.optimize,
          maxBytes,
          owner: ownerOf(request),
        }),
      );
      return ok(results, 'Files uploaded');
    },
  );

  app.get(
    '/upload/signed-url/*',
    {
      config: {
        access: access.admin(uploadsPermissions.READ),
        operation: 'getSignedUrl',
        errors: [uploadErrors.keyInvalid(), uploadErrors.notFound()],
      },
      schema: {
        tags,
        summary:
          'A URL for a stored relativePath: signed and expiring for private keys, permanent for public/',
        params: keyParams,
        querystring: signedUrlQuery,
        response: { 200: envelopeSchema(objectUrl) },
      },
    },
    async (request) =>
      ok(await resolveUrl(ctx, ownerOf(request), request.params['*'], request.query.expiresIn), 'File URL'),
  );

  app.post(
    '/upload/signed-urls',
    {
      config: {
        access: access.admin(uploadsPermissions.READ),
        operation: 'createSignedUrls',
        errors: [uploadErrors.keyInvalid()],
      },
      schema: {
        tags,
        summary: 'URLs for up to 100 stored relativePaths, keyed by path',
        body: signedUrlsBody,
        response: { 200: envelopeSchema(z.record(z.string(), objectUrl)) },
      },
    },
    async (request) => ok(await resolveUrls(ctx, request.body.keys, request.body.expiresIn), 'File URLs'),
  );

  app.get(
    '/upload/file/*',
    {
      config: {
        access: access.admin(uploadsPermissions.READ),
        operation: 'getUploadedFile',
        errors: [uploadErrors.keyInvalid(), uploadErrors.notFound()],
      },
      schema: { tags, summary: 'Stream a stored file through the service', params: keyParams },
    },
    async (request, reply) =>
      sendObject(reply, request.params['*'], await openFile(ctx, request.params['*']), {
        cacheControl: 'private, max-age=3600',
        crossOrigin: false,
      }),
  );

  app.post(
    '/mobile/uploads',
    {
      config: {
        access: access.customer(),
        rateLimit: { max: CUSTOMER_UPLOADS_PER_MINUTE, timeWindow: 60_000 },
        operation: 'uploadFile',
        errors: uploadWriteErrors,
      },
      schema: {
        tags,
        summary: 'Customer upload of one file (field `file`): avatar, image or file, at most 5 MB',
        querystring: uploadQuery,
        response: { 200: single },
      },
    },
    async (request) => {
      const uploadType = parseUploadType(request.query.uploadType, CUSTOMER_UPLOAD_TYPES);
      const [result] = await readingMultipart(
        uploadFiles(ctx, {
          parts: multipartParts(request, { maxBytes: CUSTOMER_MAX_BYTES, maxFiles: 1 }),
          field: 'file',
          maxFiles: 1,
          uploadType,
          optimize: request.query.optimize,
          maxBytes: CUSTOMER_MAX_BYTES,
          owner: ownerOf(request),
        }),
      );
      return ok(result!, 'File uploaded');
    },
  );

  app.get(
    '/mobile/uploads/signed-url/*',
    {
      config: {
        access: access.customer(),
        rateLimit: { max: CUSTOMER_SIGNED_URLS_PER_MINUTE, timeWindow: 60_000 },
        operation: 'getSignedUrl',
        errors: [uploadErrors.keyInvalid(), uploadErrors.notFound()],
      },
      schema: {
        tags,
        summary: 'A URL for a stored relativePath (same rules as the admin route)',
        params: keyParams,
        querystring: signedUrlQuery,
        response: { 200: envelopeSchema(objectUrl) },
      },
    },
    async (request) =>
      ok(await resolveUrl(ctx, ownerOf(request), request.params['*'], request.query.expiresIn), 'File URL'),
  );
}
