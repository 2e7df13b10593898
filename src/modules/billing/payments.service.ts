import type { z } from "@hono/zod-openapi";
import type { DB } from "../../db/client";
import type { PaymentProvider as ProviderId } from "../../db/schema/enums";
import type { AuthContext } from "../../env";
import { ApiError } from "../../http/errors";
import { newId } from "../../lib/ids";
import { type PaymentEvent, type PaymentProvider, paymentProvider, SANDBOX_CHECKOUT_PATH, stripeProvider } from "../../providers/payments";
import type { CheckoutOut, CheckoutRequest, PaymentOut } from "./billing.schemas";
import { CREDIT_PACKS } from "./packs";
import * as payments from "./payments.repo";
import { PLANS } from "./plans";
import { activateSubscription, endSubscription, onInvoicePaid, onSubscriptionUpdated } from "./subscriptions.service";
import * as subs from "./subscriptions.repo";
import { log } from "../../lib/log";
import { iso } from "../../lib/time";

function checkoutOut(p: payments.PaymentRow, expiresAt: number | null): z.infer<typeof CheckoutOut> {
  return {
    payment_id: p.id,
    provider: p.provider,
    url: p.checkoutUrl ?? "",
    kind: p.kind,
    product: p.product ?? "",
    amount_cents: p.amountCents,
    currency: p.currency,
    credits: p.credits,
    status: p.status,
    expires_at: iso(expiresAt),
  };
}

export function toPaymentOut(p: payments.PaymentRow): z.infer<typeof PaymentOut> {
  return {
    id: p.id,
    provider: p.provider,
    kind: p.kind,
    product: p.product,
    amount_cents: p.amountCents,
    currency: p.currency,
    credits: p.credits,
    status: p.status,
    checkout_url: p.status === "pending" ? p.checkoutUrl : null,
    created_at: iso(p.createdAt)!,
    completed_at: iso(p.completedAt),
  };
}

/**
 * POST /billing/checkout: records a pending payment for a credit pack or a plan and opens the
 * provider's checkout. Nothing is credited here: credits follow the provider's confirmation.
 * (`Idempotency-Key` is handled by the route's middleware; the key is kept on the payment for support.)
 */
export async function checkout(
  env: Env,
  db: DB,
  auth: AuthContext,
  req: z.infer<typeof CheckoutRequest>,
  opts: { idempotencyKey?: string; provider?: PaymentProvider } = {},
): Promise<z.infer<typeof CheckoutOut>> {
  const product = req.kind === "credits" ? CREDIT_PACKS[req.pack!] : PLANS[req.plan!];
  if (req.kind === "subscription") {
    const current = await subs.currentSubscription(db, auth.userId);
    if (current) {
      throw new ApiError("conflict", `The account already subscribes to the ${current.plan} plan; cancel it before subscribing again.`, {
        details: { subscription_id: current.id },
      });
    }
  }
  const provider = opts.provider ?? paymentProvider(env);
  const credits = "credits" in product ? product.credits : product.monthly_credits;
  const paymentId = newId("pay");
  await payments.insertPayment(db, {
    id: paymentId,
    userId: auth.userId,
    provider: provider.id,
    kind: req.kind,
    product: product.id,
    amountCents: product.price_cents,
    currency: product.currency,
    credits,
    idempotencyKey: opts.idempotencyKey ?? null,
  });
  const back = (outcome: string) => `${env.PUBLIC_BASE_URL}/billing?checkout=${outcome}&payment_id=${paymentId}`;
  let session;
  try {
    session = await provider.createCheckout({
      paymentId,
      userId: auth.userId,
      kind: req.kind,
      product: product.id,
      description: req.kind === "credits" ? `Lingoscan: ${product.name}` : `Lingoscan ${product.name} plan (monthly)`,
      amountCents: product.price_cents,
      currency: product.currency,
      credits,
      successUrl: req.success_url ?? back("success"),
      cancelUrl: req.cancel_url ?? back("cancelled"),
    });
  } catch (err) {
    await payments.closePayment(db, paymentId, "failed");
    throw err;
  }
  await payments.setCheckout(db, paymentId, session.providerRef, session.url);
  return checkoutOut((await payments.findPayment(db, paymentId))!, session.expiresAt);
}

export async function listPayments(db: DB, auth: AuthContext, page: { limit: number; offset: number }) {
  return (await payments.listPayments(db, auth.userId, page)).map(toPaymentOut);
}

