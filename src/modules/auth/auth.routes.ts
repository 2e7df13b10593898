import { z } from "@hono/zod-openapi";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../../env";
import { clearSessionCookie, requireAnySession, requirePendingSession, sessionTokenOf } from "../../http/auth";
import { CSRF_HEADER, csrfTokenFor } from "../../http/csrf";
import { ApiError } from "../../http/errors";
import { logUnexpected } from "../../http/on-error";
import { errors, json } from "../../http/openapi";
import { clientIp, jsonField, rateLimit } from "../../http/rate-limit";
import { answerWith, authedRoutes, jsonBody, noContentAfter, publicRoutes, sessionRoutes } from "../../http/route";
import { validationHook } from "../../http/validation";
import { readOutbox } from "../../providers/mail/outbox";
import { client, defer, isNavigation, oauthCookieName, signedIn, toSignInPage } from "./auth.http";
import * as schemas from "./auth.schemas";
import * as auth from "./auth.service";
import { finishOAuth, startOAuth } from "./oauth.service";
import * as twoFactor from "./two-factor.service";

const open = publicRoutes("Authentication");
const authed = authedRoutes("Authentication");
const session = sessionRoutes("Authentication");

/** RL_AUTH's period in wrangler.toml. */
const AUTH_PERIOD_SECONDS = 60;

/**
 * Sign-in attempts count against the address being signed into and, when known, the client IP:
 * one stops guessing one account's password from many places, the other one client trying many accounts.
 */
function authLimit(action: string) {
  return rateLimit({
    binding: (env) => env.RL_AUTH,
    periodSeconds: AUTH_PERIOD_SECONDS,
    key: async (c) => {
      const email = await jsonField(c, "email");
      const ip = clientIp(c);
      return [email ? `${action}:email:${email}` : null, ip ? `${action}:ip:${ip}` : null];
    },
  });
}

/** Two-factor codes count per account: six digits must not be guessable at request speed. */
const twoFactorLimit = rateLimit({
  binding: (env) => env.RL_AUTH,
  periodSeconds: AUTH_PERIOD_SECONDS,
  key: (c) => [`2fa:${c.get("auth").userId}`],
});

const noContent = (description: string) => ({ 204: { description } });

/** Same answer for every address of the enumeration-safe requests; the work runs after it is sent. */
const ACCEPTED = { accepted: true } as const;

/**
 * The enumeration-safe mail requests, by rate-limit bucket (deployed limits count under these
 * names, so they must not change): an address in, 202 at once whatever the address, the mail
 * sent in the background (`what` names it in the log).
 */
const MAIL_REQUESTS = {
  magic: {
    summary: "Mail a sign-in link; always the same answer, whether or not an account exists",
    what: "magic link",
    send: auth.sendMagicLink,
  },
  forgot: {
    summary: "Mail a password reset link; always the same answer, whether or not an account exists",
    what: "password reset",
    send: auth.sendPasswordReset,
  },
} as const;

function mailRequest(path: string, operationId: string, limit: keyof typeof MAIL_REQUESTS) {
  const { summary, what, send } = MAIL_REQUESTS[limit];
  return open("post", path, operationId, {
    summary,
    middleware: [authLimit(limit)] as const,
    request: jsonBody(schemas.MagicLinkRequest),
    responses: { 202: json(schemas.Accepted, "Accepted"), ...errors(422, 429) },
    handler: async (c) => {
      c.executionCtx.waitUntil(auth.inBackground(what, send(c.get("db"), c.env, c.req.valid("json").email)));
      return c.json(ACCEPTED, 202);
    },
  });
}

