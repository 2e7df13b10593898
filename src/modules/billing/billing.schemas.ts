import { z } from "@hono/zod-openapi";
import { resourceId, resourceOut } from "../../http/openapi";
import { LEDGER_KINDS, PAYMENT_KINDS, PAYMENT_PROVIDERS, PAYMENT_STATUSES, SUBSCRIPTION_STATUSES } from "../../db/schema/enums";
import { PACK_IDS } from "./packs";

const ts = z.string().openapi({ format: "date-time", example: "2026-03-01T12:00:00.000Z" });

export const PlanOut = z
  .object({
    id: z.string(),
    name: z.string(),
    price_cents: z.number().int(),
    currency: z.string(),
    monthly_credits: z.number().int(),
    page_limit: z.number().int(),
    concurrency: z.number().int(),
    features: z.array(z.string()),
  })
  .openapi("PlanOut");

export const WalletOut = z
  .object({
    balance: z.number().int().openapi({ description: "Credits in the wallet (the sum of the ledger's amounts)." }),
    reserved: z.number().int().openapi({ description: "Credits held by running jobs." }),
    available: z.number().int().openapi({ description: "balance - reserved: what new jobs can use." }),
    plan: z.string().openapi({ example: "pro" }),
    low_balance_threshold: z
      .number()
      .int()
      .openapi({ description: "A `wallet.low_balance` webhook event fires when `available` drops below this." }),
    updated_at: ts.nullable(),
  })
  .openapi("WalletOut");

export const LedgerEntryOut = resourceOut("LedgerEntryOut", "led", {
  kind: z.enum(LEDGER_KINDS),
  amount: z.number().int().openapi({ description: "Signed change of the balance." }),
  reserved_delta: z.number().int().openapi({ description: "Signed change of the reservation." }),
  balance_after: z.number().int(),
  reserved_after: z.number().int(),
  reason: z.string().nullable(),
  job_id: z.string().nullable(),
  payment_id: z.string().nullable(),
  created_at: ts,
});

export const UsageQuery = z.object({
  days: z.coerce
    .number()
    .int()
    .min(1)
    .max(365)
    .default(30)
    .openapi({ param: { name: "days", in: "query" }, example: 30, description: "Days back from today (UTC), 1–365." }),
});

const UsageCounts = z.object({
  jobs: z.number().int(),
  pages: z.number().int(),
  pages_failed: z.number().int(),
  credits: z.number().int(),
});

export const UsageOut = z
  .object({
    days: z.number().int(),
    from: z.string().openapi({ example: "2026-02-01" }),
    to: z.string().openapi({ example: "2026-03-02" }),
    totals: UsageCounts,
    by_tool: z.record(z.string(), UsageCounts),
    jobs_by_status: z.object({
      completed: z.number().int(),
      partially_completed: z.number().int(),
      failed: z.number().int(),
      cancelled: z.number().int(),
    }),
    daily: z.array(UsageCounts.extend({ day: z.string(), by_tool: z.record(z.string(), UsageCounts) })),
  })
  .openapi("UsageOut");

export const CreditPackOut = z
  .object({ id: z.enum(PACK_IDS), name: z.string(), credits: z.number().int(), price_cents: z.number().int(), currency: z.string() })
  .openapi("CreditPackOut");

export const PlansOut = z.object({ plans: z.array(PlanOut), credit_packs: z.array(CreditPackOut) }).openapi("PlansOut");

const RedirectUrl = z
  .string()
  .url()
  .max(2000)
  .refine((u) => /^https?:\/\//.test(u), "must be an http(s) URL");

export const CheckoutRequest = z
  .object({
    kind: z
      .enum(PAYMENT_KINDS)
      .openapi({ description: "`credits`: buy a credit pack; `subscription`: subscribe to a plan (monthly credits)." }),
    pack: z.enum(PACK_IDS).optional().openapi({ description: "Credit pack, with kind `credits`." }),
    plan: z.enum(["pro", "business"]).optional().openapi({ description: "Plan, with kind `subscription`." }),
    success_url: RedirectUrl.optional().openapi({ description: "Where the buyer returns after paying." }),
    cancel_url: RedirectUrl.optional().openapi({ description: "Where the buyer returns after giving up." }),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.kind === "credits" && !v.pack) ctx.addIssue({ code: "custom", path: ["pack"], message: "required with kind credits" });
    if (v.kind === "credits" && v.plan) ctx.addIssue({ code: "custom", path: ["plan"], message: "only with kind subscription" });
    if (v.kind === "subscription" && !v.plan) ctx.addIssue({ code: "custom", path: ["plan"], message: "required with kind subscription" });
    if (v.kind === "subscription" && v.pack) ctx.addIssue({ code: "custom", path: ["pack"], message: "only with kind credits" });
  })
  .openapi("CheckoutRequest");

export const CheckoutOut = z
  .object({
    payment_id: resourceId("pay"),
    provider: z.enum(PAYMENT_PROVIDERS),
    url: z.string().openapi({ description: "Send the buyer here to pay." }),
    kind: z.enum(PAYMENT_KINDS),
    product: z.string(),
    amount_cents: z.number().int(),
    currency: z.string(),
    credits: z.number().int(),
    status: z.enum(PAYMENT_STATUSES),
    expires_at: ts.nullable(),
  })
  .openapi("CheckoutOut");

export const PaymentOut = z
  .object({
    id: z.string(),
    provider: z.enum(PAYMENT_PROVIDERS),
    kind: z.enum(PAYMENT_KINDS),
    product: z.string().nullable(),
    amount_cents: z.number().int(),
    currency: z.string(),
    credits: z.number().int(),
    status: z.enum(PAYMENT_STATUSES),
    checkout_url: z.string().nullable().openapi({ description: "Set while the payment is pending." }),
    created_at: ts,
    completed_at: ts.nullable(),
  })
  .openapi("PaymentOut");

export const SubscriptionOut = resourceOut("SubscriptionOut", "sub", {
  plan: z.string(),
  provider: z.enum(PAYMENT_PROVIDERS),
  status: z.enum(SUBSCRIPTION_STATUSES),
  monthly_credits: z.number().int(),
  current_period_start: ts.nullable(),
  current_period_end: ts.nullable().openapi({ description: "Renewal (or, with cancel_at_period_end, end) of the subscription." }),
  cancel_at_period_end: z.boolean(),
  cancelled_at: ts.nullable(),
  created_at: ts,
});

export const StripeWebhookOut = z.object({ received: z.boolean(), duplicate: z.boolean(), type: z.string() }).openapi("StripeWebhookOut");
