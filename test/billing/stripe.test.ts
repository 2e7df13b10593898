import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { db } from "../../src/db/client";
import type { AuthContext } from "../../src/env";
import { checkout } from "../../src/modules/billing/payments.service";
import { cancelSubscription } from "../../src/modules/billing/subscriptions.service";
import { StripeProvider, STRIPE_API_VERSION } from "../../src/providers/payments/stripe";
import { api, body, seedAccount } from "../helpers/api";
import paymentSession from "./recordings/checkout-session-payment.json";
import subscriptionSession from "./recordings/checkout-session-subscription.json";
import sessionCompleted from "./recordings/event-checkout-session-completed-payment.json";
import subscriptionCompleted from "./recordings/event-checkout-session-completed-subscription.json";
import subscriptionDeleted from "./recordings/event-customer-subscription-deleted.json";
import invoiceFirst from "./recordings/event-invoice-paid-subscription-create.json";
import invoiceCycle from "./recordings/event-invoice-paid-subscription-cycle.json";
import stripeError from "./recordings/stripe-error-invalid-request.json";
import canceledSubscription from "./recordings/subscription-cancel-at-period-end.json";
import { postStripeEvent, recordedEvent, recordedStripe, stripeSignature } from "./stripe-helpers";

function authOf(userId: string, plan = "free"): AuthContext {
  return { userId, plan, via: "api_key", credentialId: "key_test" };
}

function stripe(fetcher: typeof fetch) {
  return new StripeProvider({ secretKey: "sk_test_51RecordedKey", webhookSecret: env.STRIPE_WEBHOOK_SECRET!, fetch: fetcher });
}

async function wallet(auth: Record<string, string>) {
  return body(await api("/api/v1/account/wallet", { headers: auth }));
}

async function ledger(auth: Record<string, string>) {
  return body(await api("/api/v1/account/wallet/ledger?limit=100", { headers: auth }));
}

