import { createRoute, z } from "@hono/zod-openapi";
import { requireAuth } from "../../http/auth";
import { idempotent } from "../../http/idempotency";
import { errors, json, Paging } from "../../http/openapi";
import {
  CheckoutOut,
  CheckoutRequest,
  LedgerEntryOut,
  PaymentOut,
  PlansOut,
  StripeWebhookOut,
  SubscriptionOut,
  UsageOut,
  UsageQuery,
  WalletOut,
} from "./billing.schemas";
import { authedRoutes, jsonBody, operation } from "../../http/route";

const accountRoute = authedRoutes("Account");
const billingRoute = authedRoutes("Billing");

export const getWallet = accountRoute({
  ...operation("get", "/api/v1/account/wallet", "getWallet"),
  summary: "Credits: balance, reserved by running jobs, available, and the plan",
  responses: { 200: json(WalletOut, "Wallet"), ...errors(401) },
});

export const listLedger = accountRoute({
  ...operation("get", "/api/v1/account/wallet/ledger", "listLedger"),
  summary: "Every credit movement with the balance after it, newest first",
  request: { query: Paging },
  responses: { 200: json(z.array(LedgerEntryOut), "Ledger entries"), ...errors(401, 422) },
});

export const getUsage = accountRoute({
  ...operation("get", "/api/v1/account/usage", "getUsage"),
  summary: "Pages and credits per day and tool, and finished jobs by status, over the last N days",
  request: { query: UsageQuery },
  responses: { 200: json(UsageOut, "Usage"), ...errors(401, 422) },
});

export const listPlans = createRoute({
  ...operation("get", "/api/v1/billing/plans", "listPlans"),
  tags: ["Billing"],
  summary: "Plans (as in /config) and the credit packs checkout sells",
  responses: { 200: json(PlansOut, "Plans and credit packs") },
});

export const checkout = billingRoute({
  middleware: [requireAuth, idempotent()] as const,
  ...operation("post", "/api/v1/billing/checkout", "createCheckout"),
  summary: "Open a checkout for a credit pack or a plan; send the buyer to the returned URL",
  request: {
    headers: z.object({ "idempotency-key": z.string().min(1).max(255).optional() }),
    ...jsonBody(CheckoutRequest),
  },
  responses: { 200: json(CheckoutOut, "Checkout opened"), ...errors(400, 401, 409, 422, 503) },
});

export const getSubscription = billingRoute({
  ...operation("get", "/api/v1/billing/subscription", "getSubscription"),
  summary: "The account's live subscription, or null",
  responses: { 200: json(SubscriptionOut.nullable(), "Subscription or null"), ...errors(401) },
});

export const cancelSubscription = billingRoute({
  ...operation("post", "/api/v1/billing/subscription/cancel", "cancelSubscription"),
  summary: "Stop renewing; the plan lasts until the end of the paid period",
  responses: { 200: json(SubscriptionOut, "Subscription, cancel_at_period_end set"), ...errors(401, 404, 503) },
});

export const listPayments = billingRoute({
  ...operation("get", "/api/v1/billing/payments", "listPayments"),
  summary: "Payments (credit packs, subscription periods), newest first",
  request: { query: Paging },
  responses: { 200: json(z.array(PaymentOut), "Payments"), ...errors(401, 422) },
});

export const stripeWebhook = createRoute({
  ...operation("post", "/api/v1/billing/webhooks/stripe", "stripeWebhook"),
  tags: ["Billing"],
  summary: "Stripe's signed events (`Stripe-Signature`, 300 s tolerance); each event id is handled once",
  request: { headers: z.object({ "stripe-signature": z.string().optional() }) },
  responses: { 200: json(StripeWebhookOut, "Event handled (or already handled)"), ...errors(400, 503) },
});