export const authRoutes = [
  open("post", "/api/v1/auth/register", "register", {
    summary: "Create an account with email and password; signs in (session cookie) and mails a verification link",
    middleware: [authLimit("register")] as const,
    request: jsonBody(schemas.RegisterRequest),
    responses: { 201: json(schemas.AuthResponse, "Signed in"), ...errors(409, 422, 429) },
    handler: async (c) => c.json(signedIn(c, await auth.register(c.get("db"), c.env, c.req.valid("json"), client(c), defer(c))), 201),
  }),
  open("post", "/api/v1/auth/login", "login", {
    summary: "Sign in with email and password; with two-factor on, the answer is `two_factor_required`",
    middleware: [authLimit("login")] as const,
    request: jsonBody(schemas.LoginRequest),
    responses: { 200: json(schemas.AuthResponse, "Signed in, or waiting for the two-factor code"), ...errors(401, 422, 429) },
    handler: async (c) => c.json(signedIn(c, await auth.login(c.get("db"), c.env, c.req.valid("json"), client(c))), 200),
  }),
  session("post", "/api/v1/auth/2fa/verify", "verifyTwoFactor", {
    summary: "Complete a pending sign-in with a TOTP or recovery code (session cookie of the pending state)",
    middleware: [requirePendingSession, twoFactorLimit] as const,
    request: jsonBody(schemas.TwoFactorRequest),
    responses: { 200: json(schemas.AuthResponse, "Signed in"), ...errors(400, 401, 403, 409, 422, 429) },
    handler: async (c) => {
      const { userId, credentialId } = c.get("auth");
      const s = await twoFactor.verifyTwoFactorSignIn(c.get("db"), c.env, userId, credentialId, c.req.valid("json").code);
      return c.json(signedIn(c, s), 200);
    },
  }),
  session("post", "/api/v1/auth/logout", "logout", {
    summary: "End this session",
    middleware: [requireAnySession] as const,
    responses: { ...noContent("Signed out"), ...errors(401, 403) },
    handler: async (c) => {
      await auth.logout(c.get("db"), c.get("auth").userId, c.get("auth").credentialId);
      clearSessionCookie(c);
      return c.body(null, 204);
    },
  }),
  session("post", "/api/v1/auth/logout-all", "logoutAll", {
    summary: "End every session of the account (API keys stay valid)",
    responses: { ...noContent("Every session ended"), ...errors(401, 403) },
    handler: async (c) => {
      await auth.logoutAll(c.get("db"), c.get("auth").userId);
      clearSessionCookie(c);
      return c.body(null, 204);
    },
  }),
  authed("get", "/api/v1/auth/me", "getMe", {
    summary: "The signed-in user",
    responses: { 200: json(schemas.UserOut, "The user"), ...errors(401) },
    handler: answerWith((c) => auth.me(c.get("db"), c.get("auth").userId)),
  }),
  session("get", "/api/v1/auth/csrf", "getCsrfToken", {
    summary: "The CSRF value to send as X-CSRF-Token on unsafe cookie-authenticated requests",
    middleware: [requireAnySession] as const,
    responses: {
      200: json(schemas.StringMap.openapi({ example: { csrf_token: "…", header: "X-CSRF-Token" } }), "CSRF value"),
      ...errors(401),
    },
    handler: async (c) => c.json({ csrf_token: await csrfTokenFor(c.env, sessionTokenOf(c)!), header: CSRF_HEADER }, 200),
  }),
  open("post", "/api/v1/auth/verify-email", "verifyEmail", {
    summary: "Confirm the email address with the mailed token",
    request: jsonBody(schemas.TokenRequest),
    responses: { 200: json(schemas.UserOut, "Address confirmed"), ...errors(400, 410, 422) },
    handler: answerWith((c) => auth.verifyEmail(c.get("db"), c.req.valid("json").token)),
  }),
  authed("post", "/api/v1/auth/resend-verification", "resendVerification", {
    summary: "Mail a new verification link",
    responses: { 202: json(schemas.Accepted, "Mail queued"), ...errors(401, 403, 409) },
    handler: async (c) => {
      await auth.resendVerification(c.get("db"), c.env, c.get("auth").userId, defer(c));
      return c.json(ACCEPTED, 202);
    },
  }),
  mailRequest("/api/v1/auth/magic-link", "requestMagicLink", "magic"),
  open("post", "/api/v1/auth/magic-link/verify", "verifyMagicLink", {
    summary: "Sign in with a mailed link's token (creates the account for a new address)",
    request: jsonBody(schemas.TokenRequest),
    responses: { 200: json(schemas.AuthResponse, "Signed in"), ...errors(400, 410, 422) },
    handler: async (c) => c.json(signedIn(c, await auth.verifyMagicLink(c.get("db"), c.env, c.req.valid("json").token, client(c))), 200),
  }),
  mailRequest("/api/v1/auth/forgot-password", "forgotPassword", "forgot"),
  open("post", "/api/v1/auth/reset-password", "resetPassword", {
    summary: "Set a new password with a mailed token; ends every session",
    request: jsonBody(schemas.PasswordResetRequest),
    responses: { 200: json(schemas.UserOut, "Password changed"), ...errors(400, 410, 422) },
    handler: answerWith((c) => {
      const { token, password } = c.req.valid("json");
      return auth.resetPassword(c.get("db"), token, password);
    }),
  }),
  session("post", "/api/v1/auth/change-password", "changePassword", {
    summary: "Change (or set a first) password; ends the other sessions",
    request: jsonBody(schemas.ChangePasswordRequest),
    responses: { ...noContent("Password changed"), ...errors(401, 403, 422) },
    handler: noContentAfter((c) => auth.changePassword(c.get("db"), c.get("auth").userId, c.get("auth").credentialId, c.req.valid("json"))),
  }),
  session("get", "/api/v1/auth/sessions", "listSessions", {
    summary: "Live sessions, newest first",
    responses: { 200: json(z.array(schemas.SessionOut), "Sessions"), ...errors(401, 403) },
    handler: answerWith((c) => auth.listSessions(c.get("db"), c.get("auth").userId, c.get("auth").credentialId)),
  }),
  session("delete", "/api/v1/auth/sessions/{session_id}", "revokeSession", {
    summary: "End one session",
    request: { params: schemas.SessionIdParam },
    responses: { ...noContent("Session ended"), ...errors(401, 403, 404, 422) },
    handler: noContentAfter((c) => auth.endSession(c.get("db"), c.get("auth").userId, c.req.valid("param").session_id)),
  }),
  session("post", "/api/v1/auth/2fa/start", "startTwoFactor", {
    summary: "A new TOTP secret, its otpauth:// URI and recovery codes; active after /2fa/confirm",
    responses: { 200: json(z.record(z.string(), z.unknown()), "Secret, URI and recovery codes"), ...errors(401, 403, 409) },
    handler: answerWith((c) => twoFactor.startTwoFactor(c.get("db"), c.get("auth").userId)),
  }),
  session("post", "/api/v1/auth/2fa/confirm", "confirmTwoFactor", {
    summary: "Turn two-factor sign-in on with a code from the app",
    request: jsonBody(schemas.TwoFactorRequest),
    responses: { ...noContent("Two-factor enabled"), ...errors(400, 401, 403, 409, 422) },
    handler: noContentAfter((c) => twoFactor.confirmTwoFactor(c.get("db"), c.get("auth").userId, c.req.valid("json").code)),
  }),
  session("delete", "/api/v1/auth/2fa", "disableTwoFactor", {
    summary: "Turn two-factor sign-in off with a valid code or recovery code",
    request: jsonBody(schemas.TwoFactorRequest),
    responses: { ...noContent("Two-factor disabled"), ...errors(400, 401, 403, 409, 422) },
    handler: noContentAfter((c) => twoFactor.disableTwoFactor(c.get("db"), c.get("auth").userId, c.req.valid("json").code)),
  }),
  open("get", "/api/v1/auth/oauth/{idp}/start", "oauthStart", {
    summary: "The identity provider's authorization URL (state, nonce and PKCE kept server-side)",
    request: { params: schemas.IdpParam },
    responses: {
      200: json(schemas.StringMap.openapi({ example: { authorization_url: "https://…", state: "…" } }), "Authorization URL"),
      ...errors(404, 422, 503),
    },
    handler: async (c) => {
      const { authorization_url, state, binding } = await startOAuth(c.get("db"), c.env, c.req.valid("param").idp);
      setCookie(c, oauthCookieName(c), binding, { path: "/", httpOnly: true, secure: true, sameSite: "Lax", maxAge: 600 });
      return c.json({ authorization_url, state }, 200);
    },
  }),
  open("get", "/api/v1/auth/oauth/{idp}/callback", "oauthCallback", {
    summary: "Finish identity-provider sign-in with the code and state it returned",
    request: { params: schemas.IdpParam, query: schemas.OAuthCallbackQuery },
    responses: {
      200: json(schemas.AuthResponse, "Signed in"),
      303: {
        description:
          "Browser navigations (`Sec-Fetch-Dest: document`) go on to the web app: `/login?oauth=authenticated` or `?oauth=two_factor_required` (session cookie set), or `/login?oauth_error=<message>`.",
      },
      ...errors(400, 404, 422, 503),
    },
    handler: async (c) => {
      const { code, state } = c.req.valid("query");
      let s: auth.SignIn;
      try {
        const binding = getCookie(c, oauthCookieName(c));
        s = await finishOAuth(c.get("db"), c.env, c.req.valid("param").idp, { code, state, binding }, client(c));
      } catch (err) {
        if (!isNavigation(c)) throw err;
        if (err instanceof ApiError) {
          const reason = err.details?.reason;
          return toSignInPage(c, { oauth_error: typeof reason === "string" ? reason : err.code });
        }
        // A browser never lands on a raw JSON 500: the failure is logged as onError would, the page words it.
        logUnexpected(c, err);
        return toSignInPage(c, { oauth_error: "internal_error" });
      }
      const response = signedIn(c, s);
      return isNavigation(c) ? toSignInPage(c, { oauth: response.status }) : c.json(response, 200);
    },
    hook: (result, c) => {
      // A provider that refuses or is cancelled sends the browser back with `error` and no code.
      // Only an error code is passed on (the page words it): free text from the URL would let any
      // link put words on the sign-in page.
      if (!result.success && isNavigation(c)) {
        const error = c.req.query("error");
        return toSignInPage(c, { oauth_error: error && /^[a-z_]{1,64}$/.test(error) ? error : "provider_refused" });
      }
      // Everything else: the app's 422 validation_error (it throws on failure).
      validationHook(result, c);
      return undefined;
    },
  }),
];

/** Development only: the mails the outbox provider "sent", newest first. Not part of the public API. */
export function registerMailOutbox(app: OpenAPIHono<AppEnv>) {
  app.get("/api/v1/dev/outbox", async (c) => {
    if (c.env.ENVIRONMENT !== "development" || c.env.MAIL_PROVIDER !== "outbox") {
      throw new ApiError("forbidden", "The mail outbox exists only in development.");
    }
    const limit = Math.min(Math.max(Number(c.req.query("limit") ?? 20) || 20, 1), 100);
    return c.json({ messages: await readOutbox(c.env.FILES, { to: c.req.query("to"), limit }) }, 200);
  });
}
