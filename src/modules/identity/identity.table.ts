import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/**
 * Roles: `superadmin` (every permission, built in), `customer` (the default customer
 * permission set, built in) and the store's own admin roles.
 */
export const roles = pgTable('roles', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  description: text('description'),
  isBuiltIn: boolean('is_built_in').notNull().default(false),
  ...timestamps,
});

export const rolePermissions = pgTable(
  'role_permissions',
  {
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    permission: text('permission').notNull(),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.permission] })],
);

/** Admins and customers alike; `role` is `customer` or the admin's role name. */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    /** Stored lowercase; one account per email. */
    email: text('email').notNull(),
    image: text('image'),
    emailVerified: boolean('email_verified').notNull().default(false),
    phone: text('phone'),
    phoneVerified: boolean('phone_verified').notNull().default(false),
    role: text('role')
      .notNull()
      .references(() => roles.name, { onUpdate: 'cascade' }),
    passwordHash: text('password_hash'),
    isActive: boolean('is_active').notNull().default(true),
    deletionScheduledAt: timestamp('deletion_scheduled_at', { withTimezone: true }),
    anonymizedAt: timestamp('anonymized_at', { withTimezone: true }),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    index('users_role_idx').on(t.role),
    index('users_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
  ],
);

/** One signed-in device: a session outlives its tokens, which rotate on every refresh. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    actor: text('actor', { enum: ['admin', 'customer'] }).notNull(),
    deviceInfo: jsonb('device_info').$type<Record<string, string>>(),
    pushToken: text('push_token'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('sessions_user_idx').on(t.userId),
    // A token the push provider reports as gone is looked up across every session.
    index('sessions_push_token_idx').on(t.pushToken).where(sql`${t.pushToken} is not null`),
  ],
);

/**
 * Every refresh token a session was given, as SHA-256 digests. The one without `rotatedAt`
 * is current; the others let the server recognise a reused (stolen) token and revoke.
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    digest: text('digest').primaryKey(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    /** The digest of the token that replaced this one. */
    replacedBy: text('replaced_by'),
  },
  (t) => [index('refresh_tokens_session_idx').on(t.sessionId)],
);

/**
 * Single-use secrets: email and phone codes, reset and verification link tokens, the
 * identity provider's sign-in state and exchange code. Only digests are stored; each one
 * is consumed by a single conditional UPDATE, so concurrent attempts cannot both succeed.
 */
export const oneTimeCodes = pgTable(
  'one_time_codes',
  {
    id: serial('id').primaryKey(),
    purpose: text('purpose', {
      enum: [
        'email_verification',
        'password_reset',
        'phone_verification',
        'idp_state',
        'idp_exchange',
        // The second step of a staff sign-in: the token the password step answered.
        'two_factor_challenge',
      ],
    }).notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** The address the secret was sent to (lowercased email, E.164 phone), or another key. */
    target: text('target').notNull(),
    codeDigest: text('code_digest'),
    tokenDigest: text('token_digest'),
    /** Server-side data that must not travel through the browser (PKCE verifier, nonce). */
    payload: jsonb('payload').$type<Record<string, unknown>>(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('one_time_codes_token_digest_unique').on(t.tokenDigest),
    index('one_time_codes_purpose_target_idx').on(t.purpose, t.target),
  ],
);

/** A customer's link to an account at the identity provider (issuer + subject). */
export const identityProviderLinks = pgTable(
  'identity_provider_links',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    email: text('email'),
    /** Provider tokens of the last sign-in, encrypted (AES-256-GCM) with a key derived from JWT_SECRET. */
    tokensEncrypted: text('tokens_encrypted'),
    tokensUpdatedAt: timestamp('tokens_updated_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('identity_provider_links_issuer_subject_unique').on(t.issuer, t.subject),
    index('identity_provider_links_user_idx').on(t.userId),
  ],
);

/**
 * An admin's authenticator-app secret (docs/decisions.md "TOTP"), encrypted
 * (AES-256-GCM, bound to the user). Without `enabledAt` it is a setup still to be confirmed;
 * a new setup replaces it. `lastUsedStep` is the 30 s step of the last accepted code: a code
 * of that step or an earlier one is refused, so a code seen over a shoulder cannot be replayed.
 */
export const staffSecondFactors = pgTable('staff_second_factors', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretEncrypted: text('secret_encrypted').notNull(),
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  ...timestamps,
});

/** Single-use recovery codes of an admin with 2FA, as digests; a new set deletes the old one. */
export const staffRecoveryCodes = pgTable(
  'staff_recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    digest: text('digest').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('staff_recovery_codes_user_digest_unique').on(t.userId, t.digest)],
);
