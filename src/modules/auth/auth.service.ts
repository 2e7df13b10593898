import type { z } from "@hono/zod-openapi";
import type { DB } from "../../db/client";
import type { AuthMethod } from "../../db/schema/enums";
import { csrfTokenFor } from "../../http/csrf";
import { ApiError } from "../../http/errors";
import { sha256Hex } from "../../lib/crypto";
import { newId, newToken } from "../../lib/ids";
import { mailer } from "../../providers/mail/mailer";
import { grantSignupCredits } from "../billing/wallet.service";
import { PLANS } from "../billing/plans";
import { authMail } from "./auth.mail";
import {
  consumeAuthToken,
  deleteAuthTokens,
  findAuthToken,
  findUserByEmail,
  findUserById,
  insertAuthToken,
  insertSession,
  insertUser,
  listSessions as listLiveSessions,
  revokeSession,
  revokeSessions,
  updateUser,
  type UserRow,
} from "./auth.repo";
import type { AuthResponse, SessionOut, UserOut } from "./auth.schemas";
import { hashSessionToken } from "./session-token";
import { decoyHash, hashPassword, needsRehash, passwordProblem, verifyPassword } from "./password";
import { log } from "../../lib/log";
import { iso } from "../../lib/time";

export const SESSION_TTL_MS = 30 * 24 * 3600_000;
/** A sign-in waiting for its two-factor code lives this long. */
export const PENDING_SESSION_TTL_MS = 10 * 60_000;
export const TOKEN_TTL_MS = { magic_link: 15 * 60_000, verify_email: 24 * 3600_000, reset_password: 3600_000 } as const;

/** Where the request came from, recorded on the session (SessionOut). */
export interface ClientInfo {
  userAgent: string | null;
  ip: string | null;
}

/** A signed-in (or two-factor pending) session: the answer, plus the cookie token to set. */
export interface SignIn {
  response: z.infer<typeof AuthResponse>;
  token: string;
  expiresAt: number;
}

export function toUserOut(u: UserRow): z.infer<typeof UserOut> {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    email_verified: u.emailVerifiedAt !== null,
    two_factor_enabled: u.totpEnabledAt !== null,
    has_password: u.passwordHash !== null,
    plan: u.plan,
    locale: u.locale,
    created_at: iso(u.createdAt),
  };
}

function refusePassword(password: string, email?: string): void {
  const problem = passwordProblem(password, email);
  if (problem) {
    throw new ApiError("validation_error", problem, {
      details: { fields: [{ location: "json", field: "password", message: problem, code: "password_policy" }] },
    });
  }
}

/**
 * Stores a random single-use token (its hash) for a mailed link and returns the value to mail.
 * `replace` first deletes the user's earlier tokens of that purpose, so older links stop working.
 */
async function issueToken(
  db: DB,
  purpose: keyof typeof TOKEN_TTL_MS,
  to: { userId: string | null; email: string },
  replace = false,
): Promise<string> {
  const token = newToken();
  const hash = await sha256Hex(token);
  if (replace && to.userId) await deleteAuthTokens(db, to.userId, purpose);
  await insertAuthToken(db, { id: newId("atk"), purpose, tokenHash: hash, ...to, expiresAt: Date.now() + TOKEN_TTL_MS[purpose] });
  return token;
}

function link(env: Env, path: string, token: string): string {
  return `${env.PUBLIC_BASE_URL.replace(/\/$/, "")}${path}?token=${encodeURIComponent(token)}`;
}

/**
 * Opens a session for a user who passed a first factor. With two-factor enabled the session is
 * pending: it expires in minutes and grants nothing but POST /auth/2fa/verify.
 */
export async function openSession(db: DB, env: Env, user: UserRow, method: AuthMethod, client: ClientInfo): Promise<SignIn> {
  const pending = user.totpEnabledAt !== null;
  const token = newToken();
  const expiresAt = Date.now() + (pending ? PENDING_SESSION_TTL_MS : SESSION_TTL_MS);
  const session = await insertSession(db, {
    id: newId("ses"),
    tokenHash: await hashSessionToken(token),
    userId: user.id,
    userAgent: client.userAgent?.slice(0, 300) ?? null,
    ip: client.ip,
    method,
    twoFactorPending: pending,
    expiresAt,
  });
  return signIn(env, pending ? null : user, session.id, token, expiresAt);
}

/** The AuthResponse of a new session; a null user means the two-factor step is still owed. */
export async function signIn(env: Env, user: UserRow | null, sessionId: string, token: string, expiresAt: number): Promise<SignIn> {
  return {
    token,
    expiresAt,
    response: {
      status: user ? "authenticated" : "two_factor_required",
      user: user ? toUserOut(user) : null,
      session_id: sessionId,
      expires_at: iso(expiresAt),
      csrf_token: await csrfTokenFor(env, token),
    },
  };
}

