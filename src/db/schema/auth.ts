import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { bool, createdAt, id, ms, parent, timestamps } from "./columns";
import { AUTH_METHODS, AUTH_TOKEN_PURPOSES } from "./enums";
import type { AuthTokenData } from "./types";

/**
 * Accounts. Deleting a user row cascades to everything the account owns (GDPR erasure);
 * `deleted_at` marks an account closed before the purge.
 */
export const users = sqliteTable(
  "users",
  {
    id: id(), // usr_…
    /** Always stored lower-cased (enforced for ASCII by a CHECK). */
    email: text("email").notNull(),
    name: text("name"),
    /** Self-describing KDF string: algorithm, parameters, salt and hash. Null for password-less accounts. */
    passwordHash: text("password_hash"),
    emailVerifiedAt: ms("email_verified_at"),
    /** TOTP secret (the app may store it encrypted). Set by 2fa/start; active once totp_enabled_at is set. */
    totpSecret: text("totp_secret"),
    totpEnabledAt: ms("totp_enabled_at"),
    /** Last accepted TOTP time step, so a code cannot be replayed within its window. */
    totpLastStep: integer("totp_last_step"),
    plan: text("plan").notNull().default("free"),
    locale: text("locale").notNull().default("en"),
    ...timestamps(),
    deletedAt: ms("deleted_at"),
  },
  (t) => [
    uniqueIndex("users_email_unique").on(t.email),
    index("users_deleted_at_idx").on(t.deletedAt),
    check("users_email_lower", sql`"email" = lower("email")`),
  ],
);

/** The first columns of a row an account owns: its id (type-prefixed) and its owner, whose deletion removes it. */
export const ownedRow = () => ({ id: id(), userId: parent("user_id", () => users.id) });

/** External identity provider accounts linked to a user. */
export const oauthIdentities = sqliteTable(
  "oauth_identities",
  {
    ...ownedRow(), // oid_…
    provider: text("provider").notNull(),
    /** The provider's stable user id (`sub`). */
    subject: text("subject").notNull(),
    email: text("email"),
    createdAt: createdAt(),
    lastUsedAt: ms("last_used_at"),
  },
  (t) => [
    uniqueIndex("oauth_identities_provider_subject_unique").on(t.provider, t.subject),
    index("oauth_identities_user_idx").on(t.userId),
  ],
);

/** Web sessions (cookie). Only the hash of the cookie token is stored. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: id(), // ses_… (session_id in the API)
    tokenHash: text("token_hash").notNull(),
    userId: parent("user_id", () => users.id),
    userAgent: text("user_agent"),
    ip: text("ip"),
    /** How the session was opened (SessionOut may show it). */
    method: text("method", { enum: AUTH_METHODS }),
    /** The password/magic-link step passed but the TOTP code is still owed: the session grants nothing else. */
    twoFactorPending: bool("two_factor_pending").notNull().default(false),
    createdAt: createdAt(),
    lastSeenAt: ms("last_seen_at"),
    expiresAt: ms("expires_at").notNull(),
    revokedAt: ms("revoked_at"),
  },
  (t) => [
    uniqueIndex("sessions_token_hash_unique").on(t.tokenHash),
    index("sessions_user_created_idx").on(t.userId, t.createdAt),
    index("sessions_expires_idx").on(t.expiresAt),
  ],
);

/**
 * Single-use, expiring tokens: magic links, email verification, password reset, OAuth state,
 * two-factor sign-in challenges. Only the hash is stored.
 */
export const authTokens = sqliteTable(
  "auth_tokens",
  {
    id: id(), // atk_…
    purpose: text("purpose", { enum: AUTH_TOKEN_PURPOSES }).notNull(),
    tokenHash: text("token_hash").notNull(),
    /** Null when the token is not tied to an account yet (magic link for a new address, OAuth state). */
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    email: text("email"),
    data: text("data", { mode: "json" }).$type<AuthTokenData>(),
    /** Failed attempts against this token (two-factor challenges lock after a few). */
    attempts: integer("attempts").notNull().default(0),
    createdAt: createdAt(),
    expiresAt: ms("expires_at").notNull(),
    usedAt: ms("used_at"),
  },
  (t) => [
    uniqueIndex("auth_tokens_token_hash_unique").on(t.tokenHash),
    index("auth_tokens_user_purpose_idx").on(t.userId, t.purpose),
    index("auth_tokens_email_purpose_idx").on(t.email, t.purpose, t.createdAt),
    index("auth_tokens_expires_idx").on(t.expiresAt),
  ],
);

/** API keys (`lik_live_…`): only the hash and a display prefix are stored; the key is shown once. */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    ...ownedRow(), // key_…
    name: text("name").notNull(),
    /** First characters of the key for display, e.g. `lik_live_ab12`. */
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull(),
    scopes: text("scopes", { mode: "json" }).$type<string[]>().notNull().default([]),
    createdAt: createdAt(),
    expiresAt: ms("expires_at"),
    lastUsedAt: ms("last_used_at"),
    revokedAt: ms("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_key_hash_unique").on(t.keyHash), index("api_keys_user_created_idx").on(t.userId, t.createdAt)],
);
