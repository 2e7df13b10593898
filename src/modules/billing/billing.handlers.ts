import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { ApiError } from "../../http/errors";
import { assertSandboxAllowed, SANDBOX_CHECKOUT_PATH } from "../../providers/payments";
import * as balance from "./balance.service";
import * as routes from "./billing.routes";
import * as payments from "./payments.service";
import { sandboxCheckoutPage } from "./sandbox-page";
import * as subscriptions from "./subscriptions.service";
import { usageReport } from "./usage.service";

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

export function registerBilling(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.getWallet, async (c) => c.json(await balance.walletOf(c.get("db"), c.get("auth")), 200));

  app.openapi(routes.listLedger, async (c) => c.json(await balance.ledgerPage(c.get("db"), c.get("auth"), c.req.valid("query")), 200));

  app.openapi(routes.getUsage, async (c) => c.json(await usageReport(c.get("db"), c.get("auth").userId, c.req.valid("query").days), 200));

  app.openapi(routes.listPlans, (c) => c.json(balance.plansAndPacks(), 200));

  app.openapi(routes.checkout, async (c) =>
    c.json(
      await payments.checkout(c.env, c.get("db"), c.get("auth"), c.req.valid("json"), {
        idempotencyKey: c.req.valid("header")["idempotency-key"],
      }),
      200,
    ),
  );

  app.openapi(routes.getSubscription, async (c) => c.json(await subscriptions.getSubscription(c.get("db"), c.get("auth")), 200));

  app.openapi(routes.cancelSubscription, async (c) =>
    c.json(await subscriptions.cancelSubscription(c.env, c.get("db"), c.get("auth")), 200),
  );

  app.openapi(routes.listPayments, async (c) => c.json(await payments.listPayments(c.get("db"), c.get("auth"), c.req.valid("query")), 200));

  app.openapi(routes.stripeWebhook, async (c) =>
    c.json(await payments.receiveStripeWebhook(c.env, c.get("db"), await c.req.text(), c.req.header("Stripe-Signature")), 200),
  );

  // The sandbox provider's confirmation page (development only; not part of the public API).
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
