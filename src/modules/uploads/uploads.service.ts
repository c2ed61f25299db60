import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, open, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileTypeFromFile } from 'file-type';
import sharp from 'sharp';
import { v7 } from 'uuid';
import type { ModuleContext } from '../../platform/module';
import { isPublicKey, isStoredPath, PRIVATE_PREFIX, PUBLIC_PREFIX } from '../../platform/storage/files';
import {
  type ObjectUrl,
  StorageLimitError,
  type StoredObject,
  spoolToFile,
} from '../../platform/storage/storage';
import { uploadErrors } from './uploads.errors';
import { PUBLIC_UPLOAD_TYPES, UPLOAD_TYPES, type UploadResult, type UploadType } from './uploads.schemas';

type Deps = Pick<ModuleContext, 'storage' | 'config' | 'log'>;

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
  const detected = await fileTypeFromFile(raw);
  if (request.optimize && detected && OPTIMIZABLE.has(detected.mime)) {
    const webp = `${base}.webp`;
    try {
      const max = deps.config.UPLOAD_IMAGE_MAX_DIMENSION;
      // sharp drops EXIF, ICC and XMP unless asked to keep them; rotate() first applies the
      // EXIF orientation that is about to be dropped.
      await sharp(raw, { animated: ANIMATABLE.has(detected.mime) })
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
  const { mimeType, extension } = detected
    ? { mimeType: detected.mime, extension: detected.ext }
    : await undetectedType(raw, originalName);
  return { file: raw, originalName, mimeType, extension, size: (await stat(raw)).size };
}

/** file-type knows binary formats only: text is recognised by being valid UTF-8 without NULs. */
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
  return text
    ? { mimeType: 'text/plain', extension: own ?? 'txt' }
    : { mimeType: 'application/octet-stream', extension: own ?? 'bin' };
}

async function store(deps: Deps, prepared: Prepared[], request: UploadRequest): Promise<UploadResult[]> {
  const prefix = PUBLIC_UPLOAD_TYPES.has(request.uploadType) ? PUBLIC_PREFIX : PRIVATE_PREFIX;
  const stored: string[] = [];
  try {
    const results: UploadResult[] = [];
    for (const item of prepared) {
      const filename = `${v7()}.${item.extension}`;
      const key = `${prefix}${request.uploadType}/${filename}`;
      stored.push(key);
      const { size } = await deps.storage.put(key, createReadStream(item.file), {
        contentType: item.mimeType,
        size: item.size,
      });
      results.push({
        filename,
        originalName: item.originalName,
        mimeType: item.mimeType,
        size,
        relativePath: key,
        ...(await urlOf(deps, key, DEFAULT_URL_LIFETIME_SECONDS)),
      });
    }
    return results;
  } catch (error) {
    deps.log.error({ err: error }, 'storing an upload failed');
    await Promise.all(stored.map((key) => deps.storage.delete(key).catch(() => {})));
    throw uploadErrors.storageFailed();
  }
}

function checkedKey(key: string): string {
  if (!isStoredPath(key)) throw uploadErrors.keyInvalid();
  return key;
}

async function urlOf(deps: Pick<Deps, 'storage'>, key: string, expiresIn: number): Promise<ObjectUrl> {
  if (isPublicKey(key)) return { url: deps.storage.publicUrl(key), expiresAt: null };
  return deps.storage.signedUrl(key, expiresIn);
}

/** The URL of one stored file; a key with no object behind it is 404. */
export async function resolveUrl(deps: Deps, key: string, expiresIn = DEFAULT_URL_LIFETIME_SECONDS) {
  checkedKey(key);
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
