import type { Context } from "hono";
import type { AppEnv } from "../env";
import { hmacSha256Hex, timingSafeEqualStr } from "../lib/crypto";
import { ApiError } from "./errors";

/** Header that carries the CSRF value on cookie-authenticated unsafe requests. */
export const CSRF_HEADER = "X-CSRF-Token";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function isUnsafeMethod(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

function signingSecret(env: Env): string {
  if (!env.SIGNING_SECRET) throw new ApiError("service_unavailable", "SIGNING_SECRET is not configured.");
  return env.SIGNING_SECRET;
}

/**
 * The CSRF value of a session: an HMAC of the session's cookie token. It is stateless, changes with
 * every session, and cannot be derived by a page that can make the browser send the cookie but
 * cannot read it (HttpOnly) or the API's answers (same-origin policy).
 */
export function csrfTokenFor(env: Env, sessionToken: string): Promise<string> {
  return hmacSha256Hex(signingSecret(env), `csrf:${sessionToken}`);
}

/** Refuses with 403 `csrf_failed` unless the request carries the session's CSRF value. */
export async function assertCsrf(c: Context<AppEnv>, sessionToken: string): Promise<void> {
  const sent = c.req.header(CSRF_HEADER);
  if (!sent)
    throw new ApiError(
      "csrf_failed",
      `Cookie-authenticated ${c.req.method} requests must send the ${CSRF_HEADER} header from GET /api/v1/auth/csrf.`,
    );
  if (!timingSafeEqualStr(sent, await csrfTokenFor(c.env, sessionToken))) {
    throw new ApiError("csrf_failed", `The ${CSRF_HEADER} header does not match this session; fetch it again from GET /api/v1/auth/csrf.`);
  }
}
