import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, open, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { v7 } from 'uuid';
import { lazyPackage } from '../../platform/lazy';
import type { ModuleContext } from '../../platform/module';
import {
  isPublicKey,
  isStoredPath,
  PRIVATE_PREFIX,
  PUBLIC_PREFIX,
  servedAsAttachment,
} from '../../platform/storage/files';
import {
  type ObjectUrl,
  StorageLimitError,
  type StoredObject,
  spoolToFile,
} from '../../platform/storage/storage';
import { uploadErrors } from './uploads.errors';
import { findUpload, insertUploads } from './uploads.repository';
import {
  IMAGE_UPLOAD_TYPES,
  PUBLIC_UPLOAD_TYPES,
  UPLOAD_TYPES,
  type UploadResult,
  type UploadType,
} from './uploads.schemas';

const sharp = lazyPackage<typeof import('sharp').default>('sharp');

type Deps = Pick<ModuleContext, 'storage' | 'config' | 'log' | 'db' | 'clock'>;

/** Who stores or asks for a file: recorded with every upload, checked when a customer signs. */
export interface UploadOwner {
  actor: 'admin' | 'customer';
  userId: string;
}

/**
 * What the image upload types accept, judged by the file's bytes (file-type), never by the
 * name or the client's claimed type. APNG is a PNG; HEIF is HEIC's container.
 */
export const ACCEPTED_IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/jpeg',
  'image/png',
  'image/apng',
  'image/webp',
  'image/gif',
  'image/avif',
  'image/heic',
  'image/heif',
]);

export const DEFAULT_URL_LIFETIME_SECONDS = 7200; // "about 2 hours"
export const MAX_FILES_PER_REQUEST = 10;
export const CUSTOMER_MAX_BYTES = 5 * 1_048_576;

const OPTIMIZABLE = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/avif',
  'image/tiff',
  'image/webp',
]);
const ANIMATABLE = new Set(['image/gif', 'image/webp']);

/** One part of a multipart body, as the HTTP layer hands it over. */
export type IncomingPart =
  | { type: 'file'; fieldname: string; filename: string; file: Readable & { truncated?: boolean } }
  | { type: 'field' };

export interface UploadRequest {
  parts: AsyncIterable<IncomingPart>;
  /** The multipart field that carries the files; files under other names are skipped. */
  field: string;
  maxFiles: number;
  uploadType: UploadType;
  optimize: boolean;
  maxBytes: number;
  owner: UploadOwner;
}

export function parseUploadType(value: string | undefined, allowed: readonly UploadType[]): UploadType {
  const type = (value ?? 'image') as UploadType;
  if (!allowed.includes(type)) throw uploadErrors.typeInvalid(allowed);
  return type;
}

export const adminMaxBytes = (deps: Pick<Deps, 'config'>) => deps.config.UPLOAD_MAX_FILE_SIZE_MB * 1_048_576;
export const ALL_UPLOAD_TYPES: readonly UploadType[] = UPLOAD_TYPES;

interface Prepared {
  file: string;
  originalName: string;
  mimeType: string;
  extension: string;
  size: number;
}

/**
 * Reads every file of the request to disk (never into memory), converts images, and only
 * then stores them: a request that fails anywhere (too large, too many files, storage down)
 * leaves no object behind.
 */
export async function uploadFiles(deps: Deps, request: UploadRequest): Promise<UploadResult[]> {
  const tmpRoot = path.join(deps.config.DATA_DIR, 'tmp');
  await mkdir(tmpRoot, { recursive: true });
  const workDir = await mkdtemp(path.join(tmpRoot, 'upload-'));
  try {
    const prepared: Prepared[] = [];
    for await (const part of request.parts) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== request.field) {
        part.file.resume(); // another field's file: read past it
        continue;
      }
      if (prepared.length === request.maxFiles) throw uploadErrors.tooManyFiles(request.maxFiles);
      prepared.push(await prepare(deps, part, path.join(workDir, String(prepared.length)), request));
    }
    if (prepared.length === 0) {
      throw uploadErrors.fileRequired(`A file is required in the multipart field \`${request.field}\``);
    }
    return await store(deps, prepared, request);
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

