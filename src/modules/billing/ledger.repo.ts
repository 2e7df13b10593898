import { and, desc, eq, gt } from "drizzle-orm";
import type { DB } from "../../db/client";
import { ledgerEntries, wallets } from "../../db/schema";
import { newId } from "../../lib/ids";

/** A credit paid for (a pack, a subscription period); `payment_id` links the entry to it. */
export interface PaidCredit {
  userId: string;
  kind: "purchase" | "subscription";
  amount: number;
  dedupeKey: string;
  reason: string;
  paymentId: string;
}

/**
 * D1 statements crediting the wallet once, for a caller's batch (one transaction): make sure the
 * wallet exists, raise the balance unless the dedupe key was used, then write the ledger entry
 * only if that update changed the wallet (`changes() = 1`). balance = SUM(amount) keeps holding.
 */
export function paidCreditStatements(db: DB, m: PaidCredit): D1PreparedStatement[] {
  const d1 = db.$client;
  const now = Date.now();
  return [
    d1.prepare("INSERT INTO wallets (user_id, balance, reserved, updated_at) VALUES (?, 0, 0, ?) ON CONFLICT (user_id) DO NOTHING").bind(m.userId, now),
    d1
      .prepare("UPDATE wallets SET balance = balance + ?, updated_at = ? WHERE user_id = ? AND NOT EXISTS (SELECT 1 FROM ledger_entries WHERE dedupe_key = ?)")
      .bind(m.amount, now, m.userId, m.dedupeKey),
    d1
      .prepare(
        `INSERT INTO ledger_entries (id, user_id, kind, amount, reserved_delta, balance_after, reserved_after, reason, payment_id, dedupe_key, created_at)
         SELECT ?, user_id, ?, ?, 0, balance, reserved, ?, ?, ?, ? FROM wallets WHERE user_id = ? AND changes() = 1`,
      )
      .bind(newId("led"), m.kind, m.amount, m.reason, m.paymentId, m.dedupeKey, now, m.userId),
  ];
}

export async function findWallet(db: DB, userId: string) {
  const [row] = await db.select().from(wallets).where(eq(wallets.userId, userId)).limit(1);
  return row;
}

/** A page of the ledger, newest first (ties by id). */
export async function listLedger(db: DB, userId: string, page: { limit: number; offset: number }) {
  return db
    .select()
    .from(ledgerEntries)
    .where(eq(ledgerEntries.userId, userId))
    .orderBy(desc(ledgerEntries.createdAt), desc(ledgerEntries.id))
    .limit(page.limit)
    .offset(page.offset);
}

/** The newest entry that added credits (grant, purchase, subscription, refund, positive adjustment). */
export async function latestCredit(db: DB, userId: string) {
  const [row] = await db
    .select({ id: ledgerEntries.id })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.userId, userId), gt(ledgerEntries.amount, 0)))
    .orderBy(desc(ledgerEntries.createdAt), desc(ledgerEntries.id))
    .limit(1);
  return row;
}
