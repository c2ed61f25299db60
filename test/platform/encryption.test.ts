// AES-256-GCM sealing of stored secrets: what comes out is what went in, and anything altered,
// or opened with another key, purpose or context, is refused rather than misread.
import { describe, expect, it } from 'vitest';
import { createEncryptor, DecryptionError } from '../../src/platform/security/encryption';

const SECRET = 'a-server-secret-that-is-long-enough-0123456789';

describe('encryption', () => {
  const box = createEncryptor(SECRET, 'tests');

  it('decrypts what it encrypted, unicode and empty strings included', () => {
    for (const text of ['{"access_token":"abc"}', 'नमस्ते 🙏', '']) {
      expect(box.decrypt(box.encrypt(text))).toBe(text);
    }
  });

  it('does not show the plaintext and never repeats a ciphertext (random IV)', () => {
    const a = box.encrypt('provider-refresh-token');
    const b = box.encrypt('provider-refresh-token');
    expect(a).not.toBe(b);
    expect(a).not.toContain('provider-refresh-token');
    expect(Buffer.from(a.split('.')[2]!, 'base64url').toString()).not.toContain('provider');
    expect(a).toMatch(/^v1\.[\w-]{16}\.[\w-]+\.[\w-]{22}$/);
  });

  it('a key made again from the same secret and purpose opens it (survives a restart)', () => {
    const sealed = box.encrypt('kept across restarts');
    expect(createEncryptor(SECRET, 'tests').decrypt(sealed)).toBe('kept across restarts');
  });

  it('another secret or another purpose cannot open it', () => {
    const sealed = box.encrypt('secret');
    expect(() => createEncryptor(`${SECRET}x`, 'tests').decrypt(sealed)).toThrow(DecryptionError);
    expect(() => createEncryptor(SECRET, 'other-purpose').decrypt(sealed)).toThrow(DecryptionError);
  });

  it('a value sealed for one context does not open in another', () => {
    const sealed = box.encrypt('tokens of link 1', 'link:1');
    expect(box.decrypt(sealed, 'link:1')).toBe('tokens of link 1');
    expect(() => box.decrypt(sealed, 'link:2')).toThrow(DecryptionError);
    expect(() => box.decrypt(sealed)).toThrow(DecryptionError);
  });

  it('any altered part is refused', () => {
    const sealed = box.encrypt('do not touch');
    const parts = sealed.split('.');
    for (const index of [1, 2, 3]) {
      const bytes = Buffer.from(parts[index]!, 'base64url');
      bytes[0] = (bytes[0] ?? 0) ^ 1;
      const altered = parts.map((p, i) => (i === index ? bytes.toString('base64url') : p)).join('.');
      expect(() => box.decrypt(altered)).toThrow(DecryptionError);
    }
  });

  it('malformed values are refused with the same error', () => {
    const sealed = box.encrypt('x');
    const [, iv, body, tag] = sealed.split('.');
    for (const bad of [
      '',
      'garbage',
      `v2.${iv}.${body}.${tag}`,
      `v1.${iv}.${body}`,
      `${sealed}.extra`,
      `v1..${body}.${tag}`,
    ]) {
      expect(() => box.decrypt(bad)).toThrow(DecryptionError);
    }
  });
});
