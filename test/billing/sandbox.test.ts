import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { db } from "../../src/db/client";
import worker from "../../src/index";
import { checkout } from "../../src/modules/billing/payments.service";
import { assertSandboxAllowed, paymentProvider } from "../../src/providers/payments";
import { api, body, seedAccount } from "../helpers/api";

function json(auth: Record<string, string>, payload: unknown, extra: Record<string, string> = {}): RequestInit {
  return { method: "POST", headers: { ...auth, "Content-Type": "application/json", ...extra }, body: JSON.stringify(payload) };
}

/** Presses a button of the sandbox confirmation page, as the buyer's browser would. */
async function press(url: string, action: "confirm" | "cancel") {
  const u = new URL(url);
  const form = new URLSearchParams({ action });
  return api(u.pathname + u.search, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: form.toString(),
    redirect: "manual",
  });
}

async function wallet(auth: Record<string, string>) {
  return body(await api("/api/v1/account/wallet", { headers: auth }));
}

/** Runs the api Worker's cron handler as if it fired at `at`. */
async function cronAt(at: number) {
  await worker.scheduled(createScheduledController({ scheduledTime: new Date(at), cron: "*/15 * * * *" }), env);
}

describe("plans", () => {
  it("lists the same plans as /config, and the credit packs", async () => {
    const plans = await body(await api("/api/v1/billing/plans"));
    const config = await body(await api("/api/v1/config"));
    expect(plans.plans).toEqual(config.plans);
    expect(plans.plans.map((p: any) => p.id)).toEqual(["free", "pro", "business"]);
    expect(plans.credit_packs.map((p: any) => [p.id, p.credits, p.price_cents])).toEqual([
      ["credits_500", 500, 500],
      ["credits_2000", 2000, 1800],
      ["credits_10000", 10000, 8000],
    ]);
  });
});

describe("sandbox checkout", () => {
  it("opens a local confirmation page; paying credits the pack once; Idempotency-Key replays the checkout", async () => {
    const { auth } = await seedAccount({ credits: 0 });
    const res = await api(
      "/api/v1/billing/checkout",
      json(auth, { kind: "credits", pack: "credits_500" }, { "Idempotency-Key": "buy-500-once" }),
    );
    const out = await body(res);
    expect(res.status, JSON.stringify(out)).toBe(200);
    expect(out).toMatchObject({
      provider: "sandbox",
      kind: "credits",
      product: "credits_500",
      amount_cents: 500,
      credits: 500,
      status: "pending",
    });
    expect(out.payment_id).toMatch(/^pay_[a-z0-9]{20}$/);
    expect(out.url).toMatch(/^http:\/\/127\.0\.0\.1:8787\/api\/v1\/billing\/sandbox\/checkout\/sbx_cs_[a-z0-9]{20}\?/);

    const replay = await api(
      "/api/v1/billing/checkout",
      json(auth, { kind: "credits", pack: "credits_500" }, { "Idempotency-Key": "buy-500-once" }),
    );
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await body(replay)).payment_id).toBe(out.payment_id);
    const reused = await api(
      "/api/v1/billing/checkout",
      json(auth, { kind: "credits", pack: "credits_2000" }, { "Idempotency-Key": "buy-500-once" }),
    );
    expect(reused.status).toBe(409);
    expect((await body(reused)).error.code).toBe("idempotency_key_reused");
    expect(await body(await api("/api/v1/billing/payments", { headers: auth }))).toHaveLength(1);

    const page = await api(new URL(out.url).pathname + new URL(out.url).search);
    expect(page.status).toBe(200);
    expect(page.headers.get("Content-Type")).toContain("text/html");
    const html = await page.text();
    expect(html).toContain("Sandbox checkout");
    expect(html).toContain("5.00 USD");
    expect(html).toContain(out.payment_id);

    const paid = await press(out.url, "confirm");
    expect(paid.status, await paid.clone().text()).toBe(303);
    expect(paid.headers.get("Location")).toBe(`http://127.0.0.1:8787/billing?checkout=success&payment_id=${out.payment_id}`);
    expect((await press(out.url, "confirm")).status, "a second submit").toBe(303);
    expect(await wallet(auth)).toMatchObject({ balance: 500, reserved: 0, available: 500 });
    const ledger = await body(await api("/api/v1/account/wallet/ledger", { headers: auth }));
    expect(ledger.filter((e: any) => e.kind === "purchase")).toMatchObject([
      { amount: 500, payment_id: out.payment_id, balance_after: 500 },
    ]);
    expect(await body(await api("/api/v1/billing/payments", { headers: auth }))).toMatchObject([
      { id: out.payment_id, status: "completed" },
    ]);
    expect((await press(out.url, "cancel")).status, "a paid checkout cannot be cancelled").toBe(409);
  });

  it("a cancelled checkout credits nothing and cannot be paid afterwards", async () => {
    const { auth } = await seedAccount({ credits: 0 });
    const out = await body(
      await api(
        "/api/v1/billing/checkout",
        json(auth, { kind: "credits", pack: "credits_2000", cancel_url: "https://app.example.com/cancelled" }),
      ),
    );
    const cancelled = await press(out.url, "cancel");
    expect(cancelled.status).toBe(303);
    expect(cancelled.headers.get("Location")).toBe("https://app.example.com/cancelled");
    const late = await press(out.url, "confirm");
    expect(late.status).toBe(409);
    expect((await body(late)).error.code).toBe("conflict");
    expect(await wallet(auth)).toMatchObject({ balance: 0 });
    expect(await body(await api("/api/v1/billing/payments", { headers: auth }))).toMatchObject([{ status: "cancelled" }]);
    expect((await api("/api/v1/billing/sandbox/checkout/sbx_cs_doesnotexist0000000")).status).toBe(404);
  });

  it.each([
    [{ kind: "credits" }, "pack"],
    [{ kind: "credits", pack: "credits_500", plan: "pro" }, "plan"],
    [{ kind: "subscription", plan: "free" }, "plan"],
    [{ kind: "subscription" }, "plan"],
    [{ kind: "credits", pack: "credits_7" }, "pack"],
    [{ kind: "credits", pack: "credits_500", success_url: "javascript:alert(1)" }, "success_url"],
  ])("refuses %j naming %s", async (payload, field) => {
    const { auth } = await seedAccount();
    const res = await api("/api/v1/billing/checkout", json(auth, payload));
    const b = await body(res);
    expect(res.status, JSON.stringify(b)).toBe(422);
    expect(b.error.details.fields.map((f: any) => f.field)).toContain(field);
  });

  it("is refused when the service runs in production", async () => {
    const production = { ...env, ENVIRONMENT: "production" };
    expect(() => paymentProvider(production)).toThrowError(/sandbox payment provider is disabled in production/);
    expect(() => assertSandboxAllowed(production)).toThrowError(/disabled in production/);
    const { userId } = await seedAccount();
    const err = await checkout(
      production,
      db(env.DB),
      { userId, plan: "free", via: "api_key", credentialId: "key_x" },
      { kind: "credits", pack: "credits_500" },
    ).then(
      () => null,
      (e: any) => e,
    );
    expect(err?.code).toBe("provider_unavailable");
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM payments WHERE user_id = ?").bind(userId).first("n")).toBe(0);
  });
});

