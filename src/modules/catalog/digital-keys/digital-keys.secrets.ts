// How key values are kept: AES-256-GCM bound to the product (a value copied to another
// product's row does not decrypt), and an HMAC digest that finds duplicates without decrypting.
import type { Config } from '../../../config';
import { createEncryptor, DecryptionError, type Encryptor } from '../../../platform/security/encryption';
import { hmacSha256Hex } from '../../../platform/security/tokens';

export interface KeyVault {
  seal(productId: number, value: string): string;
  open(productId: number, sealed: string): string;
  digest(value: string): string;
}

/** The usual cause: a backup restored under another secret (secrets are never in a backup). */
export class DigitalKeysSecretMismatch extends Error {
  override name = 'DigitalKeysSecretMismatch';
}

export function keyVault(config: Pick<Config, 'DIGITAL_KEYS_SECRET' | 'JWT_SECRET'>): KeyVault {
  const secret = config.DIGITAL_KEYS_SECRET ?? hmacSha256Hex(config.JWT_SECRET, 'digital-keys');
  const box: Encryptor = createEncryptor(secret, 'digital-keys');
  const digestKey = hmacSha256Hex(secret, 'digital-key-digest');
  return {
    seal: (productId, value) => box.encrypt(value, `product:${productId}`),
    open: (productId, sealed) => {
      try {
        return box.decrypt(sealed, `product:${productId}`);
      } catch (error) {
        if (!(error instanceof DecryptionError)) throw error;
        throw new DigitalKeysSecretMismatch(
          `A stored licence key of product ${productId} cannot be decrypted: this server's ${config.DIGITAL_KEYS_SECRET ? 'DIGITAL_KEYS_SECRET' : 'JWT_SECRET (DIGITAL_KEYS_SECRET is unset)'} is not the secret the key was stored with. After restoring a backup, set the DIGITAL_KEYS_SECRET (or JWT_SECRET) of the server the backup came from.`,
        );
      }
    },
    digest: (value) => hmacSha256Hex(digestKey, value),
  };
}

/**
 * What a list shows of a key: its last characters only, enough to tell keys apart on a
 * support call. Short keys show less, and keys of 4 characters or fewer nothing.
 */
export function maskKey(value: string): string {
  const chars = [...value];
  const shown = chars.length >= 12 ? 4 : chars.length >= 8 ? 2 : chars.length > 4 ? 1 : 0;
  return `****${chars.slice(chars.length - shown).join('')}`;
}

/** The keys of a payload, trimmed, blanks dropped: one per array entry or one per line. */
export function keysOf(body: { keys: string[] } | { text: string }): string[] {
  const raw = 'keys' in body ? body.keys : body.text.split(/\r?\n/);
  return raw.map((k) => k.trim()).filter(Boolean);
}