/** Creates an account (email unused, password within policy) with its wallet and sign-up credits. */
export async function createAccount(
  db: DB,
  input: { email: string; name: string | null; passwordHash: string | null; emailVerified: boolean },
): Promise<UserRow> {
  const user = await insertUser(db, {
    id: newId("usr"),
    email: input.email,
    name: input.name,
    passwordHash: input.passwordHash,
    emailVerifiedAt: input.emailVerified ? Date.now() : null,
  });
  if (!user) throw new ApiError("email_taken", "An account with this email already exists; sign in, or reset the password.");
  const credits = PLANS.free.monthly_credits;
  await grantSignupCredits(db, user.id, credits);
  return user;
}

/** Mails a fresh verification link (earlier unused links stop working). */
export async function sendVerification(db: DB, env: Env, user: UserRow): Promise<void> {
  const token = await issueToken(db, "verify_email", { userId: user.id, email: user.email }, true);
  await mailer(env).send(authMail.verifyEmail(user.email, link(env, "/verify-email", token)));
}

/** Work that runs after the answer is sent; failures are logged, never shown to the caller. */
export async function inBackground(what: string, work: Promise<unknown>): Promise<void> {
  try {
    await work;
  } catch (err) {
    log.error("background task failed", { task: what, error: err });
  }
}

/** POST /auth/register: the account, a signed-in session, and (after the answer) a verification mail. */
export async function register(
  db: DB,
  env: Env,
  input: { email: string; password: string; name?: string },
  client: ClientInfo,
  defer: (p: Promise<unknown>) => void,
): Promise<SignIn> {
  refusePassword(input.password, input.email);
  const user = await createAccount(db, {
    email: input.email,
    name: input.name ?? null,
    passwordHash: await hashPassword(input.password),
    emailVerified: false,
  });
  defer(inBackground("verification mail", sendVerification(db, env, user)));
  return openSession(db, env, user, "register", client);
}

/**
 * POST /auth/login. Unknown email, password-less account and wrong password all answer the same
 * 401 after the same KDF work, so neither the message nor the timing tells which it was.
 */
export async function login(db: DB, env: Env, input: { email: string; password: string }, client: ClientInfo): Promise<SignIn> {
  const user = await findUserByEmail(db, input.email);
  const ok = await verifyPassword(input.password, user?.passwordHash ?? (await decoyHash()));
  if (!user || !user.passwordHash || !ok) throw new ApiError("invalid_credentials", "The email or password is wrong.");
  if (needsRehash(user.passwordHash)) await updateUser(db, user.id, { passwordHash: await hashPassword(input.password) });
  return openSession(db, env, user, "password", client);
}

export async function me(db: DB, userId: string): Promise<z.infer<typeof UserOut>> {
  const user = await findUserById(db, userId);
  if (!user) throw new ApiError("unauthorized", "The account no longer exists.");
  return toUserOut(user);
}

export async function logout(db: DB, userId: string, sessionId: string): Promise<void> {
  await revokeSession(db, userId, sessionId, Date.now());
}

/** Ends every session of the account (API keys stay valid: revoke those under /account/api-keys). */
export async function logoutAll(db: DB, userId: string): Promise<void> {
  await revokeSessions(db, userId, Date.now());
}

async function useToken(db: DB, purpose: "magic_link" | "verify_email" | "reset_password", token: string) {
  const result = await consumeAuthToken(db, purpose, await sha256Hex(token), Date.now());
  if (result.ok) return result.token;
  if (result.reason === "expired") throw new ApiError("link_expired", "This link has expired; ask for a new one.");
  throw new ApiError(
    "invalid_token",
    result.reason === "used" ? "This link was already used; ask for a new one." : "This link is not valid.",
  );
}

/** POST /auth/verify-email: marks the address confirmed. */
export async function verifyEmail(db: DB, token: string): Promise<z.infer<typeof UserOut>> {
  const row = await useToken(db, "verify_email", token);
  const user = row.userId ? await findUserById(db, row.userId) : undefined;
  // The address must still be the one the link was sent to.
  if (!user || user.email !== row.email) throw new ApiError("invalid_token", "This link is not valid any more.");
  const updated = user.emailVerifiedAt === null ? await updateUser(db, user.id, { emailVerifiedAt: Date.now() }) : user;
  return toUserOut(updated ?? user);
}

