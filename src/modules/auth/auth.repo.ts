import { and, eq, gt, isNull, ne } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { DB } from "../../db/client";
import { firstRow, newestFirst, newestRows } from "../../db/rows";
import { apiKeys, authTokens, oauthIdentities, sessions, users } from "../../db/schema";
import type { AuthMethod, AuthTokenPurpose } from "../../db/schema/enums";
import type { AuthTokenData } from "../../db/schema/types";
import { rowsWritten } from "../../db/written";
import { type AccountRows, ownRows } from "../../db/account-rows";
import * as wallet from "../billing/wallet.repo";

/** The account's sign-in records, for its data export (secret columns are removed there). */
export const ACCOUNT_ROWS: AccountRows = {
  sessions: ownRows("sessions"),
  identities: ownRows("oauth_identities"),
  api_keys: ownRows("api_keys"),
};

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type AuthTokenRow = typeof authTokens.$inferSelect;

// ---- API keys -------------------------------------------------------------------------------

/** Sessions and API keys: credentials an account holds until they are revoked. */
type Credentials = typeof sessions | typeof apiKeys;

/** The credential of `table` whose `hash` column holds `value`: not revoked, its owner not deleted; with the owner's plan. */
async function liveCredential<T extends Credentials>(db: DB, table: T, hash: SQLiteColumn, value: string) {
  const [row] = await db
    .select({ credential: table, plan: users.plan })
    .from(table)
    .innerJoin(users, eq(users.id, table.userId))
    .where(and(eq(hash, value), isNull(table.revokedAt), isNull(users.deletedAt)))
    .limit(1);
  return row as { credential: T["$inferSelect"]; plan: string } | undefined;
}

/** Revokes one of the account's sessions or keys; false when it does not exist, is another account's, or is already revoked. */
async function revokeCredential(db: DB, table: Credentials, userId: string, id: string, now: number): Promise<boolean> {
  const done = await db
    .update(table)
    .set({ revokedAt: now })
    .where(and(eq(table.id, id), eq(table.userId, userId), isNull(table.revokedAt)))
    .returning({ id: table.id });
  return done.length === 1;
}

/** The live key with this hash and its owner's plan, or undefined. Expiry is checked by the caller. */
export async function findApiKeyByHash(db: DB, keyHash: string) {
  const row = await liveCredential(db, apiKeys, apiKeys.keyHash, keyHash);
  return row && { ...row.credential, plan: row.plan };
}

export async function touchApiKey(db: DB, id: string, now: number): Promise<void> {
  await db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, id));
}

