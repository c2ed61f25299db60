// One contract, two adapters: local disk and S3 (against a real s3rver) must behave alike.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/platform/clock';
import { installErrorHandling } from '../../src/platform/http/error-handler';
import type { ApiApp } from '../../src/platform/module';
import { registerFilesRoute } from '../../src/platform/storage/files';
import { createLocalStorage } from '../../src/platform/storage/local-storage';
import { createS3Storage } from '../../src/platform/storage/s3-storage';
import { isSafeKey, type Storage, StorageLimitError } from '../../src/platform/storage/storage';
import { startS3, type TestS3 } from '../modules/uploads/s3-server';

/** A clock that follows real time (S3 servers check expiry against theirs), shiftable. */
class ShiftClock implements Clock {
  offsetMs = 0;
  /** When set, time stands still here (for assertions on exact signing times). */
  frozenAt: Date | undefined;
  now() {
    return new Date(this.frozenAt ?? Date.now() + this.offsetMs);
  }
}

interface Fetched {
  status: number;
  body: Buffer;
  contentType: string | undefined;
}

interface Harness {
  storage: Storage;
  clock: ShiftClock;
  /** Reads a URL the adapter produced, the way a client would. */
  fetchUrl(url: string): Promise<Fetched>;
  close(): Promise<void>;
}

const bytes = (text: string) => Buffer.from(text, 'utf8');

/** A body that sends `chunks` and then fails, like a client that disconnects half way. */
function failingStream(chunks: Buffer[]): Readable {
  let i = 0;
  return new Readable({
    read() {
      if (i < chunks.length) this.push(chunks[i++]);
      else this.destroy(new Error('client went away'));
    },
  });
}

