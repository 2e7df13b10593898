import { z } from "zod";
import { ApiError } from "../../http/errors";
import type { CheckoutInput, CheckoutSession, PaymentEvent, PaymentEventBody, PaymentProvider } from "./payment-provider";
import { verifyStripeSignature } from "./stripe-signature";

const STRIPE_API = "https://api.stripe.com/v1";
/** Pinned so response shapes do not move under us; webhook parsing also reads the older shapes. */
export const STRIPE_API_VERSION = "2025-03-31.basil";
const TIMEOUT_MS = 15_000;

export interface StripeConfig {
  secretKey: string;
  webhookSecret: string;
  /** The HTTP client; tests hand in recorded Stripe responses here. */
  fetch?: typeof fetch;
}

const Metadata = z.record(z.string(), z.string()).nullish();
const Ref = z
  .union([z.string(), z.object({ id: z.string() })])
  .nullish()
  .transform((v) => (v == null ? null : typeof v === "string" ? v : v.id));

const StripeEvent = z.object({ id: z.string(), type: z.string(), data: z.object({ object: z.record(z.string(), z.unknown()) }) });

const Session = z.object({
  id: z.string(),
  client_reference_id: z.string().nullish(),
  metadata: Metadata,
  payment_status: z.string().nullish(),
  subscription: Ref,
  amount_total: z.number().int().nullish(),
});

const SubscriptionDetails = z.object({ subscription: Ref, metadata: Metadata }).nullish();
const Invoice = z.object({
  id: z.string(),
  billing_reason: z.string().nullish(),
  amount_paid: z.number().int(),
  currency: z.string(),
  // API versions before 2025-03-31 carry the subscription at the top level, later ones under `parent`.
  subscription: Ref,
  subscription_details: SubscriptionDetails,
  parent: z.object({ subscription_details: SubscriptionDetails }).nullish(),
  lines: z.object({ data: z.array(z.object({ period: z.object({ start: z.number().int(), end: z.number().int() }) })) }),
});

const Subscription = z.object({
  id: z.string(),
  status: z.string(),
  cancel_at_period_end: z.boolean().nullish(),
  // Moved from the subscription to its items in 2025-03-31.
  current_period_start: z.number().int().nullish(),
  current_period_end: z.number().int().nullish(),
  items: z
    .object({
      data: z.array(z.object({ current_period_start: z.number().int().nullish(), current_period_end: z.number().int().nullish() })),
    })
    .nullish(),
  ended_at: z.number().int().nullish(),
});

const STATUS: Record<string, Extract<PaymentEvent, { type: "subscription.updated" }>["status"]> = {
  incomplete: "incomplete",
  incomplete_expired: "expired",
  trialing: "trialing",
  active: "active",
  past_due: "past_due",
  unpaid: "past_due",
  paused: "past_due",
  canceled: "cancelled",
};

const ms = (unix: number) => unix * 1000;

/**
 * Stripe: Checkout Sessions over Stripe's HTTP API (form-encoded, one Idempotency-Key per payment
 * so a retried call never opens a second session) and its signed webhook events.
 */
export class StripeProvider implements PaymentProvider {
  readonly id = "stripe" as const;
  private readonly http: typeof fetch;

  constructor(private readonly config: StripeConfig) {
    this.http = config.fetch ?? ((input, init) => fetch(input, init));
  }

  async createCheckout(input: CheckoutInput): Promise<CheckoutSession> {
    const params: [string, string][] = [
      ["mode", input.kind === "subscription" ? "subscription" : "payment"],
      ["success_url", input.successUrl],
      ["cancel_url", input.cancelUrl],
      ["client_reference_id", input.paymentId],
      ["line_items[0][quantity]", "1"],
      ["line_items[0][price_data][currency]", input.currency],
      ["line_items[0][price_data][unit_amount]", String(input.amountCents)],
      ["line_items[0][price_data][product_data][name]", input.description],
      ["metadata[payment_id]", input.paymentId],
      ["metadata[user_id]", input.userId],
      ["metadata[product]", input.product],
    ];
    if (input.kind === "subscription") {
      // Invoices of the subscription carry this metadata, so renewals find the account and plan.
      params.push(
        ["line_items[0][price_data][recurring][interval]", "month"],
        ["subscription_data[metadata][payment_id]", input.paymentId],
        ["subscription_data[metadata][user_id]", input.userId],
        ["subscription_data[metadata][plan]", input.product],
      );
    }
    const session = z
      .object({ id: z.string(), url: z.string().url(), expires_at: z.number().int().nullish() })
      .parse(await this.call("/checkout/sessions", params, `checkout:${input.paymentId}`));
    return { providerRef: session.id, url: session.url, expiresAt: session.expires_at ? ms(session.expires_at) : null };
  }

  async cancelAtPeriodEnd(subscriptionRef: string): Promise<void> {
    await this.call(
      `/subscriptions/${encodeURIComponent(subscriptionRef)}`,
      [["cancel_at_period_end", "true"]],
      `cancel:${subscriptionRef}`,
    );
  }