/** The account's keys that are not revoked, newest first. */
export function listApiKeys(db: DB, userId: string): Promise<ApiKeyRow[]> {
  return newestRows(db, apiKeys, and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
}

export async function insertApiKey(db: DB, row: typeof apiKeys.$inferInsert): Promise<ApiKeyRow> {
  const [created] = await db.insert(apiKeys).values(row).returning();
  return created!;
}

/** Revokes one of the account's keys; false when it does not exist, is another account's, or is already revoked. */
export function revokeApiKey(db: DB, userId: string, id: string, now: number): Promise<boolean> {
  return revokeCredential(db, apiKeys, userId, id, now);
}

// ---- users ----------------------------------------------------------------------------------

export async function findUserByEmail(db: DB, email: string): Promise<UserRow | undefined> {
  return firstRow(db, users, and(eq(users.email, email), isNull(users.deletedAt)));
}

export async function findUserById(db: DB, id: string): Promise<UserRow | undefined> {
  return firstRow(db, users, and(eq(users.id, id), isNull(users.deletedAt)));
}

/**
 * Creates the account and its (empty) wallet together. Returns undefined when the email is taken
 * (the unique index decides, so two concurrent sign-ups cannot both succeed).
 */
export async function insertUser(
  db: DB,
  row: { id: string; email: string; name: string | null; passwordHash: string | null; emailVerifiedAt: number | null },
): Promise<UserRow | undefined> {
  const now = Date.now();
  const d1 = db.$client;
  const [inserted] = await d1.batch([
    d1
      .prepare(
        `INSERT INTO users (id, email, name, password_hash, email_verified_at, plan, locale, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, 'free', 'en', ?, ?) ON CONFLICT (email) DO NOTHING RETURNING id`,
      )
      .bind(row.id, row.email, row.name, row.passwordHash, row.emailVerifiedAt, now, now),
    wallet.openWalletStatement(db, row.id, now),
  ]);
  if (rowsWritten(inserted) !== 1) return undefined;
  return findUserById(db, row.id);
}

export async function updateUser(
  db: DB,
  id: string,
  patch: Partial<Pick<UserRow, "name" | "locale" | "passwordHash" | "emailVerifiedAt" | "totpSecret" | "totpEnabledAt" | "totpLastStep">>,
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set(patch)
    .where(and(eq(users.id, id), isNull(users.deletedAt)))
    .returning();
  return row;
}

/**
 * Records an accepted TOTP step only if it is later than the last one: a conditional update, so
 * the same code presented twice (even concurrently) is accepted once.
 */
export async function acceptTotpStep(db: DB, userId: string, step: number): Promise<boolean> {
  const res = await db.$client
    .prepare(
      "UPDATE users SET totp_last_step = ?, updated_at = ? WHERE id = ? AND (totp_last_step IS NULL OR totp_last_step < ?) RETURNING id",
    )
    .bind(step, Date.now(), userId, step)
    .run();
  return rowsWritten(res) === 1;
}

/** The account's plan name, closed or not (a job's admission and page limits read it); free when the row is gone. */
export async function userPlan(db: DB, userId: string): Promise<string> {
  const [row] = await db.select({ plan: users.plan }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.plan ?? "free";
}

/** The account's address, closed or not, for mail about what it owns (a disabled webhook endpoint). */
export async function userEmail(db: DB, userId: string): Promise<string | undefined> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.email;
}

/**
 * Closes the account at once: `deleted_at` makes every credential lookup fail (they all require a
 * live user) and every session and key is revoked, before the slower erasure runs.
 */
export async function closeAccount(db: DB, userId: string, now: number): Promise<boolean> {
  const d1 = db.$client;
  const [closed] = await d1.batch([
    d1.prepare("UPDATE users SET deleted_at = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL RETURNING id").bind(now, now, userId),
    d1.prepare("UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL").bind(now, userId),
    d1.prepare("UPDATE api_keys SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL").bind(now, userId),
  ]);
  return rowsWritten(closed) === 1;
}

/** Deletes the user row; every owned row goes with it (all foreign keys to users cascade). */
export async function eraseAccountRows(db: DB, userId: string): Promise<void> {
  const d1 = db.$client;
  // Tokens not tied to a user id (a magic link for the address) are erased by address.
  await d1.batch([
    d1.prepare("DELETE FROM auth_tokens WHERE email = (SELECT email FROM users WHERE id = ?)").bind(userId),
    d1.prepare("DELETE FROM users WHERE id = ?").bind(userId),
  ]);
}

// ---- sessions -------------------------------------------------------------------------------

export async function insertSession(
  db: DB,
  row: {
    id: string;
    tokenHash: string;
    userId: string;
    userAgent: string | null;
    ip: string | null;
    method: AuthMethod;
    twoFactorPending: boolean;
    expiresAt: number;
  },
): Promise<SessionRow> {
  const now = Date.now();
  const [created] = await db
    .insert(sessions)
    .values({ ...row, createdAt: now, lastSeenAt: now })
    .returning();
  return created!;
}

/** The session with this token hash (not revoked, owner not deleted) and the owner's plan. */
export async function findSessionByHash(db: DB, tokenHash: string) {
  const row = await liveCredential(db, sessions, sessions.tokenHash, tokenHash);
  return row && { session: row.credential, plan: row.plan };
}

export async function touchSession(db: DB, id: string, now: number): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id));
}

/** The account's live sessions (not revoked, not expired, sign-in complete), newest first. */
export async function listSessions(db: DB, userId: string, now: number): Promise<SessionRow[]> {
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), eq(sessions.twoFactorPending, false)))
    .orderBy(...newestFirst(sessions));
  return rows.filter((s) => s.expiresAt > now);
}

export function revokeSession(db: DB, userId: string, id: string, now: number): Promise<boolean> {
  return revokeCredential(db, sessions, userId, id, now);
}

/** Ends every session of the account, except `keep` when given. */
export async function revokeSessions(db: DB, userId: string, now: number, keep?: string): Promise<void> {
  const scope = keep
    ? and(eq(sessions.userId, userId), isNull(sessions.revokedAt), ne(sessions.id, keep))
    : and(eq(sessions.userId, userId), isNull(sessions.revokedAt));
  await db.update(sessions).set({ revokedAt: now }).where(scope);
}

/**
 * Completes a pending two-factor sign-in: the pending session ends and a full one replaces it,
 * so the cookie token changes when the privilege does. False when the pending session is gone.
 */
