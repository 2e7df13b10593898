import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { setSessionCookie } from "../../http/auth";
import { clientIp } from "../../http/rate-limit";
import type { ClientInfo, SignIn } from "./auth.service";

/** What the auth service records of the client signing in. */
export function client(c: Context<AppEnv>): ClientInfo {
  return { userAgent: c.req.header("User-Agent") ?? null, ip: clientIp(c) };
}

/** Sets the session cookie of a sign-in; the body is the AuthResponse. */
export function signedIn(c: Context<AppEnv>, s: SignIn) {
  setSessionCookie(c, s.token, s.expiresAt);
  return s.response;
}

/** Binds an OAuth flow to the browser that started it; `__Host-` over https like the session cookie. */
export function oauthCookieName(c: Context<AppEnv>): string {
  return new URL(c.req.url).protocol === "https:" ? "__Host-oauth" : "oauth";
}

/**
 * The identity provider sends the browser itself to the callback: a top-level navigation, which
 * cannot use a JSON answer. It goes on to the web app's sign-in page with the outcome instead
 * (the session cookie set), while API clients get the AuthResponse or the error as JSON.
 */
export function isNavigation(c: Context<AppEnv>): boolean {
  const dest = c.req.header("Sec-Fetch-Dest");
  return dest === "document" || (dest === undefined && (c.req.header("Accept") ?? "").includes("text/html"));
}

/** A fixed same-origin path: nothing in the request chooses where the browser goes. */
export function toSignInPage(c: Context<AppEnv>, outcome: { oauth: string } | { oauth_error: string }) {
  return c.redirect(`/login?${new URLSearchParams(outcome)}`, 303);
}

export const defer = (c: Context<AppEnv>) => (p: Promise<unknown>) => c.executionCtx.waitUntil(p);
