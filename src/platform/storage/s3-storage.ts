// Any S3-compatible service through the AWS SDK v3. Private keys are read through presigned
// GET URLs; public keys (`public/…`) must be made readable by the bucket's policy.
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Clock } from '../clock';
import { lazyPackage } from '../lazy';
import { servedContentType } from './files';
import { assertSafeKey, type PutOptions, type Storage, StorageLimitError, spoolToFile } from './storage';

export interface S3StorageOptions {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  /** Prefix of public keys' URLs (a CDN); otherwise the bucket's own address. */
  publicBaseUrl?: string;
  /** Where a stream of unknown length is spooled first: S3 needs the length up front. */
  tmpDir: string;
  clock: Clock;
}

// The SDK is loaded when the first S3 storage is made: local storage never pays for it.
const s3Sdk = lazyPackage<typeof import('@aws-sdk/client-s3')>('@aws-sdk/client-s3');
const presigner = lazyPackage<typeof import('@aws-sdk/s3-request-presigner')>(
  '@aws-sdk/s3-request-presigner',
);

const isNotFound = (error: unknown) =>
  error instanceof s3Sdk().S3ServiceException &&
  (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);

export function createS3Storage(options: S3StorageOptions): Storage {
  const { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } = s3Sdk();
  const { getSignedUrl } = presigner();
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    // The SDK's default checksums send streams as `aws-chunked` with trailers, which many
    // S3-compatible services (MinIO before 2024, s3rver, some R2 paths) store verbatim or refuse.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = options.bucket;

  function bucketUrl(): string {
    if (options.endpoint) {
      const endpoint = new URL(options.endpoint);
      if (options.forcePathStyle) return `${endpoint.origin}/${Bucket}`;
      return `${endpoint.protocol}//${Bucket}.${endpoint.host}`;
    }
    return `https://${Bucket}.s3.${options.region}.amazonaws.com`;
  }

  async function send(key: string, body: Readable, size: number, put: PutOptions) {
    // PutObject is all or nothing: an interrupted body leaves no object.
    await client.send(
      new PutObjectCommand({
        Bucket,
        Key: key,
        Body: body,
        ContentLength: size,
        ContentType: put.attachment ? servedContentType(put.contentType) : put.contentType,
        ContentDisposition: put.attachment ? `attachment; filename="${path.posix.basename(key)}"` : undefined,
      }),
    );
  }

  return {
    driver: 's3',
    // Public keys from the CDN (or the bucket), private ones through presigned bucket URLs.
    browserOrigins: [
      ...new Set([options.publicBaseUrl ?? bucketUrl(), bucketUrl()].map((u) => new URL(u).origin)),
    ],

    async put(key: string, body: Readable, put: PutOptions) {
      assertSafeKey(key);
      if (put.size !== undefined) {
        if (put.maxBytes !== undefined && put.size > put.maxBytes) {
          body.destroy();
          throw new StorageLimitError(put.maxBytes);
        }
        await send(key, body, put.size, put);
        return { size: put.size };
      }
      await mkdir(options.tmpDir, { recursive: true });
      const tmp = path.join(options.tmpDir, randomUUID());
      try {
        const size = await spoolToFile(body, tmp, put.maxBytes);
        await send(key, createReadStream(tmp), size, put);
        return { size };
      } finally {
        await rm(tmp, { force: true });
      }
    },

    async get(key: string) {
      assertSafeKey(key);
      try {
        const out = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        return {
          body: out.Body as Readable,
          contentType: out.ContentType ?? 'application/octet-stream',
          size: out.ContentLength ?? 0,
        };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },

    async exists(key: string) {
      assertSafeKey(key);
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    },

    async delete(key: string) {
      assertSafeKey(key);
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },

    async signedUrl(key: string, expiresInSeconds: number) {
      assertSafeKey(key);
      const signingDate = options.clock.now();
      const url = await getSignedUrl(client, new GetObjectCommand({ Bucket, Key: key }), {
        expiresIn: expiresInSeconds,
        signingDate,
      });
      return { url, expiresAt: signingDate.getTime() + expiresInSeconds * 1000 };
    },

    publicUrl(key: string) {
      assertSafeKey(key);
      return `${(options.publicBaseUrl ?? bucketUrl()).replace(/\/+$/, '')}/${key}`;
    },

    async close() {
      client.destroy();
    },
  };
}