export async function resendVerification(db: DB, env: Env, userId: string, defer: (p: Promise<unknown>) => void): Promise<void> {
  const user = await findUserById(db, userId);
  if (!user) throw new ApiError("unauthorized", "The account no longer exists.");
  if (user.emailVerifiedAt !== null) throw new ApiError("conflict", "The email address is already confirmed.");
  defer(inBackground("verification mail", sendVerification(db, env, user)));
}

/**
 * POST /auth/magic-link, run after the answer (which is the same for every address): mails a
 * sign-in link. For an address without an account the link creates one when used.
 */
export async function sendMagicLink(db: DB, env: Env, email: string): Promise<void> {
  const user = await findUserByEmail(db, email);
  const token = await issueToken(db, "magic_link", { userId: user?.id ?? null, email });
  await mailer(env).send(authMail.magicLink(email, link(env, "/magic-link", token)));
}

/** POST /auth/magic-link/verify: signs in (creating the account for a new address); the address is now confirmed. */
export async function verifyMagicLink(db: DB, env: Env, token: string, client: ClientInfo): Promise<SignIn> {
  const row = await useToken(db, "magic_link", token);
  const email = row.email!;
  let user = await findUserByEmail(db, email);
  if (user && row.userId && user.id !== row.userId) throw new ApiError("invalid_token", "This link is not valid any more.");
  if (!user) user = await createAccount(db, { email, name: null, passwordHash: null, emailVerified: true });
  else if (user.emailVerifiedAt === null) user = (await updateUser(db, user.id, { emailVerifiedAt: Date.now() })) ?? user;
  return openSession(db, env, user, "magic_link", client);
}

/** POST /auth/forgot-password, run after the answer: mails a reset link if the account exists. */
export async function sendPasswordReset(db: DB, env: Env, email: string): Promise<void> {
  const user = await findUserByEmail(db, email);
  if (!user) return;
  const token = await issueToken(db, "reset_password", { userId: user.id, email }, true);
  await mailer(env).send(authMail.resetPassword(email, link(env, "/reset-password", token)));
}

/** POST /auth/reset-password: sets the new password and ends every session. */
export async function resetPassword(db: DB, token: string, password: string): Promise<z.infer<typeof UserOut>> {
  // The policy is checked before the token is used up, so a refused password does not burn the link.
  const pending = await findAuthToken(db, "reset_password", await sha256Hex(token));
  refusePassword(password, pending?.email ?? undefined);
  const row = await useToken(db, "reset_password", token);
  const user = row.userId ? await findUserById(db, row.userId) : undefined;
  if (!user || user.email !== row.email) throw new ApiError("invalid_token", "This link is not valid any more.");
  const updated = await updateUser(db, user.id, {
    passwordHash: await hashPassword(password),
    emailVerifiedAt: user.emailVerifiedAt ?? Date.now(),
  });
  await revokeSessions(db, user.id, Date.now());
  return toUserOut(updated ?? user);
}

/**
 * POST /auth/change-password: needs the current password when the account has one (a password-less
 * account sets its first one). Every other session ends; this one stays.
 */
export async function changePassword(
  db: DB,
  userId: string,
  sessionId: string,
  input: { current_password?: string; new_password: string },
): Promise<void> {
  const user = await findUserById(db, userId);
  if (!user) throw new ApiError("unauthorized", "The account no longer exists.");
  if (user.passwordHash && !(await verifyPassword(input.current_password ?? "", user.passwordHash))) {
    throw new ApiError("invalid_credentials", "The current password is wrong.");
  }
  refusePassword(input.new_password, user.email);
  await updateUser(db, user.id, { passwordHash: await hashPassword(input.new_password) });
  await revokeSessions(db, user.id, Date.now(), sessionId);
}

/** GET /auth/sessions: live sessions, newest first, the caller's flagged `current`. */
export async function listSessions(db: DB, userId: string, currentId: string | null): Promise<z.infer<typeof SessionOut>[]> {
  const rows = await listLiveSessions(db, userId, Date.now());
  return rows.map((s) => ({
    id: s.id,
    user_agent: s.userAgent,
    ip: s.ip,
    method: s.method,
    created_at: iso(s.createdAt),
    last_seen_at: s.lastSeenAt === null ? null : iso(s.lastSeenAt),
    expires_at: iso(s.expiresAt),
    current: s.id === currentId,
  }));
}

/** DELETE /auth/sessions/{id}: another account's or an ended session is 404. */
export async function endSession(db: DB, userId: string, sessionId: string): Promise<void> {
  if (!(await revokeSession(db, userId, sessionId, Date.now()))) throw new ApiError("not_found", `No session ${sessionId}.`);
}