describe("Stripe checkout of a credit pack", () => {
  it("opens a Checkout Session over Stripe's API and credits the pack once for a signed checkout.session.completed, even when Stripe repeats it", async () => {
    const { userId, auth } = await seedAccount({ credits: 0 });
    const rec = recordedStripe({ "POST /v1/checkout/sessions": { status: 200, body: paymentSession } });
    const out = await checkout(env, db(env.DB), authOf(userId), { kind: "credits", pack: "credits_500" }, { provider: stripe(rec.fetch) });
    expect(out).toMatchObject({
      provider: "stripe",
      url: paymentSession.url,
      kind: "credits",
      product: "credits_500",
      amount_cents: 500,
      currency: "usd",
      credits: 500,
      status: "pending",
    });
    expect(out.expires_at).toBe(new Date(paymentSession.expires_at * 1000).toISOString());

    expect(rec.calls).toHaveLength(1);
    const call = rec.calls[0]!;
    expect(call).toMatchObject({ url: "https://api.stripe.com/v1/checkout/sessions", method: "POST" });
    expect(call.headers).toMatchObject({
      authorization: "Bearer sk_test_51RecordedKey",
      "content-type": "application/x-www-form-urlencoded",
      "stripe-version": STRIPE_API_VERSION,
      "idempotency-key": `checkout:${out.payment_id}`,
    });
    expect(Object.fromEntries(call.params)).toMatchObject({
      mode: "payment",
      client_reference_id: out.payment_id,
      "line_items[0][quantity]": "1",
      "line_items[0][price_data][currency]": "usd",
      "line_items[0][price_data][unit_amount]": "500",
      "metadata[payment_id]": out.payment_id,
      "metadata[user_id]": userId,
      success_url: `http://127.0.0.1:8787/billing?checkout=success&payment_id=${out.payment_id}`,
    });

    const pending = await body(await api("/api/v1/billing/payments", { headers: auth }));
    expect(pending).toMatchObject([{ id: out.payment_id, provider: "stripe", status: "pending", checkout_url: paymentSession.url }]);

    const event = recordedEvent(sessionCompleted, { paymentId: out.payment_id, userId });
    const first = await postStripeEvent(event);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toEqual({ received: true, duplicate: false, type: "checkout.completed" });
    expect(await wallet(auth)).toMatchObject({ balance: 500, reserved: 0, available: 500 });

    // Stripe retries deliveries: the same event again changes nothing.
    const again = await postStripeEvent(event);
    expect(again.body).toEqual({ received: true, duplicate: true, type: "checkout.completed" });
    // Another event confirming the same session (async_payment_succeeded after completed): the ledger dedupe key holds.
    const other = JSON.parse(event);
    other.id = "evt_1QkRecordedAsyncSucceed";
    other.type = "checkout.session.async_payment_succeeded";
    expect((await postStripeEvent(JSON.stringify(other))).body).toMatchObject({ duplicate: false, type: "checkout.completed" });

    expect(await wallet(auth)).toMatchObject({ balance: 500 });
    const purchases = (await ledger(auth)).filter((e: any) => e.kind === "purchase");
    expect(purchases).toMatchObject([{ amount: 500, balance_after: 500, payment_id: out.payment_id }]);
    const [paid] = await body(await api("/api/v1/billing/payments", { headers: auth }));
    expect(paid).toMatchObject({ id: out.payment_id, status: "completed", checkout_url: null });
    expect(paid.completed_at).not.toBeNull();
    const events = await env.DB.prepare("SELECT event_id, processed_at FROM payment_events WHERE payment_id = ? ORDER BY event_id")
      .bind(out.payment_id)
      .all();
    expect(events.results.map((e: any) => e.event_id)).toEqual(["evt_1QkRecordedAsyncSucceed", "evt_1QkRecordedCompleted001"]);
  });

  it("refuses events with a wrong, stale or missing signature and credits nothing", async () => {
    const { userId, auth } = await seedAccount({ credits: 0 });
    const rec = recordedStripe({ "POST /v1/checkout/sessions": { status: 200, body: { ...paymentSession, id: "cs_test_refusals0001" } } });
    const out = await checkout(env, db(env.DB), authOf(userId), { kind: "credits", pack: "credits_500" }, { provider: stripe(rec.fetch) });
    const event = recordedEvent(
      { ...sessionCompleted, id: "evt_refused", data: { object: { ...sessionCompleted.data.object, id: "cs_test_refusals0001" } } },
      { paymentId: out.payment_id, userId },
    );
    const now = Math.floor(Date.now() / 1000);
    const cases: [string, string, string | null][] = [
      ["tampered body", event.replace('"amount_total":500', '"amount_total":50000'), stripeSignature(event)],
      ["other secret", event, stripeSignature(event, now, "whsec_someone_else")],
      // Margins of 30 s around the 300 s tolerance: the requests run seconds after `now` on a busy machine.
      ["330 s old", event, stripeSignature(event, now - 330)],
      ["330 s ahead", event, stripeSignature(event, now + 330)],
      ["no v1", event, `t=${now}`],
      ["no header", event, null],
    ];
    for (const [label, payload, signature] of cases) {
      const res = await postStripeEvent(payload, signature);
      expect(res.status, `${label}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.error.code).toBe("invalid_signature");
    }
    expect(
      (await postStripeEvent(event, stripeSignature(event, Math.floor(Date.now() / 1000) - 270))).status,
      "inside the 300 s tolerance",
    ).toBe(200);
    expect(await wallet(auth)).toMatchObject({ balance: 500 });
  });

  it("answers provider_unavailable with Stripe's message when Stripe refuses, and marks the payment failed", async () => {
    const { userId, auth } = await seedAccount({ credits: 0 });
    const rec = recordedStripe({ "POST /v1/checkout/sessions": { status: 400, body: stripeError } });
    const err = await checkout(
      env,
      db(env.DB),
      authOf(userId),
      { kind: "credits", pack: "credits_2000" },
      { provider: stripe(rec.fetch) },
    ).then(
      () => null,
      (e: any) => e,
    );
    expect(err?.code, String(err)).toBe("provider_unavailable");
    expect(err.message).toContain("Invalid integer: abc");
    expect(err.details).toMatchObject({ provider: "stripe", status: 400, type: "invalid_request_error" });
    const [payment] = await body(await api("/api/v1/billing/payments", { headers: auth }));
    expect(payment).toMatchObject({ status: "failed", product: "credits_2000" });
  });
});

describe("Stripe subscription", () => {
  it("grants the plan's credits once per paid invoice (in any event order), cancels at period end through Stripe's API and ends on deletion", async () => {
    const { userId, auth } = await seedAccount({ credits: 0 });
    const rec = recordedStripe({
      "POST /v1/checkout/sessions": { status: 200, body: subscriptionSession },
      "POST /v1/subscriptions/sub_1QkRecordedPro000000001": { status: 200, body: canceledSubscription },
    });
    const provider = stripe(rec.fetch);
    const out = await checkout(env, db(env.DB), authOf(userId), { kind: "subscription", plan: "pro" }, { provider });
    expect(out).toMatchObject({
      provider: "stripe",
      kind: "subscription",
      product: "pro",
      amount_cents: 1900,
      credits: 2000,
      url: subscriptionSession.url,
    });
    expect(Object.fromEntries(rec.calls[0]!.params)).toMatchObject({
      mode: "subscription",
      "line_items[0][price_data][recurring][interval]": "month",
      "line_items[0][price_data][unit_amount]": "1900",
      "subscription_data[metadata][plan]": "pro",
      "subscription_data[metadata][user_id]": userId,
      "subscription_data[metadata][payment_id]": out.payment_id,
    });
    const ids = { paymentId: out.payment_id, userId };

    // Stripe does not order events: the first invoice arrives before the checkout's completion.
    expect((await postStripeEvent(recordedEvent(invoiceFirst, ids))).body).toEqual({
      received: true,
      duplicate: false,
      type: "invoice.paid",
    });
    expect(await wallet(auth)).toMatchObject({ balance: 2000, plan: "pro" });
    expect((await postStripeEvent(recordedEvent(subscriptionCompleted, ids))).body).toMatchObject({
      duplicate: false,
      type: "checkout.completed",
    });
    expect(await wallet(auth)).toMatchObject({ balance: 2000 });

    const sub = await body(await api("/api/v1/billing/subscription", { headers: auth }));
    expect(sub).toMatchObject({ plan: "pro", provider: "stripe", status: "active", monthly_credits: 2000, cancel_at_period_end: false });
    expect(sub.current_period_start).toBe(new Date(1767225760_000).toISOString());
    expect(sub.current_period_end).toBe(new Date(1769904160_000).toISOString());

    // Renewal: a new invoice, a new payment, the monthly credits again; a repeat of it changes nothing.
    const cycle = recordedEvent(invoiceCycle, ids);
    expect((await postStripeEvent(cycle)).body).toMatchObject({ duplicate: false });
    expect((await postStripeEvent(cycle)).body).toMatchObject({ duplicate: true });
    expect(await wallet(auth)).toMatchObject({ balance: 4000 });
    const payments = await body(await api("/api/v1/billing/payments", { headers: auth }));
    expect(payments.map((p: any) => [p.kind, p.status, p.amount_cents, p.credits])).toEqual([
      ["subscription", "completed", 1900, 2000],
      ["subscription", "completed", 1900, 2000],
    ]);
    const grants = (await ledger(auth)).filter((e: any) => e.kind === "subscription");
    expect(grants.map((e: any) => e.payment_id).sort()).toEqual(payments.map((p: any) => p.id).sort());
    expect((await body(await api("/api/v1/billing/subscription", { headers: auth }))).current_period_end).toBe(
      new Date(1772323360_000).toISOString(),
    );

    const cancelled = await cancelSubscription(env, db(env.DB), authOf(userId, "pro"), provider);
    expect(cancelled).toMatchObject({ status: "active", cancel_at_period_end: true });
    const cancelCall = rec.calls[1]!;
    expect(cancelCall).toMatchObject({ url: "https://api.stripe.com/v1/subscriptions/sub_1QkRecordedPro000000001", method: "POST" });
    expect(cancelCall.params.get("cancel_at_period_end")).toBe("true");

    expect((await postStripeEvent(recordedEvent(subscriptionDeleted, ids))).body).toMatchObject({
      duplicate: false,
      type: "subscription.deleted",
    });
    expect(await body(await api("/api/v1/billing/subscription", { headers: auth }))).toBeNull();
    expect(await wallet(auth)).toMatchObject({ plan: "free", balance: 4000 });
  });
});
