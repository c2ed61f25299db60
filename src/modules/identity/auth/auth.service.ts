// Sign-in flows of both surfaces (admin `/api/auth`, customer `/api/mobile/auth`): login,
// registration, refresh, logout, passwords, email and phone verification, account deletion.
// Rules from docs/decisions.md, "Accounts and sessions".

import { type AfterCommit, inTransaction } from '../../../platform/db/transaction';
import { publishEvent } from '../../../platform/events/events';
import { httpErrors } from '../../../platform/http/errors';
import { newUuid } from '../../../platform/ids';
import type { JobDefinition } from '../../../platform/jobs/jobs';
import type { MailMessage } from '../../../platform/mail/mailer';
import type { ModuleContext } from '../../../platform/module';
import type { Actor } from '../../../platform/security/jwt';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../../../platform/security/passwords';
import { identityErrors } from '../identity.errors';
import * as core from '../identity.repository';
import {
  CUSTOMER_ROLE,
  disconnectSessions,
  endAllSessions,
  refreshSession,
  type SessionTokens,
  startSession,
} from '../identity.service';
import { twoFactorErrors } from '../two-factor/two-factor.errors';
import * as twoFactor from '../two-factor/two-factor.service';
import { authErrors } from './auth.errors';
import {
  adminInvitationEmail,
  type CodeMail,
  passwordResetEmail,
  phoneVerificationSms,
  verificationEmail,
  welcomeEmail,
} from './auth.mail';
import { cooldown, countFailure, refuseWhileBlocked, slidingLimit, throttle } from './auth.throttle';
import { type CodePurpose, consumeCode, consumeToken, issueCode, type OneTimeCode } from './one-time-codes';

export type AuthDeps = Pick<
  ModuleContext,
  'db' | 'clock' | 'counters' | 'tokens' | 'mail' | 'sms' | 'config' | 'realtime' | 'authenticator'
>;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
export const EMAIL_VERIFICATION_TTL_MS = 24 * HOUR;
export const PASSWORD_RESET_TTL_MS = 30 * MINUTE;
export const ADMIN_INVITATION_TTL_MS = 24 * HOUR;
export const PHONE_CODE_TTL_MS = 10 * MINUTE;

export const LOGIN_FAILURES_PER_EMAIL = 10;
export const LOGIN_FAILURES_PER_IP = 30;
const LOGIN_WINDOW_MS = 15 * MINUTE;

export interface Profile {
  id: string;
  name: string;
  email: string;
  image: string | null;
  emailVerified: boolean;
  phone: string | null;
  phoneVerified: boolean;
  role: string;
}

export const toProfile = (u: core.UserRow): Profile => ({
  id: u.id,
  name: u.name,
  email: u.email,
  image: u.image,
  emailVerified: u.emailVerified,
  phone: u.phone,
  phoneVerified: u.phoneVerified,
  role: u.role,
});

export const toProfileWithPassword = (u: core.UserRow) => ({
  ...toProfile(u),
  hasPassword: Boolean(u.passwordHash),
});

const normalizeEmail = (email: string) => email.trim().toLowerCase();
const actorOf = (u: core.UserRow): Actor => (u.role === CUSTOMER_ROLE ? 'customer' : 'admin');
/** Accounts that may sign in at all: active and not anonymised. */
const canSignIn = (u: core.UserRow) => u.isActive && !u.anonymizedAt;

export interface DeviceInfo {
  deviceId: string;
  deviceType: string;
  deviceName: string;
  pushToken?: string;
}

export interface SignedIn {
  user: Profile;
  tokens: SessionTokens;
  /** True when this login cancelled a scheduled account deletion. */
  restored?: boolean;
}

/** The password was right and the admin has 2FA: the sign-in continues at `login/2fa`. */
export interface SecondFactorChallenge {
  twoFactorRequired: true;
  challengeToken: string;
  methods: (typeof twoFactor.CHALLENGE_METHODS)[number][];
}

