import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { api, body, seedAccount } from "../helpers/api";
import { PASSWORD, registered, SessionClient, uniqueEmail } from "./session-client";

describe("register and login", () => {
  it("registers, sets a hardened session cookie and answers AuthResponse", async () => {
    const email = uniqueEmail("Reg").toUpperCase();
    const client = new SessionClient();
    const res = await client.fetch("/api/v1/auth/register", { method: "POST", json: { email, password: PASSWORD, name: "Ada" } });
    const b = await client.json(res);
    expect(res.status, JSON.stringify(b)).toBe(201);
    expect(b.status).toBe("authenticated");
    expect(b.user).toMatchObject({
      email: email.toLowerCase(),
      name: "Ada",
      email_verified: false,
      two_factor_enabled: false,
      has_password: true,
      plan: "free",
    });
    expect(b.session_id).toMatch(/^ses_/);
    expect(b.csrf_token).toMatch(/^[0-9a-f]{64}$/);
    const cookie = client.lastSetCookies.find((c) => c.startsWith("session="))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    // Only the hash of the cookie token is stored.
    const token = client.cookies.get("session")!;
    const row = await env.DB.prepare("SELECT token_hash FROM sessions WHERE id = ?").bind(b.session_id).first<{ token_hash: string }>();
    expect(row!.token_hash).not.toContain(token);
    expect(row!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    // A new account gets a wallet with its sign-up credits.
    const wallet = await env.DB.prepare("SELECT balance FROM wallets WHERE user_id = ?").bind(b.user.id).first<{ balance: number }>();
    expect(wallet!.balance).toBe(50);
    // The cookie alone authenticates reads.
    const me = await client.fetch("/api/v1/auth/me");
    expect(await body(me)).toMatchObject({ id: b.user.id, email: email.toLowerCase() });
  });

  it("stores the password as a self-describing PBKDF2 string", async () => {
    const { user } = await registered();
    const row = await env.DB.prepare("SELECT password_hash FROM users WHERE id = ?").bind(user.id).first<{ password_hash: string }>();
    expect(row!.password_hash).toMatch(/^pbkdf2_sha256\$100000\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(row!.password_hash).not.toContain(PASSWORD);
  });

  it("uses the __Host- prefixed cookie over https", async () => {
    const res = await exports.default.fetch(
      new Request("https://lingoscan.example.com/api/v1/auth/register", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email: uniqueEmail(), password: PASSWORD }),
      }),
    );
    const b = await body(res);
    expect(res.status, JSON.stringify(b)).toBe(201);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("__Host-session="));
    expect(cookie, res.headers.getSetCookie().join(" | ")).toMatch(/^__Host-session=[^;]+; .*Path=\/.*HttpOnly.*Secure.*SameSite=Lax/);
    expect(cookie).not.toMatch(/Domain=/i);
    const token = cookie!.split(";")[0]!.split("=")[1];
    const me = await exports.default.fetch(
      new Request("https://lingoscan.example.com/api/v1/auth/me", { headers: { Cookie: `__Host-session=${token}` } }),
    );
    expect(me.status).toBe(200);
  });

  it("refuses a second account for the same email (any case)", async () => {
    const { email } = await registered();
    const res = await api("/api/v1/auth/register", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: email.toUpperCase(), password: PASSWORD }),
    });
    const b = await body(res);
    expect(res.status, JSON.stringify(b)).toBe(409);
    expect(b.error.code).toBe("email_taken");
  });

  it("logs in with the password; wrong password and unknown email answer the same 401", async () => {
    const { email, user } = await registered();
    const client = new SessionClient();
    const ok = await client.fetch("/api/v1/auth/login", { method: "POST", json: { email, password: PASSWORD } });
    const b = await client.json(ok);
    expect(ok.status, JSON.stringify(b)).toBe(200);
    expect(b).toMatchObject({ status: "authenticated", user: { id: user.id } });

    const wrong = await api("/api/v1/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, password: "not-the-password-1" }),
    });
    const unknown = await api("/api/v1/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: uniqueEmail(), password: "not-the-password-1" }),
    });
    const [bw, bu] = [await body(wrong), await body(unknown)];
    expect(wrong.status, JSON.stringify(bw)).toBe(401);
    expect(unknown.status, JSON.stringify(bu)).toBe(401);
    expect(bw.error.code).toBe("invalid_credentials");
    expect(bu.error.code).toBe("invalid_credentials");
    expect(bw.error.message).toBe(bu.error.message);
    expect(wrong.headers.getSetCookie()).toEqual([]);
  });

  it("validates the request bodies with 422", async () => {
    const res = await api("/api/v1/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "not-an-email", password: "" }),
    });
    const b = await body(res);
    expect(res.status, JSON.stringify(b)).toBe(422);
    expect(b.error.details.fields.map((f: any) => f.field).sort()).toEqual(["email", "password"]);
  });
});

