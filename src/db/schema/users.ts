// Accounts and their roles.
import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { createdAt, updatedAt } from './columns';

export const users = sqliteTable(
  'users',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    username: text('username'),
    phoneNumber: text('phone_number'),
    birthDate: text('birth_date'),
    nationality: text('nationality'),
    /** The postal address (street, postal code, city): printed as the sender's on the CN23 (migration 0051). */
    address: text('address'),
    postalCode: text('postal_code'),
    city: text('city'),
    avatarUrl: text('avatar_url'),
    /** JSON array of role names; every user holds ROLE_CLIENT. */
    roles: text('roles', { mode: 'json' }).$type<string[]>().notNull().default(sql`'["ROLE_CLIENT"]'`),
    enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
    emailVerified: integer('email_verified', { mode: 'boolean' }).notNull().default(false),
    /** The phone number was proved by an SMS code (CONTRACT 21); cleared when the number changes. */
    phoneVerified: integer('phone_verified', { mode: 'boolean' }).notNull().default(false),
    kycStatus: text('kyc_status', { enum: ['NOT_VERIFIED', 'PENDING', 'VERIFIED'] }).notNull().default('NOT_VERIFIED'),
    googleSubject: text('google_subject'),
    appleSubject: text('apple_subject'),
    connectedAccountId: text('connected_account_id'),
    agencyId: integer('agency_id'),
    /** Set while an administrator has suspended the account (enabled = false). */
    suspendedAt: text('suspended_at'),
    suspensionReason: text('suspension_reason'),
    lastLoginAt: text('last_login_at'),
    /** Language of the messages sent to the user (fr, en); CONTRACT section 16. */
    locale: text('locale', { enum: ['fr', 'en'] }).notNull().default('fr'),
    deletedAt: text('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    uniqueIndex('users_google_subject_unique').on(t.googleSubject),
    uniqueIndex('users_apple_subject_unique').on(t.appleSubject),
    uniqueIndex('users_username_unique').on(t.username),
    index('users_created_at_idx').on(t.createdAt),
    // Analytics: verified users counted without a table scan.
    index('users_kyc_created_idx').on(t.kycStatus, t.createdAt),
  ],
);

export type UserRow = typeof users.$inferSelect;
