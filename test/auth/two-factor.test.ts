import { env } from "cloudflare:workers";
import { generate, verify } from "otplib";
import { describe, expect, it } from "vitest";
import { hotp, matchTotp, otpauthUri, totpStep } from "../../src/modules/auth/totp";
import { api, body } from "../helpers/api";
import { PASSWORD, registered, SessionClient } from "./session-client";

/** A code from otplib (an independent RFC 6238 implementation) for a moment in time. */
const codeAt = (secret: string, ms: number) => generate({ secret, epoch: Math.floor(ms / 1000) });

/** Waits until the current 30-second step has at least `seconds` left, so a test's codes stay in one step. */
async function stepWithRoom(seconds: number): Promise<void> {
  const left = 30 - ((Date.now() / 1000) % 30);
  if (left < seconds) await new Promise((r) => setTimeout(r, left * 1000 + 50));
}

async function enableTwoFactor() {
  const account = await registered();
  const start = await account.client.fetch("/api/v1/auth/2fa/start", { method: "POST" });
  const setup = await body(start);
  expect(start.status, JSON.stringify(setup)).toBe(200);
  await stepWithRoom(5);
  const confirmCode = await codeAt(setup.secret, Date.now());
  const confirm = await account.client.fetch("/api/v1/auth/2fa/confirm", { method: "POST", json: { code: confirmCode } });
  expect(confirm.status, await confirm.clone().text()).toBe(204);
  return { ...account, secret: setup.secret as string, recoveryCodes: setup.recovery_codes as string[], confirmCode };
}

async function pendingLogin(email: string) {
  const client = new SessionClient();
  const res = await client.fetch("/api/v1/auth/login", { method: "POST", json: { email, password: PASSWORD } });
  const b = await client.json(res);
  expect(res.status, JSON.stringify(b)).toBe(200);
  return { client, auth: b };
}

describe("TOTP implementation", () => {
  it("matches otplib for the RFC 6238 SHA-1 test secret across many steps", async () => {
    const secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"; // "12345678901234567890" in base32 (RFC 6238 appendix B)
    for (const t of [59, 1111111109, 1111111111, 1234567890, 2000000000, 20000000000]) {
      expect(await hotp(secret, Math.floor(t / 30)), `t=${t}`).toBe(await generate({ secret, epoch: t }));
    }
    // RFC 6238 appendix B, SHA-1, last six digits.
    expect(await hotp(secret, Math.floor(59 / 30))).toBe("287082");
    expect(await hotp(secret, Math.floor(1111111109 / 30))).toBe("081804");
  });

  it("accepts ±1 step and nothing further", async () => {
    const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
    const now = 1_700_000_015_000;
    for (const [offset, expected] of [
      [-60, null],
      [-30, -1],
      [0, 0],
      [30, 1],
      [60, null],
    ] as const) {
      const code = await codeAt(secret, now + offset * 1000);
      const step = await matchTotp(secret, code, now);
      expect(step === null ? null : step - totpStep(now), `offset ${offset}s`).toBe(expected);
    }
  });

  it("builds the otpauth:// URI in Key Uri Format", async () => {
    const uri = otpauthUri("JBSWY3DPEHPK3PXP", "ada@example.com", "Lingoscan");
    expect(uri).toBe(
      "otpauth://totp/Lingoscan:ada%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Lingoscan&algorithm=SHA1&digits=6&period=30",
    );
  });
});

