import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { api, body } from "../helpers/api";
import { PASSWORD, registered, SessionClient, uniqueEmail } from "./session-client";

/**
 * Plays the browser at the identity provider (a real oidc-provider on loopback, see
 * oidc-global-setup.ts): follows its redirects with its cookies until it sends the browser back to
 * our callback, and returns that callback URL (with `code` and `state`).
 */
async function authorizeAtProvider(authorizationUrl: string, loginHint: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = `${authorizationUrl}&login_hint=${encodeURIComponent(loginHint)}`;
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(url, { redirect: "manual", headers: { Cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") } });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = pair!.indexOf("=");
      jar.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
    const location = res.headers.get("Location");
    if (!location) throw new Error(`provider stopped at ${url} with ${res.status}: ${(await res.text()).slice(0, 300)}`);
    const next = new URL(location, url);
    if (next.pathname.endsWith("/callback")) return next;
    url = next.toString();
  }
  throw new Error("too many redirects at the provider");
}

/** Runs start → provider → callback in one browser; returns the callback answer. */
async function signInWithProvider(loginHint: string, client = new SessionClient()) {
  const start = await client.fetch("/api/v1/auth/oauth/localidp/start");
  const s = await body(start);
  expect(start.status, JSON.stringify(s)).toBe(200);
  const back = await authorizeAtProvider(s.authorization_url, loginHint);
  const res = await client.fetch(`/api/v1/auth/oauth/localidp/callback${back.search}`);
  return { res, b: await client.json(res), client, back, start: s };
}

describe("OpenID Connect sign-in against a real provider", () => {
  it("start returns an authorization URL with state, nonce and a PKCE S256 challenge", async () => {
    const client = new SessionClient();
    const res = await client.fetch("/api/v1/auth/oauth/localidp/start");
    const b = await body(res);
    expect(res.status, JSON.stringify(b)).toBe(200);
    const url = new URL(b.authorization_url);
    const issuer = JSON.parse(env.OAUTH_PROVIDERS).localidp.issuer;
    expect(url.origin).toBe(new URL(issuer).origin);
    expect(url.searchParams.get("state")).toBe(b.state);
    expect(url.searchParams.get("response_type")).toBe("code");
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get("nonce")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get("redirect_uri")).toBe("http://127.0.0.1:8787/api/v1/auth/oauth/localidp/callback");
    expect(client.lastSetCookies.find((c) => c.startsWith("oauth="))).toMatch(/HttpOnly.*Secure.*SameSite=Lax/);
    // Only the state's hash is stored.
    const rows = await env.DB.prepare("SELECT token_hash FROM auth_tokens WHERE purpose = 'oauth_state'").all<{ token_hash: string }>();
    expect(rows.results.map((r) => r.token_hash)).not.toContain(b.state);
  });

  it("creates a verified account for a new address and signs it in; the second time it finds the link", async () => {
    const email = uniqueEmail("idp");
    const first = await signInWithProvider(email);
    expect(first.res.status, JSON.stringify(first.b)).toBe(200);
    expect(first.b).toMatchObject({ status: "authenticated", user: { email, email_verified: true, has_password: false } });
    expect(await body(await first.client.fetch("/api/v1/auth/me"))).toMatchObject({ email });
    const identity = await env.DB.prepare("SELECT provider, subject FROM oauth_identities WHERE user_id = ?").bind(first.b.user.id).first();
    expect(identity).toMatchObject({ provider: "localidp" });

    const second = await signInWithProvider(email);
    expect(second.b.user.id, JSON.stringify(second.b)).toBe(first.b.user.id);
    const sessions = await body(await second.client.fetch("/api/v1/auth/sessions"));
    expect(sessions.find((s: any) => s.current).method).toBe("oauth");
  });

  it("links an existing account by verified email", async () => {
    const { email, user } = await registered();
    const { res, b } = await signInWithProvider(email);
    expect(res.status, JSON.stringify(b)).toBe(200);
    expect(b.user.id).toBe(user.id);
    expect(b.user.email_verified).toBe(true);
  });

  it("refuses to link an existing account on an address the provider has not verified", async () => {
    const { email } = await registered();
    const { res, b } = await signInWithProvider(`${email};unverified`);
    expect(res.status, JSON.stringify(b)).toBe(400);
    expect(b.error).toMatchObject({ code: "oauth_failed", details: { reason: "email" } });
  });

  it("honours two-factor: the provider sign-in leaves the session pending", async () => {
    const { email, client } = await registered();
    const setup = await body(await client.fetch("/api/v1/auth/2fa/start", { method: "POST" }));
    const { generate } = await import("otplib");
    expect(
      (await client.fetch("/api/v1/auth/2fa/confirm", { method: "POST", json: { code: await generate({ secret: setup.secret }) } })).status,
    ).toBe(204);
    const { b } = await signInWithProvider(email);
    expect(b).toMatchObject({ status: "two_factor_required", user: null });
  });

  it("refuses a wrong, replayed or foreign-browser state", async () => {
    const email = uniqueEmail("state");
    const client = new SessionClient();
    const start = await body(await client.fetch("/api/v1/auth/oauth/localidp/start"));
    const back = await authorizeAtProvider(start.authorization_url, email);
    const code = back.searchParams.get("code")!;

    const wrong = await client.fetch(`/api/v1/auth/oauth/localidp/callback?code=${encodeURIComponent(code)}&state=not-the-state`);
    const bw = await body(wrong);
    expect(wrong.status, JSON.stringify(bw)).toBe(400);
    expect(bw.error).toMatchObject({ code: "oauth_failed", details: { reason: "state" } });

    // Another browser (no binding cookie) cannot finish this flow, and the attempt uses the state up.
    const stranger = await api(`/api/v1/auth/oauth/localidp/callback${back.search}`);
    expect((await body(stranger)).error.details.reason).toBe("state");
    const replay = await client.fetch(`/api/v1/auth/oauth/localidp/callback${back.search}`);
    expect((await body(replay)).error.details.reason).toBe("state");
  });

  it("refuses a code the provider did not issue, with a valid state", async () => {
    const client = new SessionClient();
    const start = await body(await client.fetch("/api/v1/auth/oauth/localidp/start"));
    const res = await client.fetch(`/api/v1/auth/oauth/localidp/callback?code=forged-code&state=${encodeURIComponent(start.state)}`);
    const b = await body(res);
    expect(res.status, JSON.stringify(b)).toBe(400);
    expect(b.error).toMatchObject({ code: "oauth_failed", details: { reason: "code" } });
  });

  it("answers 404 for an identity provider that is not configured", async () => {
    const res = await api("/api/v1/auth/oauth/nosuchidp/start");
    expect((await body(res)).error.code).toBe("not_found");
  });

  it("keeps password sign-in working for an account that also signs in with the provider", async () => {
    const { email } = await registered();
    await signInWithProvider(email);
    const res = await api("/api/v1/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(res.status).toBe(200);
  });
});

describe("the browser sent back by the identity provider", () => {
  /** What a browser sends on a top-level navigation; the answer's redirect is read, not followed. */
  const navigation = {
    headers: { "Sec-Fetch-Dest": "document", "Sec-Fetch-Mode": "navigate", Accept: "text/html,application/xhtml+xml,*/*;q=0.8" },
    redirect: "manual",
  } as const;

  async function backAtCallback(loginHint: string) {
    const client = new SessionClient();
    const start = await body(await client.fetch("/api/v1/auth/oauth/localidp/start"));
    const back = await authorizeAtProvider(start.authorization_url, loginHint);
    return { client, back };
  }

  it("goes on to the web app's sign-in page, signed in, instead of showing JSON", async () => {
    const email = uniqueEmail("nav");
    const { client, back } = await backAtCallback(email);
    const res = await client.fetch(`/api/v1/auth/oauth/localidp/callback${back.search}`, navigation);
    expect(res.status, await res.clone().text()).toBe(303);
    expect(res.headers.get("Location")).toBe("/login?oauth=authenticated");
    expect(client.lastSetCookies.some((c) => c.startsWith("session="))).toBe(true);
    expect(await body(await client.fetch("/api/v1/auth/me"))).toMatchObject({ email, email_verified: true });
    const sessions = await body(await client.fetch("/api/v1/auth/sessions"));
    expect(sessions.find((s: any) => s.current)).toMatchObject({ method: "oauth" });
  });

  it("tells the sign-in page when the two-factor step is owed", async () => {
    const { email, client: owner } = await registered();
    const setup = await body(await owner.fetch("/api/v1/auth/2fa/start", { method: "POST" }));
    const { generate } = await import("otplib");
    expect(
      (await owner.fetch("/api/v1/auth/2fa/confirm", { method: "POST", json: { code: await generate({ secret: setup.secret }) } })).status,
    ).toBe(204);
    const { client, back } = await backAtCallback(email);
    const res = await client.fetch(`/api/v1/auth/oauth/localidp/callback${back.search}`, navigation);
    expect(res.status, await res.clone().text()).toBe(303);
    expect(res.headers.get("Location")).toBe("/login?oauth=two_factor_required");
    // The pending session grants nothing but the two-factor step.
    expect((await body(await client.fetch("/api/v1/auth/me"))).error.code).toBe("two_factor_required");
  });

  it("carries a refusal to the sign-in page as a message, without a session", async () => {
    const { client, back } = await backAtCallback(uniqueEmail("navfail"));
    const code = back.searchParams.get("code")!;
    const res = await client.fetch(`/api/v1/auth/oauth/localidp/callback?code=${encodeURIComponent(code)}&state=not-the-state`, navigation);
    expect(res.status, await res.clone().text()).toBe(303);
    const location = new URL(res.headers.get("Location")!, "http://app.invalid");
    expect(location.pathname).toBe("/login");
    // A code the page words, never the message itself.
    expect(location.searchParams.get("oauth_error")).toBe("state");
    expect(client.lastSetCookies.some((c) => c.startsWith("session="))).toBe(false);
  });

  it("carries an unexpected failure to the sign-in page too, not a raw JSON 500; API clients still get the envelope", async () => {
    const { back } = await backAtCallback(uniqueEmail("navbroken"));
    // The database fails underneath the callback: nothing catalogued, an internal error.
    const broken = {
      ...env,
      DB: new Proxy(env.DB, {
        get: (t, k) =>
          k === "prepare" || k === "batch"
            ? () => {
                throw new Error("D1 is unreachable");
              }
            : Reflect.get(t, k),
      }),
    };
    const call = async (init: RequestInit) => {
      const ctx = createExecutionContext();
      const res = await worker.fetch!(
        new Request(`http://127.0.0.1:8787/api/v1/auth/oauth/localidp/callback${back.search}`, init) as never,
        broken as Env,
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return res;
    };
    const res = await call(navigation);
    expect(res.status, await res.clone().text()).toBe(303);
    const location = new URL(res.headers.get("Location")!, "http://app.invalid");
    expect(location.pathname).toBe("/login");
    expect(location.searchParams.get("oauth_error")).toBe("internal_error");
    const apiClient = await call({ headers: { Accept: "application/json" } });
    expect(apiClient.status).toBe(500);
    expect((await body(apiClient)).error.code).toBe("internal_error");
  });

  it("carries the provider's own refusal (no code) to the sign-in page; API clients still get 422", async () => {
    const query = "?error=access_denied&error_description=End-User%20aborted%20interaction&state=abc";
    const res = await api(`/api/v1/auth/oauth/localidp/callback${query}`, navigation);
    expect(res.status, await res.clone().text()).toBe(303);
    const location = new URL(res.headers.get("Location")!, "http://app.invalid");
    expect(location.pathname).toBe("/login");
    // Only the provider's error code is carried, not its free text: a crafted link could otherwise put words on the page.
    expect(location.searchParams.get("oauth_error")).toBe("access_denied");
    const odd = await api(`/api/v1/auth/oauth/localidp/callback?error=${encodeURIComponent("Call +1 555 now")}`, navigation);
    expect(new URL(odd.headers.get("Location")!, "http://app.invalid").searchParams.get("oauth_error")).toBe("provider_refused");

    const apiClient = await api(`/api/v1/auth/oauth/localidp/callback${query}`, { headers: { Accept: "application/json" } });
    expect(apiClient.status).toBe(422);
    expect((await body(apiClient)).error.code).toBe("validation_error");
  });
});
