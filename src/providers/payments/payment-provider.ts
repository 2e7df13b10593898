import type { PaymentProvider as ProviderId } from "../../db/schema/enums";

export type { ProviderId };

/** What the service asks a provider to sell: one credit pack or the first month of a plan. */
export interface CheckoutInput {
  paymentId: string;
  userId: string;
  kind: "credits" | "subscription";
  /** Credit pack id or plan id. */
  product: string;
  description: string;
  amountCents: number;
  currency: string;
  /** Credits granted once the payment is confirmed (for a plan: its monthly credits). */
  credits: number;
  successUrl: string;
  cancelUrl: string;
}

/** The provider's checkout: its own id for it and the page the buyer is sent to. */
export interface CheckoutSession {
  providerRef: string;
  url: string;
  /** When the provider stops accepting payment on it (ms), if it says. */
  expiresAt: number | null;
}

/**
 * A provider event after its signature was verified, in the service's terms: what happened, and
 * the provider's event id, the key that makes handling it happen once.
 */
export type PaymentEvent = PaymentEventBody & { eventId: string };

/** What a provider event says happened. */
export type PaymentEventBody =
  | {
      type: "checkout.completed";
      providerRef: string;
      paymentId: string | null;
      subscriptionRef: string | null;
      amountCents: number | null;
    }
  /** The checkout ended without payment: it expired, or an asynchronous payment failed. */
  | { type: "checkout.closed"; providerRef: string; paymentId: string | null; status: "expired" | "failed" }
  | {
      type: "invoice.paid";
      invoiceRef: string;
      subscriptionRef: string;
      /** From the subscription's metadata, set at checkout: who subscribed to what, through which payment. */
      userId: string | null;
      plan: string | null;
      paymentId: string | null;
      /** The invoice that started the subscription (its credits belong to the checkout payment). */
      first: boolean;
      amountCents: number;
      currency: string;
      periodStart: number;
      periodEnd: number;
    }
  | {
      type: "subscription.updated";
      subscriptionRef: string;
      status: "incomplete" | "trialing" | "active" | "past_due" | "cancelled" | "expired";
      cancelAtPeriodEnd: boolean;
      periodStart: number | null;
      periodEnd: number | null;
    }
  | { type: "subscription.deleted"; subscriptionRef: string; endedAt: number }
  | { type: "ignored"; providerType: string };

/** A payment provider: opens checkouts and manages subscriptions. Confirmations arrive as events. */
export interface PaymentProvider {
  readonly id: ProviderId;
  createCheckout(input: CheckoutInput): Promise<CheckoutSession>;
  /** Stops a subscription from renewing; it stays active until its period ends. */
  cancelAtPeriodEnd(subscriptionRef: string): Promise<void>;
}