async function prepare(
  deps: Deps,
  part: Extract<IncomingPart, { type: 'file' }>,
  base: string,
  request: UploadRequest,
): Promise<Prepared> {
  const raw = `${base}.upload`;
  try {
    await spoolToFile(part.file, raw, request.maxBytes);
  } catch (error) {
    if (error instanceof StorageLimitError) throw uploadErrors.tooLarge(request.maxBytes);
    throw error;
  }
  // @fastify/multipart ends an over-size stream quietly at the limit and only flags it.
  if (part.file.truncated) throw uploadErrors.tooLarge(request.maxBytes);

  const originalName = part.filename || 'file';
  // file-type is ESM only (no lazyPackage): imported by the first upload, not at start-up.
  const { fileTypeFromFile } = await import('file-type');
  const detected = await fileTypeFromFile(raw);
  if (IMAGE_UPLOAD_TYPES.has(request.uploadType) && !(detected && ACCEPTED_IMAGE_TYPES.has(detected.mime))) {
    throw uploadErrors.typeNotAllowed(request.uploadType);
  }
  if (request.optimize && detected && OPTIMIZABLE.has(detected.mime)) {
    const webp = `${base}.webp`;
    try {
      const max = deps.config.UPLOAD_IMAGE_MAX_DIMENSION;
      // sharp drops EXIF, ICC and XMP unless asked to keep them; rotate() first applies the
      // EXIF orientation that is about to be dropped.
      await sharp()(raw, { animated: ANIMATABLE.has(detected.mime) })
        .rotate()
        .resize({ width: max, height: max, fit: 'inside', withoutEnlargement: true })
        .webp()
        .toFile(webp);
      return {
        file: webp,
        originalName,
        mimeType: 'image/webp',
        extension: 'webp',
        size: (await stat(webp)).size,
      };
    } catch (error) {
      // A damaged image is still the caller's file: keep it as sent rather than refuse it.
      deps.log.warn({ err: error, mimeType: detected.mime }, 'image optimisation failed; stored as sent');
    }
  }
  // file-type calls any `<?xml` document XML: look closer, it may be an SVG image.
  const { mimeType, extension } =
    detected && detected.mime !== 'application/xml'
      ? { mimeType: detected.mime, extension: detected.ext }
      : await undetectedType(raw, originalName);
  return { file: raw, originalName, mimeType, extension, size: (await stat(raw)).size };
}

const MARKUP_EXTENSIONS: Record<string, string> = {
  html: 'text/html',
  htm: 'text/html',
  shtml: 'text/html',
  xhtml: 'application/xhtml+xml',
  svg: 'image/svg+xml',
  xml: 'application/xml',
};

/**
 * Text that a browser would run as a page: HTML (the tags the WHATWG sniffing algorithm
 * looks for), SVG and XML, judged by the first bytes or the file's own extension.
 */
function markupType(text: string, extension: string | undefined): string | undefined {
  const start = text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 512)
    .toLowerCase();
  if (/^<svg[\s>]/.test(start) || (start.startsWith('<?xml') && start.includes('<svg'))) {
    return 'image/svg+xml';
  }
  if (
    /^<(!doctype\s+html|html|head|body|script|iframe|h1|div|font|table|a|style|title|b|br|p|!--)[\s>]/.test(
      start,
    )
  ) {
    return 'text/html';
  }
  if (start.startsWith('<?xml')) return 'application/xml';
  return extension ? MARKUP_EXTENSIONS[extension] : undefined;
}

/**
 * file-type knows binary formats only: text is recognised by being valid UTF-8 without NULs,
 * and markup (HTML, SVG, XML) gets its own type so that it is only ever served as a download.
 */
