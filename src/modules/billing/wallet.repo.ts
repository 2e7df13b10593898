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
  const d1 = db.$client;
  const now = Date.now();
  const guard = m.requireAvailable !== undefined ? " AND balance - reserved >= ?" : "";
  const guardArgs = m.requireAvailable !== undefined ? [m.requireAvailable] : [];
  return [
    d1
      .prepare(
        `UPDATE wallets SET balance = balance + ?, reserved = reserved + ?, updated_at = ?
         WHERE user_id = ?${guard} AND NOT EXISTS (SELECT 1 FROM ledger_entries WHERE dedupe_key = ?)`,
      )
      .bind(m.amount, m.reservedDelta, now, m.userId, ...guardArgs, m.dedupeKey),
    d1
      .prepare(
        `INSERT INTO ledger_entries (id, user_id, kind, amount, reserved_delta, balance_after, reserved_after, reason, job_id, dedupe_key, created_at)
         SELECT ?, user_id, ?, ?, ?, balance, reserved, ?, ?, ?, ? FROM wallets WHERE user_id = ? AND changes() = 1`,
      )
      .bind(newId("led"), m.kind, m.amount, m.reservedDelta, m.reason, m.jobId ?? null, m.dedupeKey, now, m.userId),
  ];
}

export type MoneyMove = Parameters<typeof moveStatements>[1];

/** Applies one move; returns whether it happened now (false: refused by the guard, or already done). */
export async function applyMove(db: DB, m: MoneyMove): Promise<boolean> {
  const [, inserted] = await db.$client.batch(moveStatements(db, m));
  return inserted?.meta.changes === 1;
}

export async function ledgerHas(db: DB, dedupeKey: string): Promise<boolean> {
  const row = await db.$client.prepare("SELECT 1 AS found FROM ledger_entries WHERE dedupe_key = ?").bind(dedupeKey).first();
  return row !== null;
}