/** Issues a code and link for the user's address and builds the email that carries them. */
async function codeMail(
  deps: AuthDeps,
  db: AuthDeps['db'],
  user: core.UserRow,
  purpose: CodePurpose,
  ttlMs: number,
  template: CodeMail,
): Promise<MailMessage> {
  const { code, token } = await issueCode({
    db,
    clock: deps.clock,
    purpose,
    target: user.email,
    userId: user.id,
    ttlMs,
  });
  return template({
    to: user.email,
    name: user.name,
    code: code!,
    token: token!,
    webUrl: linkBaseFor(deps, user),
  });
}

/**
 * Where an email's link takes its reader: staff to the back office at /admin (which has the
 * reset screen) when this server serves it, customers to the storefront (PUBLIC_WEB_URL).
 */
function linkBaseFor(deps: AuthDeps, user: core.UserRow): string {
  if (actorOf(user) === 'admin' && deps.config.CONSOLE_ENABLED) return `${deps.config.PUBLIC_BASE_URL}/admin`;
  return deps.config.PUBLIC_WEB_URL;
}

// ---------- login, refresh, logout ----------

/**
 * Email and password login. Every failure (unknown email, wrong password, an account of the
 * other surface, a deactivated one) is the same 401 and costs the same hashing time. An admin
 * with two-factor sign-in gets a challenge instead of a session, and only after the password
 * was right: a wrong password answers exactly as for anyone else.
 */
export async function loginWithPassword(
  deps: AuthDeps,
  input: { actor: Actor; email: string; password: string; deviceInfo?: DeviceInfo; ip: string },
): Promise<SignedIn | SecondFactorChallenge> {
  const email = normalizeEmail(input.email);
  const emailKey = `auth:login-fail:email:${email}`;
  const ipKey = `auth:login-fail:ip:${input.ip}`;
  await refuseWhileBlocked(deps, [emailKey, ipKey]);

  const user = await core.findUserByEmail(deps.db, email);
  const passwordOk = user?.passwordHash
    ? await verifyPassword(user.passwordHash, input.password)
    : await verifyAgainstDummy(input.password);
  if (!user || !passwordOk || !canSignIn(user) || actorOf(user) !== input.actor) {
    await countFailure(deps, emailKey, LOGIN_FAILURES_PER_EMAIL, LOGIN_WINDOW_MS);
    await countFailure(deps, ipKey, LOGIN_FAILURES_PER_IP, LOGIN_WINDOW_MS);
    throw authErrors.invalidCredentials();
  }
  if (input.actor === 'customer' && !user.emailVerified) throw authErrors.emailNotVerified();
  if (input.actor === 'admin' && (await twoFactor.isEnabled(deps.db, user.id))) {
    return {
      twoFactorRequired: true,
      challengeToken: await twoFactor.openChallenge(deps, user.id),
      methods: [...twoFactor.CHALLENGE_METHODS],
    };
  }
  return signIn(deps, user, input.actor, input.deviceInfo);
}

/**
 * The code step of an admin sign-in (docs/decisions.md, "Sign-in with a second factor"). Wrong
 * codes and dead challenges count per IP as wrong passwords do on login, and wrong codes
 * count against the account's login budget too: a password thief gets a few guesses per
 * challenge, and few challenges.
 */
export async function loginWithSecondFactor(
  deps: AuthDeps,
  input: {
    challengeToken: string;
    code?: string;
    recoveryCode?: string;
    deviceInfo?: DeviceInfo;
    ip: string;
  },
): Promise<SignedIn> {
  const ipKey = `auth:2fa-fail:ip:${input.ip}`;
  await refuseWhileBlocked(deps, [ipKey]);
  const answer: twoFactor.ChallengeAnswer =
    input.code !== undefined ? { code: input.code } : { recoveryCode: input.recoveryCode ?? '' };
  const outcome = await twoFactor.answerChallenge(deps, {
    challengeToken: input.challengeToken,
    answer,
    open: (tx, user) => signIn({ ...deps, db: tx }, user, 'admin', input.deviceInfo),
  });
  if (outcome.ok) return outcome.value;
  await countFailure(deps, ipKey, LOGIN_FAILURES_PER_IP, LOGIN_WINDOW_MS);
  if (outcome.reason === 'challenge') throw twoFactorErrors.challengeInvalid();
  await countFailure(
    deps,
    `auth:login-fail:email:${outcome.user.email}`,
    LOGIN_FAILURES_PER_EMAIL,
    LOGIN_WINDOW_MS,
  );
  throw twoFactorErrors.signInCodeInvalid();
}

