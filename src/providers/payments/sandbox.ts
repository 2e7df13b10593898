import { newId } from "../../lib/ids";
import type { CheckoutInput, CheckoutSession, PaymentProvider } from "./payment-provider";

/** Path of the sandbox confirmation page, served by the api Worker. */
export const SANDBOX_CHECKOUT_PATH = "/api/v1/billing/sandbox/checkout";
const SESSION_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Local development payments: the checkout URL is a confirmation page of this service
 * (`GET /api/v1/billing/sandbox/checkout/{session}`), where a button stands in for the card form.
 * Nothing leaves the machine; subscriptions renew on the scheduled handler. The provider
 * selection refuses it when ENVIRONMENT is production.
 */
export class SandboxProvider implements PaymentProvider {
  readonly id = "sandbox" as const;

  constructor(private readonly baseUrl: string) {}

  async createCheckout(input: CheckoutInput): Promise<CheckoutSession> {
    const providerRef = newId("sbx_cs");
    const url = new URL(`${SANDBOX_CHECKOUT_PATH}/${providerRef}`, this.baseUrl);
    url.searchParams.set("success_url", input.successUrl);
    url.searchParams.set("cancel_url", input.cancelUrl);
    return { providerRef, url: url.toString(), expiresAt: Date.now() + SESSION_TTL_MS };
  }

  /** The subscription row is the sandbox's whole state; the service flags it, nothing else to tell. */
  async cancelAtPeriodEnd(): Promise<void> {}
}