  /** Verifies a webhook delivery (`Stripe-Signature`) and reads the event. Throws `invalid_signature`. */
  async parseWebhook(
    payload: string,
    signatureHeader: string | undefined,
    nowSeconds = Math.floor(Date.now() / 1000),
  ): Promise<PaymentEvent> {
    await verifyStripeSignature(payload, signatureHeader, this.config.webhookSecret, nowSeconds);
    let json: unknown;
    try {
      json = JSON.parse(payload);
    } catch {
      throw new ApiError("invalid_json", "The Stripe event is not valid JSON.");
    }
    const event = StripeEvent.safeParse(json);
    if (!event.success) throw new ApiError("bad_request", "The body is not a Stripe event.");
    try {
      return toPaymentEvent(event.data);
    } catch (err) {
      if (err instanceof z.ZodError)
        throw new ApiError("bad_request", `The ${event.data.type} event lacks fields this service needs: ${err.message}`);
      throw err;
    }
  }

  private async call(path: string, params: [string, string][], idempotencyKey: string): Promise<unknown> {
    if (!this.config.secretKey)
      throw new ApiError("provider_unavailable", "Stripe is not configured: set the STRIPE_SECRET_KEY secret.", {
        details: { provider: "stripe" },
      });
    let res: Response;
    try {
      res = await this.http(`${STRIPE_API}${path}`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${this.config.secretKey}`,
          "Content-Type": "application/x-www-form-urlencoded",
          "Stripe-Version": STRIPE_API_VERSION,
          "Idempotency-Key": idempotencyKey,
        },
        body: new URLSearchParams(params).toString(),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw new ApiError("provider_unavailable", "Stripe could not be reached; try again shortly.", {
        details: { provider: "stripe", cause: String(err) },
      });
    }
    const body = (await res.json().catch(() => null)) as { error?: { message?: string; type?: string; code?: string } } | null;
    if (!res.ok) {
      throw new ApiError("provider_unavailable", `Stripe refused the request: ${body?.error?.message ?? `HTTP ${res.status}`}`, {
        details: { provider: "stripe", status: res.status, type: body?.error?.type ?? null, code: body?.error?.code ?? null },
      });
    }
    return body;
  }
}

function toPaymentEvent(event: z.infer<typeof StripeEvent>): PaymentEvent {
  return { eventId: event.id, ...eventBody(event) };
}

/** What a Stripe event says happened; event types the service does not act on are ignored. */
function eventBody(event: z.infer<typeof StripeEvent>): PaymentEventBody {
  const object = event.data.object;
  const ignored = { type: "ignored", providerType: event.type } as const;
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded": {
      const s = Session.parse(object);
      // A delayed payment method completes the session unpaid; `async_payment_succeeded` follows.
      if (s.payment_status !== "paid" && s.payment_status !== "no_payment_required") return ignored;
      return {
        type: "checkout.completed",
        providerRef: s.id,
        paymentId: s.metadata?.payment_id ?? s.client_reference_id ?? null,
        subscriptionRef: s.subscription,
        amountCents: s.amount_total ?? null,
      };
    }
    case "checkout.session.expired":
    case "checkout.session.async_payment_failed": {
      const s = Session.parse(object);
      return {
        type: "checkout.closed",
        providerRef: s.id,
        paymentId: s.metadata?.payment_id ?? s.client_reference_id ?? null,
        status: event.type === "checkout.session.expired" ? "expired" : "failed",
      };
    }
    case "invoice.paid": {
      const inv = Invoice.parse(object);
      const details = inv.parent?.subscription_details ?? inv.subscription_details;
      const subscriptionRef = details?.subscription ?? inv.subscription;
      const period = inv.lines.data[0]?.period;
      // Invoices outside subscriptions (none are created by this service) are not ours to handle.
      if (!subscriptionRef || !period) return ignored;
      return {
        type: "invoice.paid",
        invoiceRef: inv.id,
        subscriptionRef,
        userId: details?.metadata?.user_id ?? null,
        plan: details?.metadata?.plan ?? null,
        paymentId: details?.metadata?.payment_id ?? null,
        first: inv.billing_reason === "subscription_create",
        amountCents: inv.amount_paid,
        currency: inv.currency,
        periodStart: ms(period.start),
        periodEnd: ms(period.end),
      };
    }
    case "customer.subscription.updated": {
      const sub = Subscription.parse(object);
      const item = sub.items?.data[0];
      const start = sub.current_period_start ?? item?.current_period_start;
      const end = sub.current_period_end ?? item?.current_period_end;
      return {
        type: "subscription.updated",
        subscriptionRef: sub.id,
        status: STATUS[sub.status] ?? "past_due",
        cancelAtPeriodEnd: sub.cancel_at_period_end ?? false,
        periodStart: start ? ms(start) : null,
        periodEnd: end ? ms(end) : null,
      };
    }
    case "customer.subscription.deleted": {
      const sub = Subscription.parse(object);
      return {
        type: "subscription.deleted",
        subscriptionRef: sub.id,
        endedAt: sub.ended_at ? ms(sub.ended_at) : Date.now(),
      };
    }
    default:
      return ignored;
  }
}