describe("CSRF", () => {
  it("gives the session's CSRF value, equal to the one in AuthResponse", async () => {
    const { client } = await registered();
    const res = await client.fetch("/api/v1/auth/csrf");
    const b = await body(res);
    expect(res.status, JSON.stringify(b)).toBe(200);
    expect(b).toEqual({ csrf_token: client.csrf, header: "X-CSRF-Token" });
  });

  it("refuses cookie-authenticated unsafe requests without a valid X-CSRF-Token", async () => {
    const { client } = await registered();
    const missing = await client.fetch("/api/v1/account/profile", { method: "PATCH", json: { name: "X" }, noCsrf: true });
    const bm = await body(missing);
    expect(missing.status, JSON.stringify(bm)).toBe(403);
    expect(bm.error.code).toBe("csrf_failed");
    const wrong = await client.fetch("/api/v1/account/profile", {
      method: "PATCH",
      json: { name: "X" },
      noCsrf: true,
      headers: { "X-CSRF-Token": "0".repeat(64) },
    });
    expect((await body(wrong)).error.code).toBe("csrf_failed");
    // Another session's value does not fit this one.
    const other = await registered();
    const foreign = await client.fetch("/api/v1/account/profile", {
      method: "PATCH",
      json: { name: "X" },
      noCsrf: true,
      headers: { "X-CSRF-Token": other.client.csrf! },
    });
    expect((await body(foreign)).error.code).toBe("csrf_failed");
    const ok = await client.fetch("/api/v1/account/profile", { method: "PATCH", json: { name: "X" } });
    expect(ok.status, JSON.stringify(await body(ok))).toBe(200);
  });

  it("does not ask API-key requests for CSRF", async () => {
    const { auth } = await seedAccount();
    const res = await api("/api/v1/account/profile", {
      method: "PATCH",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Key holder" }),
    });
    expect(res.status, JSON.stringify(await body(res))).toBe(200);
  });
});

