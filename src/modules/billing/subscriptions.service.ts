import type { z } from "@hono/zod-openapi";
import type { DB } from "../../db/client";
import type { PaymentProvider as ProviderId } from "../../db/schema/enums";
import type { AuthContext } from "../../env";
import { ApiError } from "../../http/errors";
import { type PaymentEvent, type PaymentProvider, providerById } from "../../providers/payments";
import type { SubscriptionOut } from "./billing.schemas";
import * as payments from "./payments.repo";
import { planOf } from "./plans";
import * as repo from "./subscriptions.repo";
import { log } from "../../lib/log";
import { iso } from "../../lib/time";

/** The same day of the next month (clamped to its last day), in UTC. */
export function addMonth(ms: number): number {
  const d = new Date(ms);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + 1);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d.getTime();
}

export function toSubscriptionOut(s: repo.SubscriptionRow): z.infer<typeof SubscriptionOut> {
  return {
    id: s.id,
    plan: s.plan,
    provider: s.provider,
    status: s.status,
    monthly_credits: planOf(s.plan).monthly_credits,
    current_period_start: iso(s.currentPeriodStart),
    current_period_end: iso(s.currentPeriodEnd),
    cancel_at_period_end: s.cancelAtPeriodEnd,
    cancelled_at: iso(s.cancelledAt),
    created_at: iso(s.createdAt)!,
  };
}

/** GET /billing/subscription: the account's live subscription, or null. */
export async function getSubscription(db: DB, auth: AuthContext) {
  const sub = await repo.currentSubscription(db, auth.userId);
  return sub ? toSubscriptionOut(sub) : null;
}

/**
 * POST /billing/subscription/cancel: stops renewal at the end of the paid period (the provider is
 * told first, so a refused call changes nothing here). The plan and its limits last until then.
 */
export async function cancelSubscription(env: Env, db: DB, auth: AuthContext, provider?: PaymentProvider) {
  const sub = await repo.currentSubscription(db, auth.userId);
  if (!sub) throw new ApiError("not_found", "The account has no active subscription.");
  if (!sub.cancelAtPeriodEnd) {
    if (sub.providerRef) await (provider ?? providerById(env, sub.provider)).cancelAtPeriodEnd(sub.providerRef);
    await repo.updateSubscription(db, sub.id, { cancelAtPeriodEnd: true });
  }
  return toSubscriptionOut((await repo.findSubscription(db, sub.id))!);
}

/**
 * A paid plan checkout. Stripe: the subscription it created becomes the account's (its credits
 * arrive with the first `invoice.paid`). Sandbox: there are no invoices, so the first period
 * starts now and its monthly credits are granted with the payment, once (dedupe key).
 */
export async function activateSubscription(db: DB, payment: payments.PaymentRow, subscriptionRef: string | null): Promise<void> {
  const plan = planOf(payment.product ?? "free");
  const setPlan = repo.setPlanStatement(db, payment.userId, plan.id);
  if (payment.provider === "stripe") {
    if (subscriptionRef)
      await repo.upsertSubscription(db, {
        userId: payment.userId,
        plan: plan.id,
        provider: "stripe",
        providerRef: subscriptionRef,
        status: "active",
        periodStart: null,
        periodEnd: null,
      });
    await payments.completePayment(db, payment.id, null, subscriptionRef ? [setPlan] : []);
    return;
  }
  const now = Date.now();
  const sub = await repo.upsertSubscription(db, {
    userId: payment.userId,
    plan: plan.id,
    provider: payment.provider,
    providerRef: `sbx_sub_${payment.id.slice("pay_".length)}`,
    status: "active",
    periodStart: now,
    periodEnd: addMonth(now),
  });
  await payments.completePayment(
    db,
    payment.id,
    {
      userId: payment.userId,
      kind: "subscription",
      amount: payment.credits,
      dedupeKey: `payment:${payment.id}`,
      reason: `${payment.credits} monthly credits of the ${plan.name} plan`,
      paymentId: payment.id,
    },
    [setPlan, repo.paidPeriodStatement(db, sub.id, sub.currentPeriodStart ?? now, sub.currentPeriodEnd ?? addMonth(now))],
  );
}

/**
 * A paid subscription invoice (Stripe): grants the plan's monthly credits once per invoice and
 * moves the period forward. The first invoice belongs to the checkout payment; each renewal is
 * recorded as a payment of its own. An invoice may arrive before the checkout's confirmation,
 * so the subscription is created from the metadata set at checkout when it is not known yet.
 */
