// Files on the local disk under `DATA_DIR/storage`, served by the API at `/files/<key>`:
// public keys as they are, private keys with an expiring HMAC signature.
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Clock } from '../clock';
import { constantTimeEqual, hmacSha256Hex } from '../security/tokens';
import { assertSafeKey, type ObjectUrl, type PutOptions, type Storage, spoolToFile } from './storage';

export interface LocalStorageOptions {
  /** Root folder; objects live under it by key, their content types under `.meta/`. */
  root: string;
  /** `{PUBLIC_BASE_URL}`: URLs are `{baseUrl}/files/<key>`. */
  baseUrl: string;
  signingSecret: string;
  clock: Clock;
}

/** The signed value of a private URL: the key and its expiry, which no key can contain. */
export const localUrlSignature = (secret: string, key: string, expires: string) =>
  hmacSha256Hex(secret, `${key}\n${expires}`);

export function createLocalStorage(options: LocalStorageOptions): Storage {
  const root = path.resolve(options.root);
  const objectPath = (key: string) => {
    assertSafeKey(key);
    return path.join(root, ...key.split('/'));
  };
  // `.meta` cannot collide with a key: a safe key's segments never start with a dot.
  const metaPath = (key: string) => `${path.join(root, '.meta', ...key.split('/'))}.json`;
  const fileUrl = (key: string) => `${options.baseUrl}/files/${key}`;

  async function readContentType(key: string): Promise<string> {
    try {
      const meta = JSON.parse(await readFile(metaPath(key), 'utf8')) as { contentType?: unknown };
      if (typeof meta.contentType === 'string') return meta.contentType;
    } catch {
      // no metadata: a file put there by hand
    }
    return 'application/octet-stream';
  }

  return {
    driver: 'local',
    browserOrigins: [new URL(options.baseUrl).origin],

    async put(key: string, body: Readable, put: PutOptions) {
      const target = objectPath(key);
      const tmpDir = path.join(root, '.tmp');
      await mkdir(tmpDir, { recursive: true });
      await mkdir(path.dirname(target), { recursive: true });
      await mkdir(path.dirname(metaPath(key)), { recursive: true });
      // Written aside, then renamed: readers never see half a file, and a failure leaves none.
      const tmp = path.join(tmpDir, randomUUID());
      const size = await spoolToFile(body, tmp, put.maxBytes);
      try {
        await writeFile(metaPath(key), JSON.stringify({ contentType: put.contentType }));
        await rename(tmp, target);
      } catch (error) {
        await rm(tmp, { force: true });
        await rm(metaPath(key), { force: true });
        throw error;
      }
      return { size };
    },

    async get(key: string) {
      const file = objectPath(key);
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) return null;
      return { body: createReadStream(file), contentType: await readContentType(key), size: info.size };
    },

    async exists(key: string) {
      const info = await stat(objectPath(key)).catch(() => undefined);
      return Boolean(info?.isFile());
    },

    async delete(key: string) {
      await rm(objectPath(key), { force: true });
      await rm(metaPath(key), { force: true });
    },

    async signedUrl(key: string, expiresInSeconds: number): Promise<ObjectUrl> {
      assertSafeKey(key);
      const expires = String(Math.floor(options.clock.now().getTime() / 1000) + expiresInSeconds);
      const signature = localUrlSignature(options.signingSecret, key, expires);
      return {
        url: `${fileUrl(key)}?expires=${expires}&signature=${signature}`,
        expiresAt: Number(expires) * 1000,
      };
    },

    publicUrl(key: string) {
      assertSafeKey(key);
      return fileUrl(key);
    },

    verifySignedUrl(key, expires, signature) {
      if (!expires || !signature || !/^\d{1,12}$/.test(expires)) return false;
      if (Number(expires) * 1000 <= options.clock.now().getTime()) return false;
      return constantTimeEqual(signature, localUrlSignature(options.signingSecret, key, expires));
    },

    async close() {},
  };
}
