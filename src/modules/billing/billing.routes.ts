import { z } from "@hono/zod-openapi";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { requireAuth } from "../../http/auth";
import { ApiError } from "../../http/errors";
import { idempotent } from "../../http/idempotency";
import { errors, json, Paging } from "../../http/openapi";
import { answerWith, authedRoutes, jsonBody, routeTable } from "../../http/route";
import { assertSandboxAllowed, SANDBOX_CHECKOUT_PATH } from "../../providers/payments";
import * as balance from "./balance.service";
import * as schemas from "./billing.schemas";
import * as payments from "./payments.service";
import { sandboxCheckoutPage } from "./sandbox-page";
import * as subscriptions from "./subscriptions.service";
import { usageReport } from "./usage.service";

const account = authedRoutes("Account");
const billing = authedRoutes("Billing");
/** The price list and Stripe's own calls: no credentials of an account. */
const billingOpen = routeTable({ tags: ["Billing"] });

export const billingRoutes = [
  account("get", "/api/v1/account/wallet", "getWallet", {
    summary: "Credits: balance, reserved by running jobs, available, and the plan",
    responses: { 200: json(schemas.WalletOut, "Wallet"), ...errors(401) },
    handler: answerWith((c) => balance.walletOf(c.get("db"), c.get("auth"))),
  }),
  account("get", "/api/v1/account/wallet/ledger", "listLedger", {
    summary: "Every credit movement with the balance after it, newest first",
    request: { query: Paging },
    responses: { 200: json(z.array(schemas.LedgerEntryOut), "Ledger entries"), ...errors(401, 422) },
    handler: answerWith((c) => balance.ledgerPage(c.get("db"), c.get("auth"), c.req.valid("query"))),
  }),
  account("get", "/api/v1/account/usage", "getUsage", {
    summary: "Pages and credits per day and tool, and finished jobs by status, over the last N days",
    request: { query: schemas.UsageQuery },
    responses: { 200: json(schemas.UsageOut, "Usage"), ...errors(401, 422) },
    handler: answerWith((c) => usageReport(c.get("db"), c.get("auth").userId, c.req.valid("query").days)),
  }),
  billingOpen("get", "/api/v1/billing/plans", "listPlans", {
    summary: "Plans (as in /config) and the credit packs checkout sells",
    responses: { 200: json(schemas.PlansOut, "Plans and credit packs") },
    handler: answerWith((c) => balance.plansAndPacks()),
  }),
  billing("post", "/api/v1/billing/checkout", "createCheckout", {
    middleware: [requireAuth, idempotent()] as const,
    summary: "Open a checkout for a credit pack or a plan; send the buyer to the returned URL",
    request: {
      headers: z.object({ "idempotency-key": z.string().min(1).max(255).optional() }),
      ...jsonBody(schemas.CheckoutRequest),
    },
    responses: { 200: json(schemas.CheckoutOut, "Checkout opened"), ...errors(400, 401, 409, 422, 503) },
    handler: answerWith((c) => {
      const options = { idempotencyKey: c.req.valid("header")["idempotency-key"] };
      return payments.checkout(c.env, c.get("db"), c.get("auth"), c.req.valid("json"), options);
    }),
  }),
  billing("get", "/api/v1/billing/subscription", "getSubscription", {
    summary: "The account's live subscription, or null",
    responses: { 200: json(schemas.SubscriptionOut.nullable(), "Subscription or null"), ...errors(401) },
    handler: answerWith((c) => subscriptions.getSubscription(c.get("db"), c.get("auth"))),
  }),
  billing("post", "/api/v1/billing/subscription/cancel", "cancelSubscription", {
    summary: "Stop renewing; the plan lasts until the end of the paid period",
    responses: { 200: json(schemas.SubscriptionOut, "Subscription, cancel_at_period_end set"), ...errors(401, 404, 503) },
    handler: answerWith((c) => subscriptions.cancelSubscription(c.env, c.get("db"), c.get("auth"))),
  }),
  billing("get", "/api/v1/billing/payments", "listPayments", {
    summary: "Payments (credit packs, subscription periods), newest first",
    request: { query: Paging },
    responses: { 200: json(z.array(schemas.PaymentOut), "Payments"), ...errors(401, 422) },
    handler: answerWith((c) => payments.listPayments(c.get("db"), c.get("auth"), c.req.valid("query"))),
  }),
  billingOpen("post", "/api/v1/billing/webhooks/stripe", "stripeWebhook", {
    summary: "Stripe's signed events (`Stripe-Signature`, 300 s tolerance); each event id is handled once",
    request: { headers: z.object({ "stripe-signature": z.string().optional() }) },
    responses: { 200: json(schemas.StripeWebhookOut, "Event handled (or already handled)"), ...errors(400, 503) },
    handler: answerWith(async (c) =>
      payments.receiveStripeWebhook(c.env, c.get("db"), await c.req.text(), c.req.header("Stripe-Signature")),
    ),
  }),
];

/** Where the sandbox page sends the buyer afterwards: only back to an http(s) URL it was given. */
function returnUrl(raw: string | undefined): string | null {
  if (!raw) return null;
  try {
    const url = new URL(raw);
    return url.protocol === "https:" || url.protocol === "http:" ? url.toString() : null;
  } catch {
    return null;
  }
}

/** The sandbox provider's confirmation page (development only; not part of the public API). */
export function registerSandboxCheckout(app: OpenAPIHono<AppEnv>) {
  app.get(`${SANDBOX_CHECKOUT_PATH}/:session`, async (c) => {
    assertSandboxAllowed(c.env);
    const payment = await payments.sandboxCheckout(c.get("db"), c.req.param("session"));
    return c.html(sandboxCheckoutPage(payment, new URL(c.req.url).search.slice(1)));
  });

  app.post(`${SANDBOX_CHECKOUT_PATH}/:session`, async (c) => {
    assertSandboxAllowed(c.env);
    const action = (await c.req.parseBody()).action;
    if (action !== "confirm" && action !== "cancel")
      throw new ApiError("validation_error", "action is confirm or cancel.", {
        details: { fields: [{ location: "form", field: "action", message: "confirm or cancel" }] },
      });
    const payment = await payments.completeSandboxCheckout(c.get("db"), c.req.param("session"), action);
    const back = returnUrl(c.req.query(action === "confirm" ? "success_url" : "cancel_url"));
    return back ? c.redirect(back, 303) : c.html(sandboxCheckoutPage(payment, ""));
  });
}
