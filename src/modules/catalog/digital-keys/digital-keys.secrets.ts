// How key values are kept: AES-256-GCM bound to the product (a value copied to another
// product's row does not decrypt), and an HMAC digest that finds duplicates without decrypting.
import type { Config } from '../../../config';
import { createEncryptor, type Encryptor } from '../../../platform/security/encryption';
import { hmacSha256Hex } from '../../../platform/security/tokens';

export interface KeyVault {
  seal(productId: number, value: string): string;
  open(productId: number, sealed: string): string;
  digest(value: string): string;
}

export function keyVault(config: Pick<Config, 'DIGITAL_KEYS_SECRET' | 'JWT_SECRET'>): KeyVault {
  const secret = config.DIGITAL_KEYS_SECRET ?? hmacSha256Hex(config.JWT_SECRET, 'digital-keys');
  const box: Encryptor = createEncryptor(secret, 'digital-keys');
  const digestKey = hmacSha256Hex(secret, 'digital-key-digest');
  return {
    seal: (productId, value) => box.encrypt(value, `product:${productId}`),
    open: (productId, sealed) => box.decrypt(sealed, `product:${productId}`),
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
