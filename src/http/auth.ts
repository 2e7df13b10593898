import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../env";
import { assertCsrf, isUnsafeMethod } from "./csrf";
import { ApiError } from "./errors";

/** last_used_at / last_seen_at are written at most once a minute per credential, keeping reads cheap. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * The session cookie. Over https it carries the `__Host-` prefix (the browser then insists on
 * Secure, Path=/ and no Domain, so no subdomain can plant or read it); plain-http development
 * uses the bare name because browsers refuse `__Host-` cookies without https.
 */
export function sessionCookieName(c: Context<AppEnv>): string {
  return new URL(c.req.url).protocol === "https:" ? "__Host-session" : "session";
}

export function sessionTokenOf(c: Context<AppEnv>): string | undefined {
  return getCookie(c, sessionCookieName(c)) || undefined;
}

export function setSessionCookie(c: Context<AppEnv>, token: string, expiresAt: number): void {
  setCookie(c, sessionCookieName(c), token, {
    path: "/",
    httpOnly: true,
    secure: true,
    sameSite: "Lax",
    expires: new Date(expiresAt),
  });
}

export function clearSessionCookie(c: Context<AppEnv>): void {
  deleteCookie(c, sessionCookieName(c), { path: "/", httpOnly: true, secure: true, sameSite: "Lax" });
}

async function apiKeyAuth(c: Context<AppEnv>, header: string): Promise<void> {
  const key = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  const store = c.get("credentials");
  if (!key || !key.startsWith(store.apiKeyPrefix))
    throw new ApiError("invalid_api_key", "The Authorization header does not carry a lik_live_ API key.");
  const now = Date.now();
  const row = await store.findApiKey(c.get("db"), key);
  if (!row || (row.expiresAt !== null && row.expiresAt <= now))
    throw new ApiError("invalid_api_key", "The API key is unknown, revoked or expired.");
  if (row.lastUsedAt === null || now - row.lastUsedAt > TOUCH_INTERVAL_MS)
    c.executionCtx.waitUntil(store.touchApiKey(c.get("db"), row.id, now));
  c.set("auth", { userId: row.userId, plan: row.plan, via: "api_key", credentialId: row.id });
}

type Stage = "complete" | "pending" | "any";

/**
 * Resolves the session cookie and sets `auth`. `stage` says which sessions the route takes:
 * complete sign-ins (everything), the two-factor pending state (only 2fa/verify), or either
 * (logout, the CSRF value). Unsafe methods must also carry the session's CSRF value.
 */
async function sessionAuth(c: Context<AppEnv>, token: string, stage: Stage): Promise<void> {
  const now = Date.now();
  const store = c.get("credentials");
  const row = await store.findSession(c.get("db"), token);
  if (!row || row.session.expiresAt <= now) throw new ApiError("unauthorized", "The session has ended or expired; sign in again.");
  const { session } = row;
  if (isUnsafeMethod(c.req.method)) await assertCsrf(c, token);
  if (stage === "complete" && session.twoFactorPending) {
    throw new ApiError("two_factor_required", "Sign-in is waiting for the two-factor code: POST /api/v1/auth/2fa/verify.");
  }
  if (stage === "pending" && !session.twoFactorPending) throw new ApiError("conflict", "This session has no two-factor step pending.");
  if (session.lastSeenAt === null || now - session.lastSeenAt > TOUCH_INTERVAL_MS)
    c.executionCtx.waitUntil(store.touchSession(c.get("db"), session.id, now));
  c.set("auth", { userId: session.userId, plan: row.plan, via: "session", credentialId: session.id });
}

/**
 * Every protected route: either `Authorization: Bearer lik_live_…` (an unknown, revoked or expired
 * key is 401 `invalid_api_key`) or the web session cookie (plus `X-CSRF-Token` on unsafe methods,
 * else 403 `csrf_failed`). An Authorization header wins over a cookie.
 */
export const requireAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  const header = c.req.header("Authorization");
  const token = sessionTokenOf(c);
  if (header) await apiKeyAuth(c, header);
  else if (token) await sessionAuth(c, token, "complete");
  else throw new ApiError("unauthorized", "Send an API key as `Authorization: Bearer lik_live_…`, or sign in for a session cookie.");
  await next();
};

function sessionOnly(stage: Stage): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = sessionTokenOf(c);
    if (!token) {
      if (c.req.header("Authorization"))
        throw new ApiError("forbidden", "This operation needs a signed-in web session; API keys cannot manage sign-in credentials.");
      throw new ApiError("unauthorized", "Sign in first: this operation needs the session cookie.");
    }
    await sessionAuth(c, token, stage);
    await next();
  };
}

/**
 * Credential management (sessions, two-factor, password, API keys, account deletion): a web
 * session only, so a leaked API key can neither mint keys nor lock the owner out.
 */
export const requireSession = sessionOnly("complete");
/** 2fa/verify: the session opened by the password (or link, or identity provider) step, code still owed. */
export const requirePendingSession = sessionOnly("pending");
/** Logout and the CSRF value: any session, complete or pending. */
export const requireAnySession = sessionOnly("any");