describe("two-factor sign-in", () => {
  it("start returns the secret, an otpauth URI and recovery codes; a wrong code does not enable it", async () => {
    const { client, email } = await registered();
    const setup = await body(await client.fetch("/api/v1/auth/2fa/start", { method: "POST" }));
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.otpauth_uri).toContain(`otpauth://totp/Lingoscan:${encodeURIComponent(email)}?secret=${setup.secret}`);
    expect(setup.recovery_codes).toHaveLength(10);
    // The secret works with an independent implementation.
    const mine = await codeAt(setup.secret, Date.now());
    expect((await verify({ secret: setup.secret, token: mine })).valid).toBe(true);

    const wrong = await client.fetch("/api/v1/auth/2fa/confirm", {
      method: "POST",
      json: { code: mine === "000000" ? "111111" : "000000" },
    });
    const bw = await body(wrong);
    expect(wrong.status, JSON.stringify(bw)).toBe(400);
    expect(bw.error.code).toBe("invalid_two_factor_code");
    expect(await body(await client.fetch("/api/v1/auth/me"))).toMatchObject({ two_factor_enabled: false });
  });

  it("login answers a pending state that grants nothing but 2fa/verify", async () => {
    const { email, secret, user } = await enableTwoFactor();
    const { client, auth } = await pendingLogin(email);
    expect(auth).toMatchObject({ status: "two_factor_required", user: null });

    for (const [method, path] of [
      ["GET", "/api/v1/auth/me"],
      ["GET", "/api/v1/auth/sessions"],
      ["GET", "/api/v1/account/api-keys"],
      ["PATCH", "/api/v1/account/profile"],
    ] as const) {
      const res = await client.fetch(path, { method, json: method === "PATCH" ? { name: "x" } : undefined });
      const b = await body(res);
      expect(res.status, `${method} ${path}: ${JSON.stringify(b)}`).toBe(401);
      expect(b.error.code).toBe("two_factor_required");
    }
    const pendingRow = await env.DB.prepare("SELECT expires_at FROM sessions WHERE id = ?")
      .bind(auth.session_id)
      .first<{ expires_at: number }>();
    expect(pendingRow!.expires_at - Date.now()).toBeLessThanOrEqual(10 * 60_000);

    const noCsrf = await client.fetch("/api/v1/auth/2fa/verify", { method: "POST", json: { code: "123456" }, noCsrf: true });
    expect((await body(noCsrf)).error.code).toBe("csrf_failed");

    await stepWithRoom(3);
    const res = await client.fetch("/api/v1/auth/2fa/verify", {
      method: "POST",
      json: { code: await codeAt(secret, Date.now() + 30_000) },
    });
    const b = await client.json(res);
    expect(res.status, JSON.stringify(b)).toBe(200);
    expect(b).toMatchObject({ status: "authenticated", user: { id: user.id, two_factor_enabled: true } });
    expect(b.session_id).not.toBe(auth.session_id);
    expect(await body(await client.fetch("/api/v1/auth/me"))).toMatchObject({ id: user.id });
    // The pending session itself is over.
    const old = await env.DB.prepare("SELECT revoked_at FROM sessions WHERE id = ?")
      .bind(auth.session_id)
      .first<{ revoked_at: number | null }>();
    expect(old!.revoked_at).not.toBeNull();
  });

  it("refuses a replayed code, a code two steps away, and 2fa/verify without a pending session", async () => {
    const { email, secret, client: full, confirmCode } = await enableTwoFactor();
    const first = await pendingLogin(email);
    // The code accepted at confirm cannot be used again, though still inside its window.
    const replay = await first.client.fetch("/api/v1/auth/2fa/verify", { method: "POST", json: { code: confirmCode } });
    const br = await body(replay);
    expect(replay.status, JSON.stringify(br)).toBe(400);
    expect(br.error.code).toBe("invalid_two_factor_code");
    const far = await first.client.fetch("/api/v1/auth/2fa/verify", {
      method: "POST",
      json: { code: await codeAt(secret, Date.now() + 90_000) },
    });
    expect((await body(far)).error.code).toBe("invalid_two_factor_code");

    const next = await codeAt(secret, Date.now() + 30_000);
    expect((await first.client.fetch("/api/v1/auth/2fa/verify", { method: "POST", json: { code: next } })).status).toBe(200);
    const second = await pendingLogin(email);
    const again = await second.client.fetch("/api/v1/auth/2fa/verify", { method: "POST", json: { code: next } });
    expect((await body(again)).error.code).toBe("invalid_two_factor_code");

    const notPending = await full.fetch("/api/v1/auth/2fa/verify", { method: "POST", json: { code: next } });
    expect((await body(notPending)).error.code).toBe("conflict");
    const anonymous = await api("/api/v1/auth/2fa/verify", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code: next }),
    });
    expect(anonymous.status).toBe(401);
  });

  it("accepts each recovery code once", async () => {
    const { email, recoveryCodes } = await enableTwoFactor();
    const a = await pendingLogin(email);
    const ok = await a.client.fetch("/api/v1/auth/2fa/verify", { method: "POST", json: { code: recoveryCodes[0]!.toUpperCase() } });
    expect(ok.status, await ok.clone().text()).toBe(200);
    const b = await pendingLogin(email);
    const reused = await b.client.fetch("/api/v1/auth/2fa/verify", { method: "POST", json: { code: recoveryCodes[0] } });
    expect((await body(reused)).error.code).toBe("invalid_two_factor_code");
    expect((await b.client.fetch("/api/v1/auth/2fa/verify", { method: "POST", json: { code: recoveryCodes[1] } })).status).toBe(200);
  });

  it("disabling needs a valid code; afterwards login is complete at once", async () => {
    const { client, email, secret } = await enableTwoFactor();
    const wrong = await client.fetch("/api/v1/auth/2fa", { method: "DELETE", json: { code: "abcde-fghij" } });
    expect((await body(wrong)).error.code).toBe("invalid_two_factor_code");
    await stepWithRoom(3);
    const ok = await client.fetch("/api/v1/auth/2fa", { method: "DELETE", json: { code: await codeAt(secret, Date.now() + 30_000) } });
    expect(ok.status, await ok.clone().text()).toBe(204);
    const after = await pendingLogin(email);
    expect(after.auth.status).toBe("authenticated");
    const row = await env.DB.prepare("SELECT totp_secret, totp_enabled_at FROM users WHERE email = ?").bind(email).first();
    expect(row).toEqual({ totp_secret: null, totp_enabled_at: null });
  });

  it("refuses to start again while enabled", async () => {
    const { client } = await enableTwoFactor();
    const res = await client.fetch("/api/v1/auth/2fa/start", { method: "POST" });
    expect((await body(res)).error.code).toBe("conflict");
  });
});