export async function onInvoicePaid(
  db: DB,
  provider: ProviderId,
  ev: Extract<PaymentEvent, { type: "invoice.paid" }>,
): Promise<string | null> {
  let sub = await repo.findSubscriptionByRef(db, provider, ev.subscriptionRef);
  if (!sub) {
    if (!ev.userId || !ev.plan) {
      log.warn("paid invoice of an unknown subscription without metadata", {
        provider,
        subscription: ev.subscriptionRef,
        event_id: ev.eventId,
      });
      return null;
    }
    sub = await repo.upsertSubscription(db, {
      userId: ev.userId,
      plan: ev.plan,
      provider,
      providerRef: ev.subscriptionRef,
      status: "active",
      periodStart: ev.periodStart,
      periodEnd: ev.periodEnd,
    });
  }
  const plan = planOf(sub.plan);
  const dedupeKey = `invoice:${provider}:${ev.invoiceRef}`;
  const period = repo.paidPeriodStatement(db, sub.id, ev.periodStart, ev.periodEnd);
  const setPlan = repo.setPlanStatement(db, sub.userId, plan.id);
  const checkoutPayment = ev.first && ev.paymentId ? await payments.findPayment(db, ev.paymentId) : undefined;
  if (checkoutPayment && checkoutPayment.userId === sub.userId) {
    const credit = {
      userId: sub.userId,
      kind: "subscription" as const,
      amount: plan.monthly_credits,
      dedupeKey,
      reason: `${plan.monthly_credits} monthly credits of the ${plan.name} plan`,
      paymentId: checkoutPayment.id,
    };
    await payments.completePayment(db, checkoutPayment.id, credit, [period, setPlan]);
    return checkoutPayment.id;
  }
  await db.$client.batch([
    ...payments.renewalPaymentStatements(db, {
      userId: sub.userId,
      provider,
      providerRef: ev.invoiceRef,
      plan: plan.id,
      amountCents: ev.amountCents,
      currency: ev.currency,
      credits: plan.monthly_credits,
      dedupeKey,
    }),
    period,
    setPlan,
  ]);
  return (await payments.findPaymentByRef(db, provider, ev.invoiceRef))?.id ?? null;
}

/** The provider changed a subscription (status, cancellation flag, period). */
export async function onSubscriptionUpdated(
  db: DB,
  provider: ProviderId,
  ev: Extract<PaymentEvent, { type: "subscription.updated" }>,
): Promise<void> {
  const sub = await repo.findSubscriptionByRef(db, provider, ev.subscriptionRef);
  if (!sub) return; // not confirmed yet: the checkout or first invoice creates it
  if (ev.status === "cancelled" || ev.status === "expired") {
    await endSubscription(db, sub, ev.periodEnd ?? Date.now());
    return;
  }
  await repo.updateSubscription(db, sub.id, {
    status: ev.status,
    cancelAtPeriodEnd: ev.cancelAtPeriodEnd,
    ...(ev.periodStart !== null ? { currentPeriodStart: ev.periodStart } : {}),
    ...(ev.periodEnd !== null ? { currentPeriodEnd: ev.periodEnd } : {}),
  });
}

/** Ends a subscription; the account returns to the free plan. */
export async function endSubscription(db: DB, sub: repo.SubscriptionRow, endedAt: number): Promise<void> {
  await db.$client.batch(repo.endStatements(db, sub, endedAt));
}

/**
 * Scheduled: sandbox subscriptions whose period ended are renewed (a payment recorded and the
 * plan's monthly credits granted, once per period by dedupe key) or, when cancelled at period
 * end, ended. Stripe subscriptions move on Stripe's events instead.
 */
export async function renewDueSandboxSubscriptions(db: DB, now: number): Promise<{ renewed: number; ended: number }> {
  let renewed = 0;
  let ended = 0;
  for (const sub of await repo.dueSandboxSubscriptions(db, now)) {
    const from = sub.currentPeriodEnd!;
    if (sub.cancelAtPeriodEnd) {
      await endSubscription(db, sub, from);
      ended++;
      continue;
    }
    const plan = planOf(sub.plan);
    await db.$client.batch([
      ...payments.renewalPaymentStatements(db, {
        userId: sub.userId,
        provider: "sandbox",
        providerRef: `sbx_inv_${sub.id.slice("sub_".length)}_${from}`,
        plan: plan.id,
        amountCents: plan.price_cents,
        currency: plan.currency,
        credits: plan.monthly_credits,
        dedupeKey: `renewal:${sub.id}:${from}`,
      }),
      repo.advancePeriodStatement(db, sub.id, from, addMonth(from)),
    ]);
    renewed++;
  }
  return { renewed, ended };
}