/** Opens a session for a user whose credentials were checked; cancels a pending deletion. */
export async function signIn(deps: AuthDeps, user: core.UserRow, actor: Actor, deviceInfo?: DeviceInfo) {
  const now = deps.clock.now();
  const restored = Boolean(user.deletionScheduledAt);
  return inTransaction(deps.db, async (tx) => {
    const updated = await core.updateUser(tx, user.id, {
      lastLoginAt: now,
      ...(restored ? { deletionScheduledAt: null, updatedAt: now } : {}),
    });
    const { pushToken, ...device } = deviceInfo ?? {};
    const tokens = await startSession({
      db: tx,
      tokens: deps.tokens,
      clock: deps.clock,
      refreshTtlDays: deps.config.JWT_REFRESH_TTL_DAYS,
      userId: user.id,
      actor,
      deviceInfo: deviceInfo ? (device as Record<string, string>) : undefined,
      pushToken,
    });
    return { user: toProfile(updated ?? user), tokens, restored };
  });
}

export async function refresh(
  deps: AuthDeps,
  input: { actor: Actor; refreshToken: string },
): Promise<SignedIn> {
  const outcome = await refreshSession({
    db: deps.db,
    tokens: deps.tokens,
    clock: deps.clock,
    graceSeconds: deps.config.JWT_REFRESH_REUSE_GRACE_SECONDS,
    actor: input.actor,
    refreshToken: input.refreshToken,
  });
  if (!outcome.ok) {
    if (outcome.reason === 'invalid') throw authErrors.refreshTokenInvalid();
    // Reuse ended the session (committed): its sockets go too.
    await disconnectSessions(deps, [outcome.sessionId]);
    throw authErrors.refreshTokenReused();
  }
  return { user: toProfile(outcome.user), tokens: outcome.tokens };
}

/** Ends the session: its refresh token and its sockets at once, its access token from the next request. */
export async function logout(deps: AuthDeps, sessionId: string): Promise<void> {
  await core.revokeSession(deps.db, sessionId, deps.clock.now());
  await disconnectSessions(deps, [sessionId]);
}

// ---------- profile and permissions ----------

export async function currentProfile(deps: AuthDeps, userId: string) {
  const user = await core.findUserById(deps.db, userId);
  if (!user) throw httpErrors.unauthorized();
  return toProfileWithPassword(user);
}

/** The admin's `me`: the profile and whether two-factor sign-in is on. */
export async function currentAdminProfile(deps: AuthDeps, userId: string) {
  const profile = await currentProfile(deps, userId);
  return { ...profile, twoFactorEnabled: await twoFactor.isEnabled(deps.db, userId) };
}

// ---------- registration and email verification ----------

export async function register(
  deps: AuthDeps,
  input: { name: string; email: string; password: string; deviceInfo?: DeviceInfo; ip: string },
): Promise<Profile> {
  // Every attempt counts, a duplicate email included (that answer tells whether an account exists).
  await throttle(deps, `auth:register:ip:${input.ip}`, REGISTER_PER_IP_PER_HOUR, HOUR);
  const email = normalizeEmail(input.email);
  const existing = await core.findUserByEmail(deps.db, email);
  if (existing) {
    if (existing.deletionScheduledAt) throw authErrors.accountPendingDeletion();
    // Registration never resends the verification email: the client uses the resend route.
    if (!existing.emailVerified) throw authErrors.emailVerificationPending();
    throw identityErrors.emailAlreadyExists();
  }
  const passwordHash = await hashPassword(input.password);
  return inTransaction(deps.db, async (tx, afterCommit) => {
    const user = await core.insertUser(tx, {
      id: newUuid(),
      name: input.name.trim(),
      email,
      role: CUSTOMER_ROLE,
      passwordHash,
      emailVerified: false,
    });
    await publishEvent(tx, 'customer.registered', { customerId: user.id });
    const mail = await codeMail(
      deps,
      tx,
      user,
      'email_verification',
      EMAIL_VERIFICATION_TTL_MS,
      verificationEmail,
    );
    afterCommit(() => deps.mail.send(mail));
    return toProfile(user);
  });
}

