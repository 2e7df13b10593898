import { describe, expect, it } from "vitest";
import { api, body } from "../helpers/api";
import { registered, uniqueEmail } from "./session-client";

const post = (path: string, json: unknown, headers: Record<string, string> = {}) =>
  api(path, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(json) });

/** RL_AUTH allows 20 requests a minute per key (wrangler.toml); the 21st is refused. */
const LIMIT = 20;

/**
 * Sends until refused: the first LIMIT requests must pass, and a refusal must follow. The local
 * limiter counts in fixed one-minute windows, so a window may roll over mid-run; then the count
 * starts again and the refusal comes at most LIMIT requests later.
 */
async function exhaust(send: () => Promise<Response>): Promise<Response> {
  for (let i = 0; i < 2 * LIMIT + 1; i++) {
    const res = await send();
    if (res.status === 429) {
      expect(i, "refused before the limit was reached").toBeGreaterThanOrEqual(LIMIT);
      return res;
    }
  }
  throw new Error(`no request was refused after ${2 * LIMIT + 1} attempts`);
}

function expectRateLimited(res: Response, b: any) {
  expect(res.status, JSON.stringify(b)).toBe(429);
  expect(b.error.code).toBe("rate_limited");
  expect(b.error.retryable).toBe(true);
  expect(res.headers.get("Retry-After")).toBe("60");
}

describe("sign-in rate limits (RL_AUTH)", () => {
  it("limits password attempts per account, whatever the password", async () => {
    const { email } = await registered();
    const res = await exhaust(() => post("/api/v1/auth/login", { email, password: "wrong-password-x" }));
    expectRateLimited(res, await body(res));
    // Another address is not affected.
    const other = await post("/api/v1/auth/login", { email: uniqueEmail(), password: "wrong-password-x" });
    expect(other.status).toBe(401);
  });

  it("limits attempts per client IP across addresses", async () => {
    const ip = `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
    const res = await exhaust(() =>
      post("/api/v1/auth/login", { email: uniqueEmail(), password: "wrong-password-x" }, { "CF-Connecting-IP": ip }),
    );
    expectRateLimited(res, await body(res));
  });

  it("limits magic-link and forgot-password requests per address", async () => {
    const email = uniqueEmail("flood");
    const magic = await exhaust(() => post("/api/v1/auth/magic-link", { email }));
    expectRateLimited(magic, await body(magic));
    const forgot = await exhaust(() => post("/api/v1/auth/forgot-password", { email }));
    expectRateLimited(forgot, await body(forgot));
  });

  it("limits two-factor codes per account", async () => {
    const { client, email } = await registered();
    const setup = await body(await client.fetch("/api/v1/auth/2fa/start", { method: "POST" }));
    const { generate } = await import("otplib");
    expect(
      (await client.fetch("/api/v1/auth/2fa/confirm", { method: "POST", json: { code: await generate({ secret: setup.secret }) } })).status,
    ).toBe(204);
    await client.fetch("/api/v1/auth/logout", { method: "POST" });
    const login = await client.fetch("/api/v1/auth/login", { method: "POST", json: { email, password: "tulip-harbour-91-quietly" } });
    expect((await client.json(login)).status).toBe("two_factor_required");
    const res = await exhaust(() => client.fetch("/api/v1/auth/2fa/verify", { method: "POST", json: { code: "000000" } }));
    expectRateLimited(res, await body(res));
  });
});
