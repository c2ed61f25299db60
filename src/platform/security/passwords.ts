import { lazyPackage } from '../lazy';

// A native addon, loaded by the first password hashed or checked, not at start-up (lazy.ts).
const argon2 = lazyPackage<typeof import('@node-rs/argon2')>('@node-rs/argon2');

// argon2id with the library's defaults (m=19 MiB, t=2, p=1): about 10 ms here.
export const hashPassword = (password: string): Promise<string> => argon2().hash(password, { algorithm: 2 });

export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await argon2().verify(storedHash, password);
  } catch {
    return false; // a malformed stored hash is a failed login, not a 500
  }
}

let dummyHash: Promise<string> | undefined;
/**
 * Spends the time of a real verification when there is no account, so a login's timing
 * does not tell whether an email is registered.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('dummy-password-for-timing');
  await verifyPassword(await dummyHash, password);
  return false;
}
