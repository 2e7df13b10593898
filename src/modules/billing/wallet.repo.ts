import { and, eq, gt } from "drizzle-orm";
import type { DB } from "../../db/client";
import { firstRow, newestFirst, newestRows } from "../../db/rows";
import { ledgerEntries, wallets } from "../../db/schema";
import { newId } from "../../lib/ids";
import { rowsWritten } from "../../db/written";
import { type AccountRows, ownRows } from "../../db/account-rows";

/** The account's wallet and ledger, for its data export. */
export const ACCOUNT_ROWS: AccountRows = { wallet: "SELECT * FROM wallets WHERE user_id = ?1", ledger: ownRows("ledger_entries") };

// The only code that writes wallets and ledger_entries: every balance change is a MoneyMove.

/** An extra SQL condition a move requires, evaluated inside the same transaction (e.g. "the job is now cancelled"). */
export interface MoveGuard {
  sql: string;
  args: unknown[];
}

export interface MoneyMove {
  userId: string;
  kind: "hold" | "charge" | "release" | "grant" | "purchase" | "subscription";
  amount: number;
  reservedDelta: number;
  dedupeKey: string;
  reason: string;
  jobId?: string;
  /** The payment a purchased or subscription credit comes from. */
  paymentId?: string;
  /** Create the wallet first when the account has none yet (credits paid for). */
  createWallet?: boolean;
  /** Refuse unless `balance - reserved` is at least this. */
  requireAvailable?: number;
  onlyIf?: MoveGuard;
}

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
 * Opens an empty wallet for an account created by the statement just before it in the same batch
 * (`changes() = 1`: nothing when that insert did nothing).
 */
export function openWalletStatement(db: DB, userId: string, now: number): D1PreparedStatement {
  return db.$client
    .prepare("INSERT INTO wallets (user_id, balance, reserved, updated_at) SELECT ?, 0, 0, ? WHERE changes() = 1")
    .bind(userId, now);
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
    ...(m.createWallet
      ? [
          d1
            .prepare("INSERT INTO wallets (user_id, balance, reserved, updated_at) VALUES (?, 0, 0, ?) ON CONFLICT (user_id) DO NOTHING")
            .bind(m.userId, now),
        ]
      : []),
    d1
      .prepare(
        `UPDATE wallets SET balance = balance + ?, reserved = reserved + ?, updated_at = ?
         WHERE user_id = ?${guard} AND NOT EXISTS (SELECT 1 FROM ledger_entries WHERE dedupe_key = ?)`,
      )
      .bind(m.amount, m.reservedDelta, now, m.userId, ...guardArgs, m.dedupeKey),
    d1
      .prepare(
        `INSERT INTO ledger_entries (id, user_id, kind, amount, reserved_delta, balance_after, reserved_after, reason, job_id, payment_id, dedupe_key, created_at)
         SELECT ?, user_id, ?, ?, ?, balance, reserved, ?, ?, ?, ?, ? FROM wallets WHERE user_id = ? AND changes() = 1 RETURNING id`,
      )
      .bind(newId("led"), m.kind, m.amount, m.reservedDelta, m.reason, m.jobId ?? null, m.paymentId ?? null, m.dedupeKey, now, m.userId),
  ];
}

/**
 * D1 statements crediting the wallet once, for a caller's batch (one transaction): the wallet is
 * created if missing, and the dedupe key makes a repeated provider event a no-op.
 */
export function paidCreditStatements(db: DB, m: PaidCredit): D1PreparedStatement[] {
  return moveStatements(db, { ...m, reservedDelta: 0, createWallet: true });
}

/** Applies one move; returns whether it happened now (false: refused by the guard, or already done). */
export async function applyMove(db: DB, m: MoneyMove): Promise<boolean> {
  const results = await db.$client.batch(moveStatements(db, m));
  return rowsWritten(results[results.length - 1]!) === 1;
}

/** A guard for a statement in the same batch: the move keyed `dedupeKey` has been made. */
export function ledgerHasGuard(dedupeKey: string): MoveGuard {
  return { sql: "EXISTS (SELECT 1 FROM ledger_entries WHERE dedupe_key = ?)", args: [dedupeKey] };
}

export async function ledgerHas(db: DB, dedupeKey: string): Promise<boolean> {
  const row = await db.$client.prepare("SELECT 1 AS found FROM ledger_entries WHERE dedupe_key = ?").bind(dedupeKey).first();
  return row !== null;
}

/** The wallet's balance and reservation (zeros when the account has no wallet yet). */
export async function walletBalance(db: DB, userId: string): Promise<{ balance: number; reserved: number }> {
  const row = await db.$client
    .prepare("SELECT balance, reserved FROM wallets WHERE user_id = ?")
    .bind(userId)
    .first<{ balance: number; reserved: number }>();
  return row ?? { balance: 0, reserved: 0 };
}

export async function findWallet(db: DB, userId: string) {
  return firstRow(db, wallets, eq(wallets.userId, userId));
}

/** A page of the ledger, newest first (ties by id). */
export async function listLedger(db: DB, userId: string, page: { limit: number; offset: number }) {
  return newestRows(db, ledgerEntries, eq(ledgerEntries.userId, userId), page);
}

/** The newest entry that added credits (grant, purchase, subscription, refund, positive adjustment). */
export async function latestCredit(db: DB, userId: string) {
  const [row] = await db
    .select({ id: ledgerEntries.id })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.userId, userId), gt(ledgerEntries.amount, 0)))
    .orderBy(...newestFirst(ledgerEntries))
    .limit(1);
  return row;
}
