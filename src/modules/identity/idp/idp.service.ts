// Customer sign-in through an OpenID Connect provider (docs/decisions.md, "Identity provider (customers)").
// start: a signed state whose secrets (PKCE verifier, nonce, frontend redirect) stay in the
// database under the state's id; callback: consumes that record once, redeems the provider's
// code and leaves the result behind a one-time code for the frontend; exchange: consumes that
// code once and applies the sign-in rules of the interface in one transaction.
import { z } from 'zod';
import { isUniqueViolation } from '../../../platform/db/errors';
import { inTransaction } from '../../../platform/db/transaction';
import { publishEvent } from '../../../platform/events/events';
import { AppError } from '../../../platform/http/errors';
import { newUuid } from '../../../platform/ids';
import type { ModuleContext } from '../../../platform/module';
import { createEncryptor, type Encryptor } from '../../../platform/security/encryption';
import { constantTimeEqual, hmacSha256Hex } from '../../../platform/security/tokens';
import { type AuthDeps, type DeviceInfo, type SignedIn, signIn } from '../auth/auth.service';
import { consumeToken, issueCode } from '../auth/one-time-codes';
import { identityErrors } from '../identity.errors';
import * as core from '../identity.repository';
import { CUSTOMER_ROLE } from '../identity.service';
import {
  type IdpClient,
  IdpProviderError,
  IdpUnavailableError,
  newSignInSecrets,
  type ProviderTokens,
} from './idp.client';
import { type IdpRedirectError, idpErrors, idpRedirectErrors } from './idp.errors';
import * as repo from './idp.repository';

export type IdpDeps = AuthDeps & Pick<ModuleContext, 'log'> & { idp: IdpClient | undefined };

export const callbackUrlOf = (config: AuthDeps['config']) =>
  config.IDP_CALLBACK_URL ?? `${config.PUBLIC_BASE_URL}/api/mobile/auth/idp/callback`;

// ---------- signed state ----------

/** The state's signing key: its own secret, or one derived from JWT_SECRET for this use only. */
const stateKey = (config: AuthDeps['config']) =>
  config.IDP_OAUTH_STATE_SECRET ?? hmacSha256Hex(config.JWT_SECRET, 'idp-state');

const stateSignature = (key: string, body: string) =>
  Buffer.from(hmacSha256Hex(key, body), 'hex').toString('base64url');

/** `<state id>.<expiry, ms since epoch>.<HMAC-SHA256>`; the id is base64url, so has no dot. */
function signState(key: string, stateId: string, expiresAt: Date): string {
  const body = `${stateId}.${expiresAt.getTime()}`;
  return `${body}.${stateSignature(key, body)}`;
}

/** The state id of a genuine, unexpired state; undefined for anything else. */
function verifyState(key: string, state: string, now: Date): string | undefined {
  if (state.length > 512) return undefined;
  const [stateId, expiry, signature, ...rest] = state.split('.');
  if (!stateId || !expiry || !signature || rest.length || !/^\d{1,15}$/.test(expiry)) return undefined;
  if (!constantTimeEqual(signature, stateSignature(key, `${stateId}.${expiry}`))) return undefined;
  return Number(expiry) > now.getTime() ? stateId : undefined;
}

// ---------- what the one-time rows carry ----------

const statePayload = z.object({
  pkceCodeVerifier: z.string(),
  nonce: z.string(),
  redirectUri: z.string(),
});

const exchangePayload = z.object({
  issuer: z.string(),
  subject: z.string(),
  email: z.string().optional(),
  emailVerified: z.boolean().optional(),
  name: z.string().optional(),
  picture: z.string().optional(),
  tokensEncrypted: z.string(),
});
type ExchangePayload = z.output<typeof exchangePayload>;

// ---------- provider tokens, encrypted at rest ----------

const tokenBox = (config: AuthDeps['config']): Encryptor => createEncryptor(config.JWT_SECRET, 'idp-tokens');
/** Binds a ciphertext to its provider account, so it cannot be moved to another link. */
const tokenContext = (issuer: string, subject: string) => JSON.stringify([issuer, subject]);

export interface StoredProviderTokens extends Omit<ProviderTokens, 'expires_in'> {
  /** When the access token expires, when the provider said. */
  expires_at?: string;
}

/** The provider tokens stored on a link (for features that call the provider for a customer). */
export function openProviderTokens(
  config: AuthDeps['config'],
  link: { issuer: string; subject: string; tokensEncrypted: string },
): StoredProviderTokens {
  return JSON.parse(
    tokenBox(config).decrypt(link.tokensEncrypted, tokenContext(link.issuer, link.subject)),
  ) as StoredProviderTokens;
}

// ---------- start ----------

function requireIdp(deps: IdpDeps): IdpClient {
  if (!deps.idp) throw idpErrors.notConfigured();
  return deps.idp;
}

