import { sql } from 'drizzle-orm';
import {
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

/** One signed-in device. Refresh tokens are kept only as SHA-256 digests. */
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
    refreshTokenDigest: text('refresh_token_digest').notNull(),
    previousRefreshTokenDigest: text('previous_refresh_token_digest'),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sessions_refresh_digest_unique').on(t.refreshTokenDigest),
    index('sessions_previous_refresh_digest_idx').on(t.previousRefreshTokenDigest),
    index('sessions_user_idx').on(t.userId),
  ],
);
