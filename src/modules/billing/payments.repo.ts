import { and, eq, isNotNull } from "drizzle-orm";
import type { DB } from "../../db/client";
import { firstRow, newestRows } from "../../db/rows";
import { paymentEvents, payments } from "../../db/schema";
import type { PaymentProvider as ProviderId } from "../../db/schema/enums";
import type { ProviderPayload } from "../../db/schema/types";
import { newId } from "../../lib/ids";
import { type PaidCredit, paidCreditStatements } from "./wallet.repo";
import { type AccountRows, ownRows } from "../../db/account-rows";

/** The account's payments, for its data export. */
export const ACCOUNT_ROWS: AccountRows = { payments: ownRows("payments") };

export type PaymentRow = typeof payments.$inferSelect;

export async function insertPayment(db: DB, row: typeof payments.$inferInsert): Promise<void> {
  await db.insert(payments).values(row);
}

export async function setCheckout(db: DB, id: string, providerRef: string, url: string): Promise<void> {
  await db.update(payments).set({ providerRef, checkoutUrl: url }).where(eq(payments.id, id));
}

/** Closes a checkout that never took money (pending → failed/expired/cancelled). */
export async function closePayment(db: DB, id: string, status: "failed" | "expired" | "cancelled"): Promise<void> {
  await db
    .update(payments)
    .set({ status })
    .where(and(eq(payments.id, id), eq(payments.status, "pending")));
}

export async function findPayment(db: DB, id: string): Promise<PaymentRow | undefined> {
  return firstRow(db, payments, eq(payments.id, id));
}

export async function findPaymentByRef(db: DB, provider: ProviderId, providerRef: string): Promise<PaymentRow | undefined> {
  return firstRow(db, payments, and(eq(payments.provider, provider), eq(payments.providerRef, providerRef)));
}

export async function listPayments(db: DB, userId: string, page: { limit: number; offset: number }): Promise<PaymentRow[]> {
  return newestRows(db, payments, eq(payments.userId, userId), page);
}

function completeStatement(db: DB, paymentId: string, now: number): D1PreparedStatement {
  // A late confirmation of an expired/failed checkout still took the money: it completes too.
  return db.$client
    .prepare(
      "UPDATE payments SET status = 'completed', completed_at = ?, updated_at = ? WHERE id = ? AND status IN ('pending', 'failed', 'expired', 'cancelled')",
    )
    .bind(now, now, paymentId);
}

/**
 * Marks a payment completed and, when `credit` is given, credits the wallet: one transaction,
 * and the credit's dedupe key makes a repeated confirmation a no-op.
 */
export async function completePayment(
  db: DB,
  paymentId: string,
  credit: PaidCredit | null,
  extra: D1PreparedStatement[] = [],
): Promise<void> {
  const now = Date.now();
  await db.$client.batch([...(credit ? paidCreditStatements(db, credit) : []), completeStatement(db, paymentId, now), ...extra]);
}

/**
 * Statements recording a payment that a renewal took (insert once per provider reference) and
 * its credit. The credit references the payment row written in the same transaction.
 */
export function renewalPaymentStatements(
  db: DB,
  p: {
    userId: string;
    provider: ProviderId;
    providerRef: string;
    plan: string;
    amountCents: number;
    currency: string;
    credits: number;
    dedupeKey: string;
  },
): D1PreparedStatement[] {
  const id = newId("pay");
  const now = Date.now();
  return [
    db.$client
      .prepare(
        `INSERT INTO payments (id, user_id, provider, provider_ref, kind, product, amount_cents, currency, credits, status, created_at, updated_at, completed_at)
         VALUES (?, ?, ?, ?, 'subscription', ?, ?, ?, ?, 'completed', ?, ?, ?) ON CONFLICT (provider, provider_ref) DO NOTHING`,
      )
      .bind(id, p.userId, p.provider, p.providerRef, p.plan, p.amountCents, p.currency, p.credits, now, now, now),
    ...paidCreditStatements(db, {
      userId: p.userId,
      kind: "subscription",
      amount: p.credits,
      dedupeKey: p.dedupeKey,
      reason: `${p.credits} monthly credits of the ${p.plan} plan`,
      paymentId: id,
    }),
  ];
}

/** Whether this provider event was already handled completely. */
export async function eventProcessed(db: DB, provider: ProviderId, eventId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: paymentEvents.id })
    .from(paymentEvents)
    .where(and(eq(paymentEvents.provider, provider), eq(paymentEvents.eventId, eventId), isNotNull(paymentEvents.processedAt)))
    .limit(1);
  return row !== undefined;
}

/** Records a handled provider event (once per provider and event id). */
export async function recordEvent(
  db: DB,
  e: { provider: ProviderId; eventId: string; type: string; paymentId: string | null; payload: ProviderPayload },
): Promise<void> {
  const now = Date.now();
  await db
    .insert(paymentEvents)
    .values({
      id: newId("pev"),
      provider: e.provider,
      eventId: e.eventId,
      type: e.type,
      paymentId: e.paymentId,
      payload: e.payload,
      createdAt: now,
      processedAt: now,
    })
    .onConflictDoUpdate({ target: [paymentEvents.provider, paymentEvents.eventId], set: { processedAt: now } });
}