async function localHarness(): Promise<Harness> {
  const root = mkdtempSync(path.join(tmpdir(), 'pasal-storage-'));
  const clock = new ShiftClock();
  const storage = createLocalStorage({
    root,
    baseUrl: 'http://files.test',
    signingSecret: 'storage-test-signing-secret-0123456789abcdef',
    clock,
  });
  const app = Fastify().withTypeProvider<ZodTypeProvider>() as unknown as ApiApp;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app, () => clock.now());
  registerFilesRoute(app, storage, () => clock.now());
  await app.ready();
  return {
    storage,
    clock,
    async fetchUrl(url) {
      const u = new URL(url);
      expect(u.origin).toBe('http://files.test');
      const res = await app.inject({ method: 'GET', url: u.pathname + u.search });
      return {
        status: res.statusCode,
        body: res.rawPayload,
        contentType: String(res.headers['content-type']),
      };
    },
    async close() {
      await app.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

async function s3Harness(s3: TestS3): Promise<Harness> {
  const clock = new ShiftClock();
  const tmp = mkdtempSync(path.join(tmpdir(), 'pasal-s3tmp-'));
  const storage = createS3Storage({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    bucket: s3.bucket,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    forcePathStyle: true,
    tmpDir: tmp,
    clock,
  });
  return {
    storage,
    clock,
    async fetchUrl(url) {
      const res = await fetch(url);
      return {
        status: res.status,
        body: Buffer.from(await res.arrayBuffer()),
        contentType: res.headers.get('content-type') ?? undefined,
      };
    },
    async close() {
      await storage.close();
      expect(readdirSync(tmp)).toEqual([]); // spooled bodies are always removed
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

let s3: TestS3;
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(() => s3?.close());

describe.each([
  ['local', () => localHarness()],
  ['s3', () => s3Harness(s3)],
] as const)('storage contract: %s', (driver, make) => {
  let h: Harness;
  beforeAll(async () => {
    h = await make();
  });
  afterAll(() => h.close());

  it('names its driver', () => {
    expect(h.storage.driver).toBe(driver);
  });

  it('stores a stream and reads back the same bytes, type and size', async () => {
    const key = 'uploads/file/contract-1.txt';
    const put = await h.storage.put(key, Readable.from([bytes('hello '), bytes('world')]), {
      contentType: 'text/plain',
    });
    expect(put.size).toBe(11);
    expect(await h.storage.exists(key)).toBe(true);
    const got = await h.storage.get(key);
    expect(got).not.toBeNull();
    expect(got!.contentType).toBe('text/plain');
    expect(got!.size).toBe(11);
    expect((await buffer(got!.body)).toString()).toBe('hello world');
  });

  it('stores a stream of known size', async () => {
    const key = 'uploads/file/contract-known.bin';
    const body = Buffer.alloc(70_000, 7);
    const put = await h.storage.put(key, Readable.from([body]), {
      contentType: 'application/octet-stream',
      size: body.length,
    });
    expect(put.size).toBe(body.length);
    expect((await buffer((await h.storage.get(key))!.body)).equals(body)).toBe(true);
  });

  it('answers null and false for a missing key, and deleting one is not an error', async () => {
    expect(await h.storage.get('uploads/file/missing.txt')).toBeNull();
    expect(await h.storage.exists('uploads/file/missing.txt')).toBe(false);
    await expect(h.storage.delete('uploads/file/missing.txt')).resolves.toBeUndefined();
  });

  it('deletes an object', async () => {
    const key = 'uploads/file/contract-delete.txt';
    await h.storage.put(key, Readable.from([bytes('x')]), { contentType: 'text/plain' });
    await h.storage.delete(key);
    expect(await h.storage.exists(key)).toBe(false);
    expect(await h.storage.get(key)).toBeNull();
  });

  it('refuses a stream over maxBytes and keeps nothing of it', async () => {
    const key = 'uploads/file/contract-big.bin';
    const chunks = Array.from({ length: 10 }, () => Buffer.alloc(1024, 1));
    await expect(
      h.storage.put(key, Readable.from(chunks), { contentType: 'application/octet-stream', maxBytes: 4096 }),
    ).rejects.toBeInstanceOf(StorageLimitError);
    expect(await h.storage.exists(key)).toBe(false);
  });

  it('leaves no object when the body fails half way', async () => {
    const key = 'uploads/file/contract-broken.bin';
    await expect(
      h.storage.put(key, failingStream([Buffer.alloc(2048, 2), Buffer.alloc(2048, 3)]), {
        contentType: 'application/octet-stream',
      }),
    ).rejects.toThrow('client went away');
    expect(await h.storage.exists(key)).toBe(false);
  });

  it('replaces an object stored under the same key', async () => {
    const key = 'uploads/file/contract-replace.txt';
    await h.storage.put(key, Readable.from([bytes('first')]), { contentType: 'text/plain' });
    await h.storage.put(key, Readable.from([bytes('second!')]), { contentType: 'text/markdown' });
    const got = await h.storage.get(key);
    expect(got!.contentType).toBe('text/markdown');
    expect((await buffer(got!.body)).toString()).toBe('second!');
  });

  it('gives a signed URL that reads a private key until it expires', async () => {
    const key = 'uploads/image/contract-signed.txt';
    await h.storage.put(key, Readable.from([bytes('secret')]), { contentType: 'text/plain' });
    const before = h.clock.now().getTime();
    const signed = await h.storage.signedUrl(key, 120);
    expect(signed.expiresAt).toBeGreaterThanOrEqual(before + 119_000);
    expect(signed.expiresAt).toBeLessThanOrEqual(before + 121_000);
    const res = await h.fetchUrl(signed.url);
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('secret');
    expect(res.contentType).toMatch(/^text\/plain/);
  });

  it('refuses an expired signed URL', async () => {
    const key = 'uploads/image/contract-expired.txt';
    await h.storage.put(key, Readable.from([bytes('old')]), { contentType: 'text/plain' });
    // Signed two hours ago for one minute: long expired by now.
    h.clock.offsetMs = -2 * 3600_000;
    const signed = await h.storage.signedUrl(key, 60);
    h.clock.offsetMs = 0;
    expect(signed.expiresAt).toBeLessThan(Date.now());
    const res = await h.fetchUrl(signed.url);
    expect(res.status).toBe(403);
    expect(res.body.toString()).not.toBe('old');
  });

  // s3rver does not check SigV4 signatures ("unimplemented" in its source); real S3 services
  // do. For S3 the adapter's part is the presigned query, checked in the next test.
  it.skipIf(driver === 's3')('refuses a signed URL whose signature was changed', async () => {
    const key = 'uploads/image/contract-tampered.txt';
    await h.storage.put(key, Readable.from([bytes('mine')]), { contentType: 'text/plain' });
    const signed = await h.storage.signedUrl(key, 600);
    const url = new URL(signed.url);
    const name = url.searchParams.has('signature') ? 'signature' : 'X-Amz-Signature';
    const sig = url.searchParams.get(name)!;
    url.searchParams.set(name, (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1));
    const res = await h.fetchUrl(url.toString());
    expect(res.status).toBe(403);
  });

  it.skipIf(driver === 's3')('refuses a signed URL moved to another key', async () => {
    const a = 'uploads/image/contract-a.txt';
    const b = 'uploads/image/contract-b.txt';
    await h.storage.put(a, Readable.from([bytes('a')]), { contentType: 'text/plain' });
    await h.storage.put(b, Readable.from([bytes('b')]), { contentType: 'text/plain' });
    const signed = await h.storage.signedUrl(a, 600);
    const res = await h.fetchUrl(signed.url.replace('contract-a.txt', 'contract-b.txt'));
    expect(res.status).toBe(403);
  });

  it.runIf(driver === 's3')(
    'presigns GET URLs with SigV4 for the key, lifetime and signing time',
    async () => {
      const at = new Date(Date.now() - 60_000);
      h.clock.frozenAt = at;
      const signed = await h.storage.signedUrl('uploads/image/contract-presigned.txt', 300).finally(() => {
        h.clock.frozenAt = undefined;
      });
      const url = new URL(signed.url);
      expect(url.pathname).toBe(`/${s3.bucket}/uploads/image/contract-presigned.txt`);
      expect(url.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
      expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
      expect(url.searchParams.get('X-Amz-Date')).toBe(`${at.toISOString().replace(/[-:]|\.\d{3}/g, '')}`);
      expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
      expect(signed.expiresAt).toBe(at.getTime() + 300_000);
    },
  );

  it('gives a permanent public URL ending in the key', async () => {
    const key = 'public/avatar/contract-public.txt';
    await h.storage.put(key, Readable.from([bytes('everyone')]), { contentType: 'text/plain' });
    const url = h.storage.publicUrl(key);
    expect(url.endsWith(`/${key}`)).toBe(true);
    expect(url).not.toMatch(/signature|X-Amz/i);
    const res = await h.fetchUrl(url);
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('everyone');
  });

  it('names the origins its public and signed URLs load from (the console CSP allows them)', async () => {
    const origins = h.storage.browserOrigins;
    expect(origins.length).toBeGreaterThan(0);
    const signed = await h.storage.signedUrl('uploads/image/contract-origin.png', 60);
    expect(origins).toContain(new URL(signed.url).origin);
    expect(origins).toContain(new URL(h.storage.publicUrl('public/avatar/contract-origin.png')).origin);
  });

  it('refuses keys that could leave the storage root', async () => {
    for (const key of [
      '../x',
      'uploads/../../etc/passwd',
      '/etc/passwd',
      'uploads\\..\\x',
      'uploads//x',
      '.meta/x',
    ]) {
      await expect(
        h.storage.put(key, Readable.from([bytes('x')]), { contentType: 'text/plain' }),
      ).rejects.toThrow(/Unsafe storage key/);
      await expect(h.storage.get(key)).rejects.toThrow(/Unsafe storage key/);
    }
  });
});

describe('isSafeKey', () => {
  it('accepts generated keys and refuses traversal, encodings, absolute and hidden paths', () => {
    expect(isSafeKey('uploads/image/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.webp')).toBe(true);
    expect(isSafeKey('public/avatar/a_b-c.png')).toBe(true);
    for (const bad of [
      '',
      '..',
      'a/../b',
      'a/..',
      '/a',
      'a\\b',
      'a/%2e%2e/b',
      'a//b',
      'a/.hidden',
      'a/b\u0000',
      'a/ b',
    ]) {
      expect(isSafeKey(bad), bad).toBe(false);
    }
  });
});

describe('storage settings', () => {
  it('require the bucket and its keys when STORAGE_DRIVER=s3', async () => {
    const { loadConfig } = await import('../../src/config');
    const base = { NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(32), URL_SIGNING_SECRET: 'y'.repeat(32) };
    expect(loadConfig(base).STORAGE_DRIVER).toBe('local');
    expect(() => loadConfig({ ...base, STORAGE_DRIVER: 's3' })).toThrow(
      /S3_BUCKET: must be set when STORAGE_DRIVER=s3[\s\S]*S3_ACCESS_KEY_ID[\s\S]*S3_SECRET_ACCESS_KEY/,
    );
    const ok = loadConfig({
      ...base,
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'b',
      S3_ACCESS_KEY_ID: 'k',
      S3_SECRET_ACCESS_KEY: 's',
    });
    expect(ok).toMatchObject({
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: false,
      UPLOAD_MAX_FILE_SIZE_MB: 50,
    });
    expect(ok.UPLOAD_IMAGE_MAX_DIMENSION).toBe(2560);
  });
});

describe('browserOrigins', () => {
  it('S3 behind a CDN: the CDN for public keys and the bucket for presigned reads', async () => {
    const tmp = mkdtempSync(path.join(tmpdir(), 'pasal-s3tmp-'));
    const storage = createS3Storage({
      region: 'ap-south-1',
      bucket: 'shop-uploads',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      forcePathStyle: false,
      publicBaseUrl: 'https://cdn.shop.example/files',
      tmpDir: tmp,
      clock: new ShiftClock(),
    });
    try {
      expect(storage.browserOrigins).toEqual([
        'https://cdn.shop.example',
        'https://shop-uploads.s3.ap-south-1.amazonaws.com',
      ]);
      const signed = await storage.signedUrl('uploads/image/a.png', 60);
      expect(new URL(signed.url).origin).toBe('https://shop-uploads.s3.ap-south-1.amazonaws.com');
    } finally {
      await storage.close();
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