export const RESEND_PER_MINUTE = 1;
export const RESEND_PER_HOUR = 5;

// docs/decisions.md, "Per-IP limits on account e-mail routes".
export const REGISTER_PER_IP_PER_HOUR = 10;
export const FORGOT_PER_IP_PER_HOUR = 10;
export const RESEND_PER_IP_PER_HOUR = 20;

export interface PasswordResetMailRequest {
  actor: Actor;
  email: string;
}
export interface VerificationMailRequest {
  email: string;
}
/**
 * The jobs that decide whether a forgot or resend request mails anything (see auth.jobs.ts).
 * The route only counts and queues, so it answers in the same time whether or not the
 * account exists: not even the lookup happens in the request.
 */
export interface AccountMailJobs {
  passwordReset: JobDefinition<PasswordResetMailRequest>;
  verification: JobDefinition<VerificationMailRequest>;
}

/**
 * The same 200 whether or not an unverified account has this email: throttled per IP and
 * per address, then handed to a job.
 */
export async function resendVerification(
  deps: AuthDeps & Pick<ModuleContext, 'jobs'>,
  jobs: AccountMailJobs,
  input: { email: string; ip: string },
): Promise<void> {
  const email = normalizeEmail(input.email);
  await throttle(deps, `auth:verify-resend:ip:${input.ip}`, RESEND_PER_IP_PER_HOUR, HOUR);
  await throttle(deps, `auth:verify-resend:minute:${email}`, RESEND_PER_MINUTE, MINUTE);
  await cooldown(deps, `auth:verify-resend:last:${email}`, MINUTE);
  await slidingLimit(deps, `auth:verify-resend:hour:${email}`, RESEND_PER_HOUR, HOUR);
  await deps.jobs.enqueue(jobs.verification, { email });
}

/** The job behind resend: mails a new code only when an unverified account has this email. */
export async function sendVerificationMail(deps: AuthDeps, input: VerificationMailRequest): Promise<void> {
  const email = normalizeEmail(input.email);
  const user = await core.findUserByEmail(deps.db, email);
  if (!user || user.emailVerified || !canSignIn(user)) return;
  await deps.mail.send(
    await codeMail(deps, deps.db, user, 'email_verification', EMAIL_VERIFICATION_TTL_MS, verificationEmail),
  );
}

/** A link token, or an address with the code typed by hand (schemas require one of them). */
export type TokenOrCode = { token?: string; email?: string; code?: string };

function consumeTokenOrCode(deps: AuthDeps, db: AuthDeps['db'], purpose: CodePurpose, input: TokenOrCode) {
  if (input.token !== undefined) return consumeToken({ db, clock: deps.clock, purpose, token: input.token });
  return consumeCode({
    db,
    clock: deps.clock,
    purpose,
    target: normalizeEmail(input.email ?? ''),
    code: input.code ?? '',
  });
}

/**
 * Consumes a secret and applies its effect in one transaction. A wrong code is counted and
 * that count is committed (so the error is thrown only after the transaction): throwing
 * inside would roll the count back, and codes could be guessed forever.
 */
async function redeem<T>(
  deps: AuthDeps,
  consume: (tx: AuthDeps['db']) => Promise<OneTimeCode | undefined>,
  apply: (tx: AuthDeps['db'], used: OneTimeCode, afterCommit: AfterCommit) => Promise<T | undefined>,
  invalid: () => Error,
): Promise<T> {
  const outcome = await inTransaction(deps.db, async (tx, afterCommit) => {
    const used = await consume(tx);
    const value = used ? await apply(tx, used, afterCommit) : undefined;
    return { value };
  });
  if (outcome.value === undefined) throw invalid();
  return outcome.value;
}