/** Exactly one of the allowlisted URLs (no prefix or pattern matching), and a URL at all. */
const isAllowedRedirect = (config: AuthDeps['config'], uri: string) =>
  config.IDP_OAUTH_REDIRECT_ALLOWLIST.includes(uri) && URL.canParse(uri);

/** The provider's authorization URL for a new sign-in that will return to `redirectUri`. */
export async function startSignIn(deps: IdpDeps, input: { redirectUri: string }): Promise<string> {
  const idp = requireIdp(deps);
  if (!isAllowedRedirect(deps.config, input.redirectUri)) throw idpErrors.redirectNotAllowed();
  try {
    await idp.ensureDiscovered();
  } catch (error) {
    if (!(error instanceof IdpUnavailableError)) throw error;
    deps.log.error({ err: error }, 'identity provider discovery failed');
    throw idpErrors.unavailable();
  }
  const secrets = newSignInSecrets();
  const { token: stateId, expiresAt } = await issueCode({
    db: deps.db,
    clock: deps.clock,
    purpose: 'idp_state',
    // A key of its own per sign-in: issueCode retires live rows of the same target, and two
    // people signing in at once must not cancel each other.
    target: newUuid(),
    ttlMs: deps.config.IDP_OAUTH_STATE_TTL_SECONDS * 1000,
    withCode: false,
    payload: { ...secrets, redirectUri: input.redirectUri },
  });
  const state = signState(stateKey(deps.config), stateId!, expiresAt);
  return (await idp.authorizationUrl({ state, ...secrets })).href;
}

// ---------- callback ----------

function withQuery(base: string, query: Record<string, string>): string {
  const url = new URL(base);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.href;
}

/**
 * Handles the provider's redirect. Answers where to send the browser: the frontend's
 * `redirect_uri` with `code=` (a one-time code, never a bearer token) or `error=`. A state that
 * is not genuine, has expired or was used throws instead: there is no trusted place to go back to.
 */
export async function completeCallback(deps: IdpDeps, input: { rawQuery: string }): Promise<string> {
  const idp = requireIdp(deps);
  const params = new URLSearchParams(input.rawQuery);
  const states = params.getAll('state');
  const stateId =
    states.length === 1 ? verifyState(stateKey(deps.config), states[0]!, deps.clock.now()) : undefined;
  if (!stateId) throw idpErrors.stateInvalid();
  const row = await consumeToken({ db: deps.db, clock: deps.clock, purpose: 'idp_state', token: stateId });
  const flow = statePayload.safeParse(row?.payload);
  if (!row || !flow.success) throw idpErrors.stateInvalid();
  const { redirectUri, pkceCodeVerifier, nonce } = flow.data;
  // The allowlist is checked again: it may have shrunk since the sign-in started.
  if (!isAllowedRedirect(deps.config, redirectUri)) throw idpErrors.redirectNotAllowed();
  const back = (query: Record<string, string>) => withQuery(redirectUri, query);
  const fail = (error: IdpRedirectError) => back({ error });

  const providerError = params.get('error');
  if (providerError !== null) {
    deps.log.info({ providerError: providerError.slice(0, 100) }, 'identity provider returned an error');
    return fail(
      providerError === 'access_denied' ? idpRedirectErrors.accessDenied : idpRedirectErrors.providerError,
    );
  }

  let result: Awaited<ReturnType<IdpClient['completeSignIn']>>;
  try {
    result = await idp.completeSignIn({
      callbackQuery: input.rawQuery,
      expectedState: states[0]!,
      expectedNonce: nonce,
      pkceCodeVerifier,
    });
  } catch (error) {
    if (error instanceof IdpUnavailableError) {
      deps.log.error({ err: error }, 'identity provider discovery failed');
      return fail(idpRedirectErrors.unavailable);
    }
    if (error instanceof IdpProviderError) {
      deps.log.warn({ err: error }, 'identity provider sign-in failed');
      return fail(idpRedirectErrors.providerError);
    }
    throw error;
  }

  const { identity, tokens } = result;
  const now = deps.clock.now();
  const { expires_in, ...rest } = tokens;
  const stored: StoredProviderTokens = {
    ...rest,
    expires_at:
      expires_in === undefined ? undefined : new Date(now.getTime() + expires_in * 1000).toISOString(),
  };
  const payload: ExchangePayload = {
    issuer: identity.issuer,
    subject: identity.subject,
    email: identity.email,
    emailVerified: identity.emailVerified,
    name: identity.name,
    picture: identity.picture,
    tokensEncrypted: tokenBox(deps.config).encrypt(
      JSON.stringify(stored),
      tokenContext(identity.issuer, identity.subject),
    ),
  };
  const { token: code } = await issueCode({
    db: deps.db,
    clock: deps.clock,
    purpose: 'idp_exchange',
    target: row.target, // the sign-in's own key, shared with its state row
    ttlMs: deps.config.IDP_OAUTH_CODE_TTL_SECONDS * 1000,
    withCode: false,
    payload: JSON.parse(JSON.stringify(payload)), // jsonb: no undefined members
  });
  return back({ code: code! });
}