describe("sandbox subscription", () => {
  it("grants monthly credits at checkout and on each renewal, cancels at period end, then returns the account to the free plan", async () => {
    const { auth } = await seedAccount({ credits: 0 });
    const out = await body(await api("/api/v1/billing/checkout", json(auth, { kind: "subscription", plan: "pro" })));
    expect(out).toMatchObject({ provider: "sandbox", kind: "subscription", product: "pro", amount_cents: 1900, credits: 2000 });
    expect(await body(await api("/api/v1/billing/subscription", { headers: auth }))).toBeNull();
    expect((await press(out.url, "confirm")).status).toBe(303);

    expect(await wallet(auth)).toMatchObject({ balance: 2000, plan: "pro" });
    const sub = await body(await api("/api/v1/billing/subscription", { headers: auth }));
    expect(sub).toMatchObject({
      plan: "pro",
      provider: "sandbox",
      status: "active",
      monthly_credits: 2000,
      cancel_at_period_end: false,
      cancelled_at: null,
    });
    const start = Date.parse(sub.current_period_start);
    const end = Date.parse(sub.current_period_end);
    expect((end - start) / 86400_000).toBeGreaterThanOrEqual(28);
    expect((end - start) / 86400_000).toBeLessThanOrEqual(31);

    const twice = await api("/api/v1/billing/checkout", json(auth, { kind: "subscription", plan: "business" }));
    expect(twice.status).toBe(409);

    // Before the period ends nothing happens; after it, one renewal (a second cron run adds nothing).
    await cronAt(end - 60_000);
    expect(await wallet(auth)).toMatchObject({ balance: 2000 });
    await cronAt(end + 1000);
    await cronAt(end + 2000);
    expect(await wallet(auth)).toMatchObject({ balance: 4000, plan: "pro" });
    const renewed = await body(await api("/api/v1/billing/subscription", { headers: auth }));
    expect(renewed.current_period_start).toBe(sub.current_period_end);
    const nextEnd = Date.parse(renewed.current_period_end);
    expect(nextEnd).toBeGreaterThan(end);
    const payments = await body(await api("/api/v1/billing/payments", { headers: auth }));
    expect(payments.map((p: any) => [p.kind, p.status, p.amount_cents, p.credits])).toEqual([
      ["subscription", "completed", 1900, 2000],
      ["subscription", "completed", 1900, 2000],
    ]);

    const cancel = await api("/api/v1/billing/subscription/cancel", { method: "POST", headers: auth });
    const cancelled = await body(cancel);
    expect(cancel.status, JSON.stringify(cancelled)).toBe(200);
    expect(cancelled).toMatchObject({ status: "active", cancel_at_period_end: true, current_period_end: renewed.current_period_end });
    expect(await wallet(auth)).toMatchObject({ plan: "pro" });

    await cronAt(nextEnd + 1000);
    expect(await body(await api("/api/v1/billing/subscription", { headers: auth }))).toBeNull();
    expect(await wallet(auth)).toMatchObject({ balance: 4000, plan: "free" });
    expect(await body(await api("/api/v1/billing/payments", { headers: auth }))).toHaveLength(2);
    const again = await api("/api/v1/billing/subscription/cancel", { method: "POST", headers: auth });
    expect(again.status).toBe(404);
  });
});
