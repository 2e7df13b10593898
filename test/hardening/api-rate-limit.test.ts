import { describe, expect, it } from "vitest";
import { LIMITS } from "../../src/lib/limits";
import { api, body, seedAccount, startOfWindow } from "../helpers/api";

/**
 * The API's per-credential limit runs on the real `RL_API` binding (wrangler.toml: 600 per 60 s).
 * Local counters live in windows aligned to the wall clock, so the test starts early in a window
 * to spend the whole allowance inside one.
 */

/** Early in a window: two thirds of it left. */
const startOfApiWindow = () => startOfWindow(LIMITS.api_rate_period_seconds, (LIMITS.api_rate_period_seconds * 1000 * 2) / 3);

/** Sends `n` requests, `parallel` at a time, and returns their statuses in order. */
async function burst(n: number, send: () => Promise<Response>, parallel = 25): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i += parallel) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(parallel, n - i) }, async () => {
        const res = await send();
        await res.arrayBuffer();
        return res.status;
      }),
    );
    statuses.push(...batch);
  }
  return statuses;
}

describe("API rate limit per credential", () => {
  it("publishes the limit in /config", async () => {
    const config = await body(await api("/api/v1/config"));
    expect(config.limits, JSON.stringify(config.limits)).toMatchObject({ api_requests_per_period: 600, api_rate_period_seconds: 60 });
  });

  it("answers 429 rate_limited with Retry-After once a key spends its allowance, and only for that key", async () => {
    const a = await seedAccount();
    const b = await seedAccount();
    await startOfApiWindow();
    const limit = LIMITS.api_requests_per_period;
    const statuses = await burst(limit, () => api("/api/v1/account/wallet", { headers: a.auth }));
    expect(
      statuses.filter((s) => s !== 200),
      `statuses within the allowance: ${[...new Set(statuses)]}`,
    ).toEqual([]);

    const refused = await api("/api/v1/jobs", { headers: a.auth });
    const err = await body(refused);
    expect(refused.status, JSON.stringify(err)).toBe(429);
    expect(err.error).toMatchObject({ code: "rate_limited", retryable: true, details: { retry_after_seconds: 60 } });
    expect(refused.headers.get("Retry-After")).toBe("60");

    // Another key (another account) keeps its own allowance.
    expect((await api("/api/v1/account/wallet", { headers: b.auth })).status).toBe(200);
  }, 120_000);

  it("counts a bogus key before any lookup, so floods with made-up keys are braked too", async () => {
    await startOfApiWindow();
    const bogus = { Authorization: `Bearer lik_live_${"z".repeat(43)}` };
    const limit = LIMITS.api_requests_per_period;
    const statuses = await burst(limit, () => api("/api/v1/projects", { headers: bogus }));
    expect([...new Set(statuses)]).toEqual([401]);
    const res = await api("/api/v1/projects", { headers: bogus });
    const err = await body(res);
    expect(res.status, JSON.stringify(err)).toBe(429);
    expect(err.error.code).toBe("rate_limited");
  }, 120_000);
});
