import { z } from "@hono/zod-openapi";
import { requireAnySession, requireAuth, requirePendingSession, requireSession } from "../../http/auth";
import { authed, errors, json } from "../../http/openapi";
import { clientIp, jsonField, rateLimit } from "../../http/rate-limit";
import {
  Accepted,
  AuthResponse,
  ChangePasswordRequest,
  IdpParam,
  LoginRequest,
  MagicLinkRequest,
  OAuthCallbackQuery,
  PasswordResetRequest,
  RegisterRequest,
  SessionIdParam,
  SessionOut,
  StringMap,
  TokenRequest,
  TwoFactorRequest,
  UserOut,
} from "./auth.schemas";
import { authedRoutes, publicRoutes, sessionRoutes, jsonBody, operation } from "../../http/route";

const openRoute = publicRoutes("Authentication");
const authedRoute = authedRoutes("Authentication");
const sessionRoute = sessionRoutes("Authentication");

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

export const register = openRoute({
  ...operation("post", "/api/v1/auth/register", "register"),
  summary: "Create an account with email and password; signs in (session cookie) and mails a verification link",
  middleware: [authLimit("register")] as const,
  request: jsonBody(RegisterRequest),
  responses: { 201: json(AuthResponse, "Signed in"), ...errors(409, 422, 429) },
});

export const login = openRoute({
  ...operation("post", "/api/v1/auth/login", "login"),
  summary: "Sign in with email and password; with two-factor on, the answer is `two_factor_required`",
  middleware: [authLimit("login")] as const,
  request: jsonBody(LoginRequest),
  responses: { 200: json(AuthResponse, "Signed in, or waiting for the two-factor code"), ...errors(401, 422, 429) },
});

export const verifyTwoFactor = sessionRoute({
  ...operation("post", "/api/v1/auth/2fa/verify", "verifyTwoFactor"),
  summary: "Complete a pending sign-in with a TOTP or recovery code (session cookie of the pending state)",
  middleware: [requirePendingSession, twoFactorLimit] as const,
  request: jsonBody(TwoFactorRequest),
  responses: { 200: json(AuthResponse, "Signed in"), ...errors(400, 401, 403, 409, 422, 429) },
});

export const logout = sessionRoute({
  ...operation("post", "/api/v1/auth/logout", "logout"),
  summary: "End this session",
  middleware: [requireAnySession] as const,
  responses: { ...noContent("Signed out"), ...errors(401, 403) },
});

export const logoutAll = sessionRoute({
  ...operation("post", "/api/v1/auth/logout-all", "logoutAll"),
  summary: "End every session of the account (API keys stay valid)",
  responses: { ...noContent("Every session ended"), ...errors(401, 403) },
});

export const getMe = authedRoute({
  ...operation("get", "/api/v1/auth/me", "getMe"),
  summary: "The signed-in user",
  responses: { 200: json(UserOut, "The user"), ...errors(401) },
});

export const getCsrf = sessionRoute({
  ...operation("get", "/api/v1/auth/csrf", "getCsrfToken"),
  summary: "The CSRF value to send as X-CSRF-Token on unsafe cookie-authenticated requests",
  middleware: [requireAnySession] as const,
  responses: { 200: json(StringMap.openapi({ example: { csrf_token: "…", header: "X-CSRF-Token" } }), "CSRF value"), ...errors(401) },
});

export const verifyEmail = openRoute({
  ...operation("post", "/api/v1/auth/verify-email", "verifyEmail"),
  summary: "Confirm the email address with the mailed token",
  request: jsonBody(TokenRequest),
  responses: { 200: json(UserOut, "Address confirmed"), ...errors(400, 410, 422) },
});

export const resendVerification = authedRoute({
  ...operation("post", "/api/v1/auth/resend-verification", "resendVerification"),
  summary: "Mail a new verification link",
  responses: { 202: json(Accepted, "Mail queued"), ...errors(401, 403, 409) },
});

export const requestMagicLink = openRoute({
  ...operation("post", "/api/v1/auth/magic-link", "requestMagicLink"),
  summary: "Mail a sign-in link; always the same answer, whether or not an account exists",
  middleware: [authLimit("magic")] as const,
  request: jsonBody(MagicLinkRequest),
  responses: { 202: json(Accepted, "Accepted"), ...errors(422, 429) },
});

