import type { DB } from "../../db/client";
import { newId } from "../../lib/ids";
import { rowsWritten } from "../../db/written";

/** An extra SQL condition a move requires, evaluated inside the same transaction (e.g. "the job is now cancelled"). */
export interface MoveGuard {
  sql: string;
  args: unknown[];
}

export interface MoneyMove {
  userId: string;
  kind: "hold" | "charge" | "release" | "grant";
  amount: number;
  reservedDelta: number;
  dedupeKey: string;
  reason: string;
  jobId?: string;
  /** Refuse unless `balance - reserved` is at least this. */
  requireAvailable?: number;
  onlyIf?: MoveGuard;
}

/**
 * Money moves as D1 statements: the conditional wallet update, then the ledger entry, written only
 * if the update changed the wallet (`changes() = 1`). The dedupe key makes a retried step a no-op,
 * so balance = SUM(amount) and reserved = SUM(reserved_delta) always hold. Callers may append the
 * statements to a larger batch (one transaction) so a money move and a job transition agree.
 */
export function moveStatements(db: DB, m: MoneyMove): D1PreparedStatement[] {
  const d1 = db.$client;
  const now = Date.now();
  const guard = (m.requireAvailable !== undefined ? " AND balance - reserved >= ?" : "") + (m.onlyIf ? ` AND (${m.onlyIf.sql})` : "");
  const guardArgs = [...(m.requireAvailable !== undefined ? [m.requireAvailable] : []), ...(m.onlyIf?.args ?? [])];
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
         SELECT ?, user_id, ?, ?, ?, balance, reserved, ?, ?, ?, ? FROM wallets WHERE user_id = ? AND changes() = 1 RETURNING id`,
      )
      .bind(newId("led"), m.kind, m.amount, m.reservedDelta, m.reason, m.jobId ?? null, m.dedupeKey, now, m.userId),
  ];
}

/** Applies one move; returns whether it happened now (false: refused by the guard, or already done). */
export async function applyMove(db: DB, m: MoneyMove): Promise<boolean> {
  const [, inserted] = await db.$client.batch(moveStatements(db, m));
  return rowsWritten(inserted) === 1;
}

export async function ledgerHas(db: DB, dedupeKey: string): Promise<boolean> {
  const row = await db.$client.prepare("SELECT 1 AS found FROM ledger_entries WHERE dedupe_key = ?").bind(dedupeKey).first();
  return row !== null;
}

/** The wallet's balance and reservation (zeros when the account has no wallet yet). */
export async function walletBalance(db: DB, userId: string): Promise<{ balance: number; reserved: number }> {
  const row = await db.$client.prepare("SELECT balance, reserved FROM wallets WHERE user_id = ?").bind(userId).first<{ balance: number; reserved: number }>();
  return row ?? { balance: 0, reserved: 0 };
}