async function undetectedType(
  file: string,
  originalName: string,
): Promise<{ mimeType: string; extension: string }> {
  const handle = await open(file, 'r');
  let sample: Buffer;
  try {
    const buffer = Buffer.alloc(8192);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    sample = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  let text = !sample.includes(0);
  if (text) {
    try {
      // stream: true tolerates a character cut in two at the end of the sample.
      new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    } catch {
      text = false;
    }
  }
  const own = /\.([A-Za-z0-9]{1,10})$/.exec(originalName)?.[1]?.toLowerCase();
  if (!text) return { mimeType: 'application/octet-stream', extension: own ?? 'bin' };
  const markup = markupType(sample.toString('utf8'), own);
  if (!markup) return { mimeType: 'text/plain', extension: own ?? 'txt' };
  const markupExtension = { 'image/svg+xml': 'svg', 'application/xml': 'xml' }[markup] ?? 'html';
  return { mimeType: markup, extension: own ?? markupExtension };
}

/**
 * Stores the prepared files, then records them with their owner in one statement. Storage
 * failing removes what was already stored (502); the record failing removes every stored
 * object of the request and fails it, so no file exists without its owner row.
 */
async function store(deps: Deps, prepared: Prepared[], request: UploadRequest): Promise<UploadResult[]> {
  const prefix = PUBLIC_UPLOAD_TYPES.has(request.uploadType) ? PUBLIC_PREFIX : PRIVATE_PREFIX;
  const stored: string[] = [];
  const removeStored = () => Promise.all(stored.map((key) => deps.storage.delete(key).catch(() => {})));
  const results: UploadResult[] = [];
  try {
    for (const item of prepared) {
      const filename = `${v7()}.${item.extension}`;
      const key = `${prefix}${request.uploadType}/${filename}`;
      stored.push(key);
      const { size } = await deps.storage.put(key, createReadStream(item.file), {
        contentType: item.mimeType,
        size: item.size,
        attachment: servedAsAttachment(item.mimeType),
      });
      results.push({
        filename,
        originalName: item.originalName,
        mimeType: item.mimeType,
        size,
        relativePath: key,
        url: '',
        expiresAt: null,
      });
    }
  } catch (error) {
    deps.log.error({ err: error }, 'storing an upload failed');
    await removeStored();
    throw uploadErrors.storageFailed();
  }
  try {
    const createdAt = deps.clock.now();
    await insertUploads(
      deps.db,
      results.map((r) => ({
        key: r.relativePath,
        ownerActor: request.owner.actor,
        ownerId: request.owner.userId,
        uploadType: request.uploadType,
        createdAt,
      })),
    );
  } catch (error) {
    await removeStored();
    throw error;
  }
  for (const result of results) {
    Object.assign(result, await urlOf(deps, result.relativePath, DEFAULT_URL_LIFETIME_SECONDS));
  }
  return results;
}

function checkedKey(key: string): string {
  if (!isStoredPath(key)) throw uploadErrors.keyInvalid();
  return key;
}

async function urlOf(deps: Pick<Deps, 'storage'>, key: string, expiresIn: number): Promise<ObjectUrl> {
  if (isPublicKey(key)) return { url: deps.storage.publicUrl(key), expiresAt: null };
  return deps.storage.signedUrl(key, expiresIn);
}

/**
 * The URL of one stored file; a key with no object behind it is 404. A customer reaches only
 * keys recorded as their own uploads: any other key (another customer's, an admin's, one
 * with no record) is 404 like a missing one, so keys reveal nothing.
 */
export async function resolveUrl(
  deps: Deps,
  viewer: UploadOwner,
  key: string,
  expiresIn = DEFAULT_URL_LIFETIME_SECONDS,
) {
  checkedKey(key);
  if (viewer.actor === 'customer') {
    const row = await findUpload(deps.db, key);
    if (row?.ownerActor !== 'customer' || row.ownerId !== viewer.userId) throw uploadErrors.notFound();
  }
  if (!(await deps.storage.exists(key))) throw uploadErrors.notFound();
  return urlOf(deps, key, expiresIn);
}

/**
 * URLs for many keys at once. Existence is not checked (one storage round trip per key would
 * make a page of thumbnails slow): a deleted file's URL answers 404 when it is fetched.
 */
export async function resolveUrls(
  deps: Deps,
  keys: string[],
  expiresIn = DEFAULT_URL_LIFETIME_SECONDS,
): Promise<Record<string, ObjectUrl>> {
  for (const key of keys) checkedKey(key);
  const entries = await Promise.all(
    keys.map(async (key) => [key, await urlOf(deps, key, expiresIn)] as const),
  );
  return Object.fromEntries(entries);
}

export async function openFile(deps: Deps, key: string): Promise<StoredObject> {
  checkedKey(key);
  const object = await deps.storage.get(key);
  if (!object) throw uploadErrors.notFound();
  return object;
}
