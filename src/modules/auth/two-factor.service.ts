import type { DB } from "../../db/client";
import { ApiError } from "../../http/errors";
import { sha256Hex } from "../../lib/crypto";
import { newId, newToken } from "../../lib/ids";
import {
  acceptTotpStep,
  consumeRecoveryCode,
  deleteAuthTokens,
  findUserById,
  insertAuthTokens,
  promotePendingSession,
  updateUser,
  type UserRow,
} from "./auth.repo";
import { SESSION_TTL_MS, type SignIn, signIn } from "./auth.service";
import { hashSessionToken } from "./session-token";
import { base32Encode, matchTotp, newTotpSecret, otpauthUri, TOTP_DIGITS, TOTP_PERIOD } from "./totp";

const ISSUER = "Lingoscan";
const RECOVERY_CODES = 10;
/** Recovery codes do not expire; they end when used or when two-factor is turned off or set up again. */
const NEVER = 8_640_000_000_000_000;

function normaliseRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, "");
}

function hashRecoveryCode(code: string): Promise<string> {
  return sha256Hex(`recovery:${normaliseRecoveryCode(code)}`);
}

/** `xxxxx-xxxxx`: 50 random bits in base32, easy to copy from paper. */
function newRecoveryCode(): string {
  const s = base32Encode(crypto.getRandomValues(new Uint8Array(7)))
    .slice(0, 10)
    .toLowerCase();
  return `${s.slice(0, 5)}-${s.slice(5)}`;
}

/**
 * Checks a code for an account with two-factor enabled: a TOTP code (±1 step, each step accepted
 * once) or one of its unused recovery codes (used up by this call).
 */
async function acceptCode(db: DB, user: UserRow, code: string): Promise<void> {
  const now = Date.now();
  if (/^\d{6}$/.test(code)) {
    const step = user.totpSecret ? await matchTotp(user.totpSecret, code, now) : null;
    if (step !== null && (await acceptTotpStep(db, user.id, step))) return;
  } else if (await consumeRecoveryCode(db, user.id, await hashRecoveryCode(code), now)) {
    return;
  }
  throw new ApiError("invalid_two_factor_code", "The code is wrong, outside its 30-second window, or was already used.");
}

async function enabledUser(db: DB, userId: string): Promise<UserRow> {
  const user = await findUserById(db, userId);
  if (!user) throw new ApiError("unauthorized", "The account no longer exists.");
  if (user.totpEnabledAt === null) throw new ApiError("conflict", "Two-factor sign-in is not enabled.");
  return user;
}

/**
 * POST /auth/2fa/start: a new secret with its `otpauth://` URI, and the recovery codes (shown only
 * here). Nothing changes for sign-in until /2fa/confirm proves the app produces valid codes.
 */
export async function startTwoFactor(db: DB, userId: string) {
  const user = await findUserById(db, userId);
  if (!user) throw new ApiError("unauthorized", "The account no longer exists.");
  if (user.totpEnabledAt !== null)
    throw new ApiError("conflict", "Two-factor sign-in is already enabled; disable it first to set up a new app.");
  const secret = newTotpSecret();
  const recoveryCodes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  await updateUser(db, user.id, { totpSecret: secret, totpLastStep: null });
  await deleteAuthTokens(db, user.id, "recovery_code");
  const rows = await Promise.all(
    recoveryCodes.map(async (code) => ({
      id: newId("atk"),
      purpose: "recovery_code" as const,
      tokenHash: await hashRecoveryCode(code),
      userId: user.id,
      email: null,
      expiresAt: NEVER,
    })),
  );
  await insertAuthTokens(db, rows);
  return {
    secret,
    otpauth_uri: otpauthUri(secret, user.email, ISSUER),
    issuer: ISSUER,
    algorithm: "SHA1",
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD,
    recovery_codes: recoveryCodes,
  };
}

/** POST /auth/2fa/confirm: a valid code from the app turns two-factor sign-in on. */
export async function confirmTwoFactor(db: DB, userId: string, code: string): Promise<void> {
  const user = await findUserById(db, userId);
  if (!user) throw new ApiError("unauthorized", "The account no longer exists.");
  if (user.totpEnabledAt !== null) throw new ApiError("conflict", "Two-factor sign-in is already enabled.");
  if (!user.totpSecret) throw new ApiError("conflict", "Start with POST /api/v1/auth/2fa/start.");
  const step = await matchTotp(user.totpSecret, code, Date.now());
  if (step === null || !(await acceptTotpStep(db, user.id, step))) {
    throw new ApiError("invalid_two_factor_code", "The code is wrong or outside its 30-second window; check the phone's clock.");
  }
  await updateUser(db, user.id, { totpEnabledAt: Date.now() });
}

/** DELETE /auth/2fa: a valid code (or recovery code) turns two-factor sign-in off. */
export async function disableTwoFactor(db: DB, userId: string, code: string): Promise<void> {
  const user = await enabledUser(db, userId);
  await acceptCode(db, user, code);
  await updateUser(db, user.id, { totpSecret: null, totpEnabledAt: null, totpLastStep: null });
  await deleteAuthTokens(db, user.id, "recovery_code");
}

/**
 * POST /auth/2fa/verify: completes a pending sign-in. The pending session ends and a full one with
 * a new cookie token replaces it.
 */
export async function verifyTwoFactorSignIn(db: DB, env: Env, userId: string, pendingSessionId: string, code: string): Promise<SignIn> {
  const user = await enabledUser(db, userId);
  await acceptCode(db, user, code);
  const token = newToken();
  const expiresAt = Date.now() + SESSION_TTL_MS;
  const id = newId("ses");
  if (!(await promotePendingSession(db, pendingSessionId, { id, tokenHash: await hashSessionToken(token), expiresAt }, Date.now()))) {
    throw new ApiError("unauthorized", "The pending sign-in has expired; sign in again.");
  }
  return signIn(env, user, id, token, expiresAt);
}