// ---------- exchange ----------

const emailSchema = z.email();
const normalizeEmail = (email: string | undefined) => {
  const value = email?.trim().toLowerCase();
  return value && emailSchema.safeParse(value).success ? value : undefined;
};

/** `user` undefined: a new customer is to be created. */
type Resolution = { user?: core.UserRow; link?: repo.LinkRow; email: string } | { error: AppError };

/** The sign-in rules of the interface, as reads only: which account, or which refusal. */
async function resolveAccount(tx: AuthDeps['db'], p: ExchangePayload): Promise<Resolution> {
  const email = normalizeEmail(p.email);
  if (!email) return { error: idpErrors.emailRequired() };
  const byEmail = await core.findUserByEmail(tx, email);
  if (byEmail && byEmail.role !== CUSTOMER_ROLE) return { error: idpErrors.adminAccount() };

  const link = await repo.findLink(tx, p.issuer, p.subject);
  // A known provider account signs in to the customer it is linked to, whatever its email now.
  const linked = link ? await core.findUserById(tx, link.userId) : undefined;
  if (link && linked) {
    if (linked.role !== CUSTOMER_ROLE) return { error: idpErrors.adminAccount() };
    if (!linked.isActive || linked.anonymizedAt) return { error: idpErrors.accountDisabled() };
    return { user: linked, link, email };
  }
  // Matching or creating an account by email trusts the address: not when the provider doubts it.
  if (p.emailVerified === false) return { error: idpErrors.emailNotVerified() };
  if (byEmail && (!byEmail.isActive || byEmail.anonymizedAt)) return { error: idpErrors.accountDisabled() };
  return { user: byEmail, email };
}

/** Two first sign-ins of one person at once: the loser's insert collides; it runs again and finds the row. */
const isSignInRace = (error: unknown) =>
  (error instanceof AppError && error.errorCode === identityErrors.emailAlreadyExists().errorCode) ||
  isUniqueViolation(error, 'identity_provider_links_issuer_subject_unique');

/**
 * Redeems a one-time code for a session. The code is consumed in the same transaction as the
 * account writes; a refusal (no email, staff address…) still uses the code up.
 */
export async function exchangeCode(
  deps: IdpDeps,
  input: { code: string; deviceInfo?: DeviceInfo },
): Promise<SignedIn> {
  requireIdp(deps);
  const attempt = () =>
    inTransaction(deps.db, async (tx): Promise<{ signedIn: SignedIn } | { error: AppError }> => {
      const row = await consumeToken({
        db: tx,
        clock: deps.clock,
        purpose: 'idp_exchange',
        token: input.code,
      });
      const parsed = exchangePayload.safeParse(row?.payload);
      if (!row || !parsed.success) return { error: idpErrors.codeInvalid() };
      const p = parsed.data;
      const resolved = await resolveAccount(tx, p);
      if ('error' in resolved) return resolved;

      const now = deps.clock.now();
      let user = resolved.user;
      if (!user) {
        user = await core.insertUser(tx, {
          id: newUuid(),
          name: p.name ?? resolved.email.split('@')[0]!,
          email: resolved.email,
          image: p.picture ?? null,
          role: CUSTOMER_ROLE,
          passwordHash: null,
          emailVerified: true,
          createdAt: now,
          updatedAt: now,
        });
        await publishEvent(tx, 'customer.registered', { customerId: user.id });
      } else if (!user.emailVerified && user.email === resolved.email && p.emailVerified !== false) {
        // The provider vouches for the address, as the verification email would have.
        user = (await core.updateUser(tx, user.id, { emailVerified: true, updatedAt: now })) ?? user;
      }
      if (resolved.link) {
        await repo.updateLinkTokens(tx, resolved.link.id, {
          email: resolved.email,
          tokensEncrypted: p.tokensEncrypted,
          at: now,
        });
      } else {
        await repo.insertLink(tx, {
          userId: user.id,
          issuer: p.issuer,
          subject: p.subject,
          email: resolved.email,
          tokensEncrypted: p.tokensEncrypted,
          at: now,
        });
      }
      return { signedIn: await signIn({ ...deps, db: tx }, user, 'customer', input.deviceInfo) };
    });

  for (let tries = 1; ; tries++) {
    try {
      const outcome = await attempt();
      if ('error' in outcome) throw outcome.error;
      return outcome.signedIn;
    } catch (error) {
      if (tries < 3 && isSignInRace(error)) continue;
      throw error;
    }
  }
}
