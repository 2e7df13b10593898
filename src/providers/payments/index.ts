import { ApiError } from "../../http/errors";
import type { PaymentProvider } from "./payment-provider";
import { SandboxProvider } from "./sandbox";
import { StripeProvider } from "./stripe";

export type { CheckoutInput, CheckoutSession, PaymentEvent, PaymentProvider } from "./payment-provider";
export { SandboxProvider, SANDBOX_CHECKOUT_PATH } from "./sandbox";
export { StripeProvider } from "./stripe";

/** The sandbox exists for local development only: a production deployment never takes fake payments. */
export function assertSandboxAllowed(env: Env): void {
  if (env.ENVIRONMENT === "production") {
    throw new ApiError("forbidden", "The sandbox payment provider is disabled in production.");
  }
}

/**
 * Stripe from the secrets `STRIPE_WEBHOOK_SECRET` (verifying events; required) and
 * `STRIPE_SECRET_KEY` (API calls answer `provider_unavailable` without it).
 */
export function stripeProvider(env: Env): StripeProvider {
  if (!env.STRIPE_WEBHOOK_SECRET) {
    throw new ApiError("provider_unavailable", "Stripe is not configured: set the STRIPE_WEBHOOK_SECRET and STRIPE_SECRET_KEY secrets.", {
      details: { provider: "stripe" },
    });
  }
  return new StripeProvider({ secretKey: env.STRIPE_SECRET_KEY ?? "", webhookSecret: env.STRIPE_WEBHOOK_SECRET });
}

/** The provider chosen by `PAYMENTS_PROVIDER` (`stripe` or `sandbox`), for new checkouts. */
export function paymentProvider(env: Env): PaymentProvider {
  return providerById(env, env.PAYMENTS_PROVIDER);
}

/** The provider a stored payment or subscription went through. */
export function providerById(env: Env, id: string): PaymentProvider {
  switch (id) {
    case "stripe":
      return stripeProvider(env);
    case "sandbox":
      if (env.ENVIRONMENT === "production") {
        throw new ApiError(
          "provider_unavailable",
          "The sandbox payment provider is disabled in production; set PAYMENTS_PROVIDER=stripe.",
          { details: { provider: "sandbox" } },
        );
      }
      return new SandboxProvider(env.PUBLIC_BASE_URL);
    default:
      throw new ApiError("provider_unavailable", `Unknown payment provider ${JSON.stringify(id)}; PAYMENTS_PROVIDER is stripe or sandbox.`);
  }
}