/** A confirmed checkout: credits a pack, or starts the subscription it paid for. Returns the payment id. */
async function onCheckoutCompleted(
  db: DB,
  provider: ProviderId,
  ev: Extract<PaymentEvent, { type: "checkout.completed" }>,
): Promise<string | null> {
  const payment =
    (await payments.findPaymentByRef(db, provider, ev.providerRef)) ??
    (ev.paymentId ? await payments.findPayment(db, ev.paymentId) : undefined);
  if (!payment || payment.provider !== provider) {
    log.warn("payment event for an unknown checkout", { provider, provider_ref: ev.providerRef, event_id: ev.eventId });
    return null;
  }
  if (payment.kind === "credits") {
    await payments.completePayment(db, payment.id, {
      userId: payment.userId,
      kind: "purchase",
      amount: payment.credits,
      dedupeKey: `payment:${payment.id}`,
      reason: `Bought ${payment.product ?? "credits"}: ${payment.credits} credits`,
      paymentId: payment.id,
    });
  } else {
    await activateSubscription(db, payment, ev.subscriptionRef);
  }
  return payment.id;
}

/**
 * The one path every confirmed provider event takes (Stripe webhooks, sandbox confirmations).
 * Exactly once: an event id already processed is skipped (`payment_events` is unique per provider
 * and event id), and every credit carries a ledger dedupe key, so even two deliveries of the same
 * event racing each other credit once.
 */
export async function handlePaymentEvent(
  db: DB,
  provider: ProviderId,
  event: PaymentEvent,
  payload: Record<string, unknown>,
): Promise<{ duplicate: boolean }> {
  if (await payments.eventProcessed(db, provider, event.eventId)) return { duplicate: true };
  let paymentId: string | null = null;
  switch (event.type) {
    case "checkout.completed":
      paymentId = await onCheckoutCompleted(db, provider, event);
      break;
    case "checkout.closed": {
      const payment = await payments.findPaymentByRef(db, provider, event.providerRef);
      if (payment) await payments.closePayment(db, payment.id, event.status);
      paymentId = payment?.id ?? null;
      break;
    }
    case "invoice.paid":
      paymentId = await onInvoicePaid(db, provider, event);
      break;
    case "subscription.updated":
      await onSubscriptionUpdated(db, provider, event);
      break;
    case "subscription.deleted": {
      const sub = await subs.findSubscriptionByRef(db, provider, event.subscriptionRef);
      if (sub) await endSubscription(db, sub, event.endedAt);
      break;
    }
    case "ignored":
      break;
  }
  await payments.recordEvent(db, {
    provider,
    eventId: event.eventId,
    type: event.type === "ignored" ? event.providerType : event.type,
    paymentId,
    payload,
  });
  return { duplicate: false };
}

/** POST /billing/webhooks/stripe: verifies Stripe's signature over the raw body, then handles the event once. */
export async function receiveStripeWebhook(
  env: Env,
  db: DB,
  rawBody: string,
  signature: string | undefined,
  provider = stripeProvider(env),
) {
  const event = await provider.parseWebhook(rawBody, signature);
  const { duplicate } = await handlePaymentEvent(db, "stripe", event, JSON.parse(rawBody) as Record<string, unknown>);
  return { received: true, duplicate, type: event.type === "ignored" ? event.providerType : event.type };
}

/** The pending sandbox checkout behind a confirmation page (sandbox only, never in production). */
export async function sandboxCheckout(db: DB, providerRef: string): Promise<payments.PaymentRow> {
  const payment = await payments.findPaymentByRef(db, "sandbox", providerRef);
  if (!payment) throw new ApiError("not_found", `No sandbox checkout ${providerRef}.`);
  return payment;
}

/**
 * The sandbox page's buttons: `confirm` stands in for a successful card payment and goes through
 * the same event path as a Stripe confirmation (the event id is derived from the session, so a
 * double submit credits once); `cancel` closes the checkout.
 */
export async function completeSandboxCheckout(db: DB, providerRef: string, action: "confirm" | "cancel"): Promise<payments.PaymentRow> {
  const payment = await sandboxCheckout(db, providerRef);
  const open =
    action === "confirm"
      ? payment.status === "pending" || payment.status === "completed"
      : payment.status === "pending" || payment.status === "cancelled";
  if (!open)
    throw new ApiError("conflict", `This checkout is ${payment.status}; it cannot be ${action === "confirm" ? "paid" : "cancelled"} now.`, {
      details: { status: payment.status },
    });
  if (action === "cancel") {
    await payments.closePayment(db, payment.id, "cancelled");
  } else {
    const event: PaymentEvent = {
      type: "checkout.completed",
      eventId: `sbx_evt_${providerRef}`,
      providerRef,
      paymentId: payment.id,
      subscriptionRef: null,
      amountCents: payment.amountCents,
    };
    await handlePaymentEvent(db, "sandbox", event, { source: SANDBOX_CHECKOUT_PATH, provider_ref: providerRef });
  }
  return (await payments.findPayment(db, payment.id))!;
}
