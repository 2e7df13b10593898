import { sql } from "drizzle-orm";
import type { DB } from "../../db/client";
import { newId } from "../../lib/ids";

/**
 * Money moves in one D1 batch (a transaction): the conditional wallet update, then the ledger entry,
 * written only if the update changed the wallet (`changes() = 1`). The dedupe key makes a retried
 * step a no-op, so balance = SUM(amount) and reserved = SUM(reserved_delta) always hold.
 */
function moveStatements(
  db: DB,
  m: { userId: string; kind: "hold" | "charge" | "release" | "grant"; amount: number; reservedDelta: number; dedupeKey: string; reason: string; jobId?: string; requireAvailable?: number },
) {
  const guard = m.requireAvailable !== undefined ? sql` AND balance - reserved >= ${m.requireAvailable}` : sql``;
  return [
    db.run(sql`UPDATE wallets SET balance = balance + ${m.amount}, reserved = reserved + ${m.reservedDelta}, updated_at = ${Date.now()}
      WHERE user_id = ${m.userId}${guard} AND NOT EXISTS (SELECT 1 FROM ledger_entries WHERE dedupe_key = ${m.dedupeKey})`),
    db.run(sql`INSERT INTO ledger_entries (id, user_id, kind, amount, reserved_delta, balance_after, reserved_after, reason, job_id, dedupe_key, created_at)
      SELECT ${newId("led")}, user_id, ${m.kind}, ${m.amount}, ${m.reservedDelta}, balance, reserved, ${m.reason}, ${m.jobId ?? null}, ${m.dedupeKey}, ${Date.now()}
      FROM wallets WHERE user_id = ${m.userId} AND changes() = 1`),
  ] as const;
}

export type MoneyMove = Parameters<typeof moveStatements>[1];

/** Applies one move; returns whether it happened now (false: refused by the guard, or already done). */
export async function applyMove(db: DB, m: MoneyMove): Promise<boolean> {
  const [, inserted] = await db.batch(moveStatements(db, m));
  return inserted.meta.changes === 1;
}

export async function ledgerHas(db: DB, dedupeKey: string): Promise<boolean> {
  const row = await db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM ledger_entries WHERE dedupe_key = ${dedupeKey}`);
  return (row?.n ?? 0) > 0;
}

export async function ensureWallet(db: DB, userId: string): Promise<void> {
  await db.run(sql`INSERT INTO wallets (user_id, balance, reserved, updated_at) VALUES (${userId}, 0, 0, ${Date.now()}) ON CONFLICT (user_id) DO NOTHING`);
}