export async function promotePendingSession(
  db: DB,
  pendingId: string,
  next: { id: string; tokenHash: string; expiresAt: number },
  now: number,
): Promise<boolean> {
  const d1 = db.$client;
  const [revoked] = await d1.batch([
    d1
      .prepare(
        "UPDATE sessions SET revoked_at = ? WHERE id = ? AND two_factor_pending = 1 AND revoked_at IS NULL AND expires_at > ? RETURNING id",
      )
      .bind(now, pendingId, now),
    d1
      .prepare(
        `INSERT INTO sessions (id, token_hash, user_id, user_agent, ip, method, two_factor_pending, created_at, last_seen_at, expires_at)
         SELECT ?, ?, user_id, user_agent, ip, method, 0, ?, ?, ? FROM sessions WHERE id = ? AND changes() = 1`,
      )
      .bind(next.id, next.tokenHash, now, now, next.expiresAt, pendingId),
  ]);
  return rowsWritten(revoked) === 1;
}

// ---- single-use tokens ----------------------------------------------------------------------

type NewAuthToken = {
  id: string;
  purpose: AuthTokenPurpose;
  tokenHash: string;
  userId: string | null;
  email: string | null;
  data?: AuthTokenData;
  expiresAt: number;
};

export async function insertAuthToken(db: DB, row: NewAuthToken): Promise<void> {
  await insertAuthTokens(db, [row]);
}

export async function insertAuthTokens(db: DB, rows: NewAuthToken[]): Promise<void> {
  await db.insert(authTokens).values(rows.map((r) => ({ ...r, data: r.data ?? null })));
}

/**
 * Uses a token once: marks it used if it exists for this purpose, is unused and unexpired, in one
 * conditional update. On refusal, returns why (unknown/used vs expired) for the error message.
 */
export async function consumeAuthToken(
  db: DB,
  purpose: AuthTokenPurpose,
  tokenHash: string,
  now: number,
): Promise<{ ok: true; token: AuthTokenRow } | { ok: false; reason: "unknown" | "used" | "expired" }> {
  const [used] = await db
    .update(authTokens)
    .set({ usedAt: now })
    .where(
      and(eq(authTokens.tokenHash, tokenHash), eq(authTokens.purpose, purpose), isNull(authTokens.usedAt), gt(authTokens.expiresAt, now)),
    )
    .returning();
  if (used) return { ok: true, token: used };
  const row = await findAuthToken(db, purpose, tokenHash);
  if (!row) return { ok: false, reason: "unknown" };
  return { ok: false, reason: row.usedAt !== null ? "used" : "expired" };
}

/** A token by hash and purpose, used or not (to check a request against it before using it up). */
export async function findAuthToken(db: DB, purpose: AuthTokenPurpose, tokenHash: string): Promise<AuthTokenRow | undefined> {
  return firstRow(db, authTokens, and(eq(authTokens.tokenHash, tokenHash), eq(authTokens.purpose, purpose)));
}

/** Deletes the account's unused tokens of one purpose (a new link replaces the previous ones). */
export async function deleteAuthTokens(db: DB, userId: string, purpose: AuthTokenPurpose): Promise<void> {
  await db.delete(authTokens).where(and(eq(authTokens.userId, userId), eq(authTokens.purpose, purpose)));
}

/** Uses one of the account's recovery codes (by hash); false when it is not one or was used. */
export async function consumeRecoveryCode(db: DB, userId: string, codeHash: string, now: number): Promise<boolean> {
  const done = await db
    .update(authTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(authTokens.tokenHash, codeHash),
        eq(authTokens.userId, userId),
        eq(authTokens.purpose, "recovery_code"),
        isNull(authTokens.usedAt),
      ),
    )
    .returning({ id: authTokens.id });
  return done.length === 1;
}

// ---- external identities --------------------------------------------------------------------

export async function findIdentity(db: DB, provider: string, subject: string) {
  return firstRow(db, oauthIdentities, and(eq(oauthIdentities.provider, provider), eq(oauthIdentities.subject, subject)));
}

export async function insertIdentity(
  db: DB,
  row: { id: string; userId: string; provider: string; subject: string; email: string | null },
): Promise<void> {
  await db
    .insert(oauthIdentities)
    .values({ ...row, lastUsedAt: Date.now() })
    .onConflictDoNothing();
}

export async function touchIdentity(db: DB, id: string, now: number): Promise<void> {
  await db.update(oauthIdentities).set({ lastUsedAt: now }).where(eq(oauthIdentities.id, id));
}
