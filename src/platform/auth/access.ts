// Every API route declares who may call it (`config: { access }`); one onRequest hook
// enforces it (see http/access-hook.ts). A route without a declaration cannot be registered.
import type { AppError } from '../http/errors';

export type Access =
  | { kind: 'public' }
  /** Public, but a valid customer JWT, when sent, identifies the caller. */
  | { kind: 'optionalCustomer' }
  /**
   * An admin JWT; with `permission`, the admin's role must hold it. `duringEnrolment`: also
   * open to an admin who must still turn on two-factor sign-in (the enrolment routes).
   */
  | { kind: 'admin'; permission?: string; duringEnrolment?: boolean }
  | { kind: 'customer'; permission?: string }
  /** A customer JWT or a guest credential of `guestPrefix`; `guestDenied` when neither is valid. */
  | { kind: 'customerOrGuest'; guestPrefix: string; guestDenied: () => AppError };

export const access = {
  public: (): Access => ({ kind: 'public' }),
  optionalCustomer: (): Access => ({ kind: 'optionalCustomer' }),
  admin: (permission?: string, opts: { duringEnrolment?: boolean } = {}): Access => ({
    kind: 'admin',
    permission,
    ...(opts.duringEnrolment ? { duringEnrolment: true } : {}),
  }),
  customer: (permission?: string): Access => ({ kind: 'customer', permission }),
  customerOrGuest: (guestPrefix: string, guestDenied: () => AppError): Access => ({
    kind: 'customerOrGuest',
    guestPrefix,
    guestDenied,
  }),
};

/** A module's permission codes, `<Module>_<ACTION>`, as a typed record: `perms.READ`. */
export function definePermissions<const A extends readonly string[]>(
  module: string,
  actions: A,
): { readonly [K in A[number]]: `${typeof module}_${K}` } & {
  readonly module: string;
  readonly codes: string[];
} {
  const codes = actions.map((a) => `${module}_${a}`);
  return Object.freeze({
    ...Object.fromEntries(actions.map((a, i) => [a, codes[i]])),
    module,
    codes,
  }) as never;
}
