import { sql } from 'drizzle-orm';
import { bigint, boolean, index, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** Portal accounts: customer staff, the provider's analysts and administrators. */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    /** Stored as typed; matched case-insensitively through the lower() index. */
    username: text('username').notNull(),
    email: text('email').notNull().default(''),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    /** argon2id hash in PHC string form (never selected for output). */
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['customer', 'analyst', 'admin'] })
      .notNull()
      .default('customer'),
    isActive: boolean('is_active').notNull().default(true),
    /** Phone number receiving second-factor codes; null when the user has no SMS factor. */
    mfaPhone: text('mfa_phone'),
    /** Authenticator-app secret, AES-GCM sealed with the server key; set from enrolment on. */
    totpSecret: text('totp_secret'),
    /** When the authenticator app was confirmed; null while enrolment is pending or off. */
    totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true }),
    /**
     * A replacement authenticator secret waiting for its first code (sealed like totpSecret): the
     * active one keeps working until this one is confirmed.
     */
    totpPendingSecret: text('totp_pending_secret'),
    /** Last accepted time step: a TOTP code works once. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    locale: text('locale', { enum: ['ru', 'en'] })
      .notNull()
      .default('ru'),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
    /**
     * Set while the password is a temporary one given by an administrator: it signs in until then
     * (72 hours), and only the password change is allowed until the user picks their own.
     */
    temporaryPasswordExpiresAt: timestamp('temporary_password_expires_at', { withTimezone: true }),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_username_lower_uq').on(sql`lower(${t.username})`),
    // sign-in through OIDC or SSO may find the account by e-mail
    index('users_email_lower_idx').on(sql`lower(${t.email})`),
    // the staff to assign incidents to (GET /analyst/staff/), a handful of rows among the customers
    index('users_staff_idx')
      .on(sql`lower(${t.username})`, t.id)
      .where(sql`${t.role} <> 'customer' AND ${t.isActive}`),
  ],
);
