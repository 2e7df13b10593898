import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../../env";
import { clearSessionCookie, sessionTokenOf, setSessionCookie } from "../../http/auth";
import { CSRF_HEADER, csrfTokenFor } from "../../http/csrf";
import { ApiError } from "../../http/errors";
import { logUnexpected } from "../../http/on-error";
import { validationHook } from "../../http/validation";
import { clientIp } from "../../http/rate-limit";
import { readOutbox } from "../../providers/mail/outbox";
import * as r from "./auth.routes";
import * as auth from "./auth.service";
import { finishOAuth, startOAuth } from "./oauth.service";
import * as twoFactor from "./two-factor.service";

function client(c: Context<AppEnv>): auth.ClientInfo {
  return { userAgent: c.req.header("User-Agent") ?? null, ip: clientIp(c) };
}

/** Sets the session cookie of a sign-in; the body is the AuthResponse. */
function signedIn(c: Context<AppEnv>, s: auth.SignIn) {
  setSessionCookie(c, s.token, s.expiresAt);
  return s.response;
}

/** Binds an OAuth flow to the browser that started it; `__Host-` over https like the session cookie. */
function oauthCookieName(c: Context<AppEnv>): string {
  return new URL(c.req.url).protocol === "https:" ? "__Host-oauth" : "oauth";
}

/**
 * The identity provider sends the browser itself to the callback: a top-level navigation, which
 * cannot use a JSON answer. It goes on to the web app's sign-in page with the outcome instead
 * (the session cookie set), while API clients get the AuthResponse or the error as JSON.
 */
function isNavigation(c: Context<AppEnv>): boolean {
  const dest = c.req.header("Sec-Fetch-Dest");
  return dest === "document" || (dest === undefined && (c.req.header("Accept") ?? "").includes("text/html"));
}

/** A fixed same-origin path: nothing in the request chooses where the browser goes. */
function toSignInPage(c: Context<AppEnv>, outcome: { oauth: string } | { oauth_error: string }) {
  return c.redirect(`/login?${new URLSearchParams(outcome)}`, 303);
}

const defer = (c: Context<AppEnv>) => (p: Promise<unknown>) => c.executionCtx.waitUntil(p);

/** Same answer for every address of the enumeration-safe requests; the work runs after it is sent. */
const ACCEPTED = { accepted: true } as const;

export function registerAuth(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.register, async (c) =>
    c.json(signedIn(c, await auth.register(c.get("db"), c.env, c.req.valid("json"), client(c), defer(c))), 201),
  );

  app.openapi(r.login, async (c) => c.json(signedIn(c, await auth.login(c.get("db"), c.env, c.req.valid("json"), client(c))), 200));

  app.openapi(r.verifyTwoFactor, async (c) => {
    const { userId, credentialId } = c.get("auth");
    return c.json(
      signedIn(c, await twoFactor.verifyTwoFactorSignIn(c.get("db"), c.env, userId, credentialId, c.req.valid("json").code)),
      200,
    );
  });

  app.openapi(r.logout, async (c) => {
    await auth.logout(c.get("db"), c.get("auth").userId, c.get("auth").credentialId);
    clearSessionCookie(c);
    return c.body(null, 204);
  });

  app.openapi(r.logoutAll, async (c) => {
    await auth.logoutAll(c.get("db"), c.get("auth").userId);
    clearSessionCookie(c);
    return c.body(null, 204);
  });

  app.openapi(r.getMe, async (c) => c.json(await auth.me(c.get("db"), c.get("auth").userId), 200));

  app.openapi(r.getCsrf, async (c) => c.json({ csrf_token: await csrfTokenFor(c.env, sessionTokenOf(c)!), header: CSRF_HEADER }, 200));

  app.openapi(r.verifyEmail, async (c) => c.json(await auth.verifyEmail(c.get("db"), c.req.valid("json").token), 200));

  app.openapi(r.resendVerification, async (c) => {
    await auth.resendVerification(c.get("db"), c.env, c.get("auth").userId, defer(c));
    return c.json(ACCEPTED, 202);
  });

  app.openapi(r.requestMagicLink, async (c) => {
    c.executionCtx.waitUntil(auth.inBackground("magic link", auth.sendMagicLink(c.get("db"), c.env, c.req.valid("json").email)));
    return c.json(ACCEPTED, 202);
  });

  app.openapi(r.verifyMagicLink, async (c) =>
    c.json(signedIn(c, await auth.verifyMagicLink(c.get("db"), c.env, c.req.valid("json").token, client(c))), 200),
  );

  app.openapi(r.forgotPassword, async (c) => {
    c.executionCtx.waitUntil(auth.inBackground("password reset", auth.sendPasswordReset(c.get("db"), c.env, c.req.valid("json").email)));
    return c.json(ACCEPTED, 202);
  });

  app.openapi(r.resetPassword, async (c) => {
    const { token, password } = c.req.valid("json");
    return c.json(await auth.resetPassword(c.get("db"), token, password), 200);
  });

  app.openapi(r.changePassword, async (c) => {
    await auth.changePassword(c.get("db"), c.get("auth").userId, c.get("auth").credentialId, c.req.valid("json"));
    return c.body(null, 204);
  });

  app.openapi(r.listSessions, async (c) =>
    c.json(await auth.listSessions(c.get("db"), c.get("auth").userId, c.get("auth").credentialId), 200),
  );

  app.openapi(r.revokeSession, async (c) => {
    await auth.endSession(c.get("db"), c.get("auth").userId, c.req.valid("param").session_id);
    return c.body(null, 204);
  });

  app.openapi(r.startTwoFactor, async (c) => c.json(await twoFactor.startTwoFactor(c.get("db"), c.get("auth").userId), 200));

  app.openapi(r.confirmTwoFactor, async (c) => {
    await twoFactor.confirmTwoFactor(c.get("db"), c.get("auth").userId, c.req.valid("json").code);
    return c.body(null, 204);
  });

  app.openapi(r.disableTwoFactor, async (c) => {
    await twoFactor.disableTwoFactor(c.get("db"), c.get("auth").userId, c.req.valid("json").code);
    return c.body(null, 204);
  });

  app.openapi(r.oauthStart, async (c) => {
    const { authorization_url, state, binding } = await startOAuth(c.get("db"), c.env, c.req.valid("param").idp);
    setCookie(c, oauthCookieName(c), binding, { path: "/", httpOnly: true, secure: true, sameSite: "Lax", maxAge: 600 });
    return c.json({ authorization_url, state }, 200);
  });

  app.openapi(
    r.oauthCallback,
    async (c) => {
      const { code, state } = c.req.valid("query");
      let s: auth.SignIn;
      try {
        s = await finishOAuth(
          c.get("db"),
          c.env,
          c.req.valid("param").idp,
          { code, state, binding: getCookie(c, oauthCookieName(c)) },
          client(c),
        );
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
    (result, c) => {
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
  );

  // Development only: the mails the outbox provider "sent", newest first. Not part of the public API.
  app.get("/api/v1/dev/outbox", async (c) => {
    if (c.env.ENVIRONMENT !== "development" || c.env.MAIL_PROVIDER !== "outbox") {
      throw new ApiError("forbidden", "The mail outbox exists only in development.");
    }
    const limit = Math.min(Math.max(Number(c.req.query("limit") ?? 20) || 20, 1), 100);
    return c.json({ messages: await readOutbox(c.env.FILES, { to: c.req.query("to"), limit }) }, 200);
  });
}
