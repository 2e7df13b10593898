import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { ownedRow, users } from "./auth";
import { bool, createdAt, id, ms, parent, timestamps, updatedAt } from "./columns";
import { LEDGER_KINDS, PAYMENT_KINDS, PAYMENT_PROVIDERS, PAYMENT_STATUSES, SUBSCRIPTION_STATUSES } from "./enums";
import { jobs } from "./jobs";
import type { ProviderPayload } from "./types";

/**
 * One wallet per user. Invariants (kept by writing the wallet update and its ledger entry in
 * one `db.batch`): balance = SUM(ledger_entries.amount), reserved = SUM(ledger_entries.reserved_delta).
 * Credits available to new jobs = balance - reserved. Reserve with a conditional update
 * (`… WHERE user_id = ? AND balance - reserved >= ?`) and check that one row changed.
 */
export const wallets = sqliteTable(
  "wallets",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    balance: integer("balance").notNull().default(0),
    reserved: integer("reserved").notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [check("wallets_reserved_nonnegative", sql`"reserved" >= 0`)],
);

/** Append-only ledger of every balance or reservation change. See LEDGER_KINDS for the sign rules. */
export const ledgerEntries = sqliteTable(
  "ledger_entries",
  {
    ...ownedRow(), // led_…
    kind: text("kind", { enum: LEDGER_KINDS }).notNull(),
    /** Signed change of the balance. */
    amount: integer("amount").notNull(),
    /** Signed change of the reservation (holds and their release/consumption). */
    reservedDelta: integer("reserved_delta").notNull().default(0),
    balanceAfter: integer("balance_after").notNull(),
    reservedAfter: integer("reserved_after").notNull().default(0),
    reason: text("reason"),
    jobId: text("job_id").references(() => jobs.id, { onDelete: "set null" }),
    paymentId: text("payment_id").references(() => payments.id, { onDelete: "set null" }),
    /**
     * Makes a money movement happen once even when a workflow step or webhook is retried:
     * e.g. `hold:job_…:1`, `charge:job_…:1`, `payment:pay_…`. Insert with ON CONFLICT DO NOTHING.
     */
    dedupeKey: text("dedupe_key"),
    createdAt: createdAt(),
  },
  (t) => [
    index("ledger_entries_user_created_idx").on(t.userId, t.createdAt),
    index("ledger_entries_job_idx").on(t.jobId),
    index("ledger_entries_payment_idx").on(t.paymentId),
    uniqueIndex("ledger_entries_dedupe_key_unique").on(t.dedupeKey),
  ],
);

/** Checkouts and their outcome: credit packs and subscription payments. */
export const payments = sqliteTable(
  "payments",
  {
    ...ownedRow(), // pay_…
    provider: text("provider", { enum: PAYMENT_PROVIDERS }).notNull(),
    /** The provider's object id (Stripe Checkout Session id, sandbox id); set once known. */
    providerRef: text("provider_ref"),
    kind: text("kind", { enum: PAYMENT_KINDS }).notNull(),
    /** Credit pack or plan bought. */
    product: text("product"),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull().default("usd"),
    /** Credits granted when the payment completes. */
    credits: integer("credits").notNull().default(0),
    status: text("status", { enum: PAYMENT_STATUSES }).notNull().default("pending"),
    checkoutUrl: text("checkout_url"),
    idempotencyKey: text("idempotency_key"),
    ...timestamps(),
    completedAt: ms("completed_at"),
  },
  (t) => [
    uniqueIndex("payments_provider_ref_unique").on(t.provider, t.providerRef),
    index("payments_user_created_idx").on(t.userId, t.createdAt),
    index("payments_status_idx").on(t.status, t.createdAt),
  ],
);

/** Provider webhook events already handled: a repeated event id is ignored (idempotent webhooks). */
export const paymentEvents = sqliteTable(
  "payment_events",
  {
    id: id(), // pev_…
    provider: text("provider", { enum: PAYMENT_PROVIDERS }).notNull(),
    eventId: text("event_id").notNull(),
    type: text("type").notNull(),
    paymentId: text("payment_id").references(() => payments.id, { onDelete: "set null" }),
    payload: text("payload", { mode: "json" }).$type<ProviderPayload>(),
    createdAt: createdAt(),
    processedAt: ms("processed_at"),
  },
  (t) => [
    uniqueIndex("payment_events_provider_event_unique").on(t.provider, t.eventId),
    index("payment_events_payment_idx").on(t.paymentId),
  ],
);

/** Subscriptions to a plan. GET /billing/subscription returns the latest non-expired one, or null. */
export const subscriptions = sqliteTable(
  "subscriptions",
  {
    ...ownedRow(), // sub_…
    plan: text("plan").notNull(),
    provider: text("provider", { enum: PAYMENT_PROVIDERS }).notNull(),
    providerRef: text("provider_ref"),
    status: text("status", { enum: SUBSCRIPTION_STATUSES }).notNull().default("incomplete"),
    currentPeriodStart: ms("current_period_start"),
    currentPeriodEnd: ms("current_period_end"),
    cancelAtPeriodEnd: bool("cancel_at_period_end").notNull().default(false),
    cancelledAt: ms("cancelled_at"),
    ...timestamps(),
  },
  (t) => [
    index("subscriptions_user_created_idx").on(t.userId, t.createdAt),
    uniqueIndex("subscriptions_provider_ref_unique").on(t.provider, t.providerRef),
    index("subscriptions_status_period_idx").on(t.status, t.currentPeriodEnd),
  ],
);

/**
 * Usage aggregates per user, UTC day (`YYYY-MM-DD`) and tool, for GET /account/usage.
 * Updated with an upsert (`ON CONFLICT (user_id, day, tool) DO UPDATE SET pages = pages + excluded.pages, …`).
 */
export const usageDaily = sqliteTable(
  "usage_daily",
  {
    userId: parent("user_id", () => users.id),
    day: text("day").notNull(),
    tool: text("tool").notNull(),
    jobs: integer("jobs").notNull().default(0),
    pages: integer("pages").notNull().default(0),
    pagesFailed: integer("pages_failed").notNull().default(0),
    credits: integer("credits").notNull().default(0),
    /** Finished jobs by terminal state (they add up to `jobs`), for the usage page's jobs-by-status view. */
    jobsCompleted: integer("jobs_completed").notNull().default(0),
    jobsPartiallyCompleted: integer("jobs_partially_completed").notNull().default(0),
    jobsFailed: integer("jobs_failed").notNull().default(0),
    jobsCancelled: integer("jobs_cancelled").notNull().default(0),
  },
  (t) => [primaryKey({ name: "usage_daily_pk", columns: [t.userId, t.day, t.tool] })],
);
