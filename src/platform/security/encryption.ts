// Authenticated encryption (AES-256-GCM) for secrets the server must read back later, such as
// an identity provider's tokens. The key is derived from a server secret per purpose, so one
// secret can serve several uses without one ciphertext being readable as another's.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12; // the size GCM is specified for; other sizes are hashed down to it
const TAG_BYTES = 16;

export interface Encryptor {
  /** `v1.<iv>.<ciphertext>.<tag>`, base64url parts. `context` must be given again to decrypt. */
  encrypt(plaintext: string, context?: string): string;
  /** Throws when the value was altered, was made with another key or context, or is malformed. */
  decrypt(sealed: string, context?: string): string;
}

export class DecryptionError extends Error {
  override name = 'DecryptionError';
}

/** An encryptor whose key is HKDF-SHA256(secret, info = purpose). */
export function createEncryptor(secret: string, purpose: string): Encryptor {
  if (!secret) throw new Error('createEncryptor needs a secret');
  const key = Buffer.from(hkdfSync('sha256', secret, '', `pasal:${purpose}`, 32));

  return {
    encrypt(plaintext, context = '') {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, iv, body, cipher.getAuthTag()]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    decrypt(sealed, context = '') {
      const [version, iv, body, tag, ...rest] = sealed.split('.');
      if (version !== VERSION || iv === undefined || body === undefined || tag === undefined || rest.length) {
        throw new DecryptionError('not a value this encryptor made');
      }
      const ivBytes = Buffer.from(iv, 'base64url');
      const tagBytes = Buffer.from(tag, 'base64url');
      if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) {
        throw new DecryptionError('not a value this encryptor made');
      }
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, ivBytes, { authTagLength: TAG_BYTES });
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(tagBytes);
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        throw new DecryptionError('the value was altered, or made with another key or context');
      }
    },
  };
}