export const verifyMagicLink = openRoute({
  ...operation("post", "/api/v1/auth/magic-link/verify", "verifyMagicLink"),
  summary: "Sign in with a mailed link's token (creates the account for a new address)",
  request: jsonBody(TokenRequest),
  responses: { 200: json(AuthResponse, "Signed in"), ...errors(400, 410, 422) },
});

export const forgotPassword = openRoute({
  ...operation("post", "/api/v1/auth/forgot-password", "forgotPassword"),
  summary: "Mail a password reset link; always the same answer, whether or not an account exists",
  middleware: [authLimit("forgot")] as const,
  request: jsonBody(MagicLinkRequest),
  responses: { 202: json(Accepted, "Accepted"), ...errors(422, 429) },
});

export const resetPassword = openRoute({
  ...operation("post", "/api/v1/auth/reset-password", "resetPassword"),
  summary: "Set a new password with a mailed token; ends every session",
  request: jsonBody(PasswordResetRequest),
  responses: { 200: json(UserOut, "Password changed"), ...errors(400, 410, 422) },
});

export const changePassword = sessionRoute({
  ...operation("post", "/api/v1/auth/change-password", "changePassword"),
  summary: "Change (or set a first) password; ends the other sessions",
  request: jsonBody(ChangePasswordRequest),
  responses: { ...noContent("Password changed"), ...errors(401, 403, 422) },
});

export const listSessions = sessionRoute({
  ...operation("get", "/api/v1/auth/sessions", "listSessions"),
  summary: "Live sessions, newest first",
  responses: { 200: json(z.array(SessionOut), "Sessions"), ...errors(401, 403) },
});

export const revokeSession = sessionRoute({
  ...operation("delete", "/api/v1/auth/sessions/{session_id}", "revokeSession"),
  summary: "End one session",
  request: { params: SessionIdParam },
  responses: { ...noContent("Session ended"), ...errors(401, 403, 404, 422) },
});

export const startTwoFactor = sessionRoute({
  ...operation("post", "/api/v1/auth/2fa/start", "startTwoFactor"),
  summary: "A new TOTP secret, its otpauth:// URI and recovery codes; active after /2fa/confirm",
  responses: { 200: json(z.record(z.string(), z.unknown()), "Secret, URI and recovery codes"), ...errors(401, 403, 409) },
});

export const confirmTwoFactor = sessionRoute({
  ...operation("post", "/api/v1/auth/2fa/confirm", "confirmTwoFactor"),
  summary: "Turn two-factor sign-in on with a code from the app",
  request: jsonBody(TwoFactorRequest),
  responses: { ...noContent("Two-factor enabled"), ...errors(400, 401, 403, 409, 422) },
});

export const disableTwoFactor = sessionRoute({
  ...operation("delete", "/api/v1/auth/2fa", "disableTwoFactor"),
  summary: "Turn two-factor sign-in off with a valid code or recovery code",
  request: jsonBody(TwoFactorRequest),
  responses: { ...noContent("Two-factor disabled"), ...errors(400, 401, 403, 409, 422) },
});

export const oauthStart = openRoute({
  ...operation("get", "/api/v1/auth/oauth/{idp}/start", "oauthStart"),
  summary: "The identity provider's authorization URL (state, nonce and PKCE kept server-side)",
  request: { params: IdpParam },
  responses: {
    200: json(StringMap.openapi({ example: { authorization_url: "https://…", state: "…" } }), "Authorization URL"),
    ...errors(404, 422, 503),
  },
});

export const oauthCallback = openRoute({
  ...operation("get", "/api/v1/auth/oauth/{idp}/callback", "oauthCallback"),
  summary: "Finish identity-provider sign-in with the code and state it returned",
  request: { params: IdpParam, query: OAuthCallbackQuery },
  responses: {
    200: json(AuthResponse, "Signed in"),
    303: {
      description:
        "Browser navigations (`Sec-Fetch-Dest: document`) go on to the web app: `/login?oauth=authenticated` or `?oauth=two_factor_required` (session cookie set), or `/login?oauth_error=<message>`.",
    },
    ...errors(400, 404, 422, 503),
  },
});
