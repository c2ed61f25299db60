import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** An opaque secret with `bytes` of entropy, base64url, optionally prefixed (`si_`). */
export function randomToken(bytes = 32, prefix = ''): string {
  return prefix + randomBytes(bytes).toString('base64url');
}

/** SHA-256 hex digest: how single-use secrets and tokens are stored. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function hmacSha256Hex(secret: string, value: string): string {
  return createHmac('sha256', secret).update(value).digest('hex');
}

/** Compares two strings in time independent of where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) {
    timingSafeEqual(left, left); // spend the same time as a real comparison
    return false;
  }
  return timingSafeEqual(left, right);
}