export async function confirmEmail(deps: AuthDeps, input: TokenOrCode): Promise<Profile> {
  return redeem(
    deps,
    (tx) => consumeTokenOrCode(deps, tx, 'email_verification', input),
    async (tx, used, afterCommit) => {
      const before = used.userId ? await core.findUserById(tx, used.userId) : undefined;
      // The address may have changed since the code was sent: the code verifies that address only.
      if (!before || before.email !== used.target) return undefined;
      const user = await core.updateUser(tx, before.id, { emailVerified: true, updatedAt: deps.clock.now() });
      if (!before.emailVerified) {
        afterCommit(() =>
          deps.mail.send(
            welcomeEmail({ to: before.email, name: before.name, webUrl: deps.config.PUBLIC_WEB_URL }),
          ),
        );
      }
      return toProfile(user!);
    },
    authErrors.emailVerificationInvalid,
  );
}

// ---------- passwords ----------

/**
 * The same 200, in the same time, whether or not the account exists: throttled per IP (one
 * count for both surfaces) and per address, then handed to a job.
 */
export async function forgotPassword(
  deps: AuthDeps & Pick<ModuleContext, 'jobs'>,
  jobs: AccountMailJobs,
  input: { actor: Actor; email: string; ip: string },
): Promise<void> {
  const email = normalizeEmail(input.email);
  await throttle(deps, `auth:forgot:ip:${input.ip}`, FORGOT_PER_IP_PER_HOUR, HOUR);
  await throttle(deps, `auth:forgot:${email}`, 5, HOUR);
  await deps.jobs.enqueue(jobs.passwordReset, { actor: input.actor, email });
}

/** The job behind forgot: a mail goes out only when an account of that surface exists. */
export async function sendPasswordResetMail(deps: AuthDeps, input: PasswordResetMailRequest): Promise<void> {
  const email = normalizeEmail(input.email);
  const user = await core.findUserByEmail(deps.db, email);
  if (!user || !canSignIn(user) || actorOf(user) !== input.actor) return;
  await deps.mail.send(
    await codeMail(deps, deps.db, user, 'password_reset', PASSWORD_RESET_TTL_MS, passwordResetEmail),
  );
}

/** Sends a new admin the code and link that set a first password (redeemed by reset). */
export async function sendAdminInvitation(deps: AuthDeps, user: core.UserRow): Promise<void> {
  await deps.mail.send(
    await codeMail(deps, deps.db, user, 'password_reset', ADMIN_INVITATION_TTL_MS, adminInvitationEmail),
  );
}

/** Sets a new password from a reset token or code, and ends every session of the user. */
export async function resetPassword(
  deps: AuthDeps,
  input: TokenOrCode & { newPassword: string },
): Promise<void> {
  const passwordHash = await hashPassword(input.newPassword);
  await redeem(
    deps,
    (tx) => consumeTokenOrCode(deps, tx, 'password_reset', input),
    async (tx, used, afterCommit) => {
      const user = used.userId ? await core.findUserById(tx, used.userId) : undefined;
      if (!user || !canSignIn(user) || user.email !== used.target) return undefined;
      // The code reached the mailbox, which proves the address as well as verification would.
      await core.updateUser(tx, user.id, { passwordHash, emailVerified: true, updatedAt: deps.clock.now() });
      const ended = await endAllSessions({ db: tx, clock: deps.clock, userId: user.id });
      afterCommit(() => disconnectSessions(deps, ended));
      return true;
    },
    authErrors.resetTokenInvalid,
  );
}

export const PASSWORD_SET_PER_WINDOW = 5;
export const PASSWORD_SET_WINDOW_MS = 15 * MINUTE;