describe("sessions", () => {
  it("lists sessions with the current one flagged, revokes one, and refuses another account's", async () => {
    const { client, email } = await registered();
    const second = new SessionClient();
    const login = await second.fetch("/api/v1/auth/login", {
      method: "POST",
      json: { email, password: PASSWORD },
      headers: { "User-Agent": "SecondDevice/1.0" },
    });
    const secondAuth = await second.json(login);
    const list = await body(await client.fetch("/api/v1/auth/sessions"));
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ id: secondAuth.session_id, user_agent: "SecondDevice/1.0", method: "password", current: false });
    expect(list[1]).toMatchObject({ method: "register", current: true });
    for (const s of list)
      expect(Object.keys(s).sort()).toEqual(["created_at", "current", "expires_at", "id", "ip", "last_seen_at", "method", "user_agent"]);

    const stranger = await registered();
    const foreign = await stranger.client.fetch(`/api/v1/auth/sessions/${secondAuth.session_id}`, { method: "DELETE" });
    expect(foreign.status).toBe(404);
    expect((await second.fetch("/api/v1/auth/me")).status).toBe(200);

    const revoke = await client.fetch(`/api/v1/auth/sessions/${secondAuth.session_id}`, { method: "DELETE" });
    expect(revoke.status, await revoke.clone().text()).toBe(204);
    const after = await second.fetch("/api/v1/auth/me");
    expect(after.status).toBe(401);
    expect((await body(after)).error.code).toBe("unauthorized");
  });

  it("logout ends this session only; logout-all ends every session but not API keys", async () => {
    const { client, email, user } = await registered();
    const other = new SessionClient();
    await other.json(await other.fetch("/api/v1/auth/login", { method: "POST", json: { email, password: PASSWORD } }));
    const third = new SessionClient();
    await third.json(await third.fetch("/api/v1/auth/login", { method: "POST", json: { email, password: PASSWORD } }));
    const key = await body(await client.fetch("/api/v1/account/api-keys", { method: "POST", json: { name: "stays" } }));

    const out = await client.fetch("/api/v1/auth/logout", { method: "POST" });
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie().join()).toMatch(/session=;/);
    expect((await client.fetch("/api/v1/auth/me")).status).toBe(401);
    expect((await other.fetch("/api/v1/auth/me")).status).toBe(200);

    const all = await other.fetch("/api/v1/auth/logout-all", { method: "POST" });
    expect(all.status).toBe(204);
    expect((await other.fetch("/api/v1/auth/me")).status).toBe(401);
    expect((await third.fetch("/api/v1/auth/me")).status).toBe(401);
    const viaKey = await api("/api/v1/auth/me", { headers: { Authorization: `Bearer ${key.key}` } });
    expect(await body(viaKey)).toMatchObject({ id: user.id });
  });

  it("refuses an expired session and records last-seen", async () => {
    const { client, auth } = await registered();
    await env.DB.prepare("UPDATE sessions SET last_seen_at = 1 WHERE id = ?").bind(auth.session_id).run();
    expect((await client.fetch("/api/v1/auth/me")).status).toBe(200);
    await expect
      .poll(
        async () =>
          (await env.DB.prepare("SELECT last_seen_at FROM sessions WHERE id = ?").bind(auth.session_id).first<{ last_seen_at: number }>())!
            .last_seen_at,
      )
      .toBeGreaterThan(Date.now() - 60_000);
    await env.DB.prepare("UPDATE sessions SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, auth.session_id)
      .run();
    const res = await client.fetch("/api/v1/auth/me");
    const b = await body(res);
    expect(res.status, JSON.stringify(b)).toBe(401);
    expect(b.error.code).toBe("unauthorized");
  });

  it("keeps credential management to web sessions: an API key is refused with 403", async () => {
    const { auth } = await seedAccount();
    for (const [method, path] of [
      ["POST", "/api/v1/account/api-keys"],
      ["GET", "/api/v1/auth/sessions"],
      ["POST", "/api/v1/auth/2fa/start"],
      ["DELETE", "/api/v1/account"],
    ] as const) {
      const res = await api(path, {
        method,
        headers: { ...auth, "Content-Type": "application/json" },
        body: method === "GET" ? undefined : "{}",
      });
      const b = await body(res);
      expect(res.status, `${method} ${path}: ${JSON.stringify(b)}`).toBe(403);
      expect(b.error.code).toBe("forbidden");
    }
  });
});

describe("change password", () => {
  it("needs the current password, applies the policy, and ends the other sessions", async () => {
    const { client, email } = await registered();
    const other = new SessionClient();
    await other.json(await other.fetch("/api/v1/auth/login", { method: "POST", json: { email, password: PASSWORD } }));

    const wrong = await client.fetch("/api/v1/auth/change-password", {
      method: "POST",
      json: { current_password: "nope-nope-nope", new_password: "a-brand-new-passphrase" },
    });
    expect((await body(wrong)).error.code).toBe("invalid_credentials");
    const weak = await client.fetch("/api/v1/auth/change-password", {
      method: "POST",
      json: { current_password: PASSWORD, new_password: "short" },
    });
    const bw = await body(weak);
    expect(weak.status, JSON.stringify(bw)).toBe(422);
    expect(bw.error.message).toBe("Password must be at least 10 characters long.");

    const ok = await client.fetch("/api/v1/auth/change-password", {
      method: "POST",
      json: { current_password: PASSWORD, new_password: "a-brand-new-passphrase" },
    });
    expect(ok.status, await ok.clone().text()).toBe(204);
    expect((await client.fetch("/api/v1/auth/me")).status).toBe(200);
    expect((await other.fetch("/api/v1/auth/me")).status).toBe(401);
    const relog = await api("/api/v1/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, password: "a-brand-new-passphrase" }),
    });
    expect(relog.status).toBe(200);
  });
});