/** Sets (first password of a provider-only account) or changes the caller's password. */
export async function setPassword(
  deps: AuthDeps,
  input: { userId: string; currentPassword?: string; newPassword: string },
): Promise<void> {
  const user = await core.findUserById(deps.db, input.userId);
  if (!user) throw httpErrors.unauthorized();
  if (user.passwordHash) {
    if (!input.currentPassword) throw authErrors.currentPasswordRequired();
    if (!(await verifyPassword(user.passwordHash, input.currentPassword)))
      throw authErrors.invalidCredentials();
  }
  await core.updateUser(deps.db, user.id, {
    passwordHash: await hashPassword(input.newPassword),
    updatedAt: deps.clock.now(),
  });
}

// ---------- phone verification ----------

export async function requestPhoneVerification(deps: AuthDeps, input: { userId: string; phone: string }) {
  // Refused before any code is made or counted: the provider would only bill for a failure.
  if (!deps.sms.accepts(input.phone)) {
    throw httpErrors.validation([
      {
        path: 'phone',
        message: 'must be a Nepali mobile number: +977 followed by 10 digits starting with 9',
      },
    ]);
  }
  await throttle(deps, `auth:phone:minute:${input.userId}`, 1, MINUTE);
  await cooldown(deps, `auth:phone:last:${input.userId}`, MINUTE);
  await slidingLimit(deps, `auth:phone:hour:${input.userId}`, 5, HOUR);
  const { code } = await issueCode({
    db: deps.db,
    clock: deps.clock,
    purpose: 'phone_verification',
    target: `${input.userId}:${input.phone}`,
    userId: input.userId,
    ttlMs: PHONE_CODE_TTL_MS,
    withToken: false,
  });
  await deps.sms.send(
    phoneVerificationSms({ to: input.phone, code: code!, storeName: deps.config.STORE_NAME }),
  );
}

export async function confirmPhone(deps: AuthDeps, input: { userId: string; phone: string; code: string }) {
  return redeem(
    deps,
    (tx) =>
      consumeCode({
        db: tx,
        clock: deps.clock,
        purpose: 'phone_verification',
        target: `${input.userId}:${input.phone}`,
        code: input.code,
      }),
    async (tx) => {
      const user = await core.updateUser(tx, input.userId, {
        phone: input.phone,
        phoneVerified: true,
        updatedAt: deps.clock.now(),
      });
      return user ? toProfile(user) : undefined;
    },
    authErrors.phoneVerificationInvalid,
  );
}

// ---------- account deletion ----------

/** Wrong passwords on account deletion, per user (like `password/set`). */
export const DELETION_FAILURES_PER_USER = 5;
export const DELETION_FAILURE_WINDOW_MS = 15 * MINUTE;

/**
 * Schedules the caller's account for anonymisation after the grace period and ends every
 * session. A password login during the grace period cancels it.
 */
export async function requestAccountDeletion(
  deps: AuthDeps,
  input: { userId: string; password?: string },
): Promise<{ deletionScheduledAt: string }> {
  const user = await core.findUserById(deps.db, input.userId);
  if (!user) throw httpErrors.unauthorized();
  if (user.passwordHash) {
    if (!input.password) throw authErrors.currentPasswordRequired();
    // docs/decisions.md, "Deletion password guesses": a stolen access token must not buy unlimited
    // guesses at the password. Blocked means blocked, a right password included.
    const failKey = `auth:deletion-fail:user:${user.id}`;
    await refuseWhileBlocked(deps, [failKey]);
    if (!(await verifyPassword(user.passwordHash, input.password))) {
      await countFailure(deps, failKey, DELETION_FAILURES_PER_USER, DELETION_FAILURE_WINDOW_MS);
      throw authErrors.invalidCredentials();
    }
  }
  const now = deps.clock.now();
  const at = new Date(now.getTime() + deps.config.ACCOUNT_DELETION_GRACE_DAYS * 24 * HOUR);
  await inTransaction(deps.db, async (tx, afterCommit) => {
    await core.updateUser(tx, user.id, { deletionScheduledAt: at, updatedAt: now });
    const ended = await endAllSessions({ db: tx, clock: deps.clock, userId: user.id });
    afterCommit(() => disconnectSessions(deps, ended));
  });
  return { deletionScheduledAt: at.toISOString() };
}
