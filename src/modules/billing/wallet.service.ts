import type { DB } from "../../db/client";
import { ApiError } from "../../http/errors";
import { TOOLS, type JobKind, type Tool } from "../jobs/tools";
import { applyMove, ledgerHas, type MoneyMove, type MoveGuard, moveStatements, walletBalance } from "./wallet.repo";

/**
 * The price of a job: the one function both `POST /estimate` and the charge use.
 * Re-rendering an edited project is free (no recognition or translation runs).
 */
export function priceOf(tool: Tool, pages: number, kind: JobKind = "single"): number {
  if (kind === "rerender") return 0;
  return TOOLS[tool].credits_per_page * pages;
}

/** Credits the account can reserve now (balance minus what running jobs hold). */
export async function availableCredits(db: DB, userId: string): Promise<number> {
  const w = await walletBalance(db, userId);
  return w.balance - w.reserved;
}

function insufficient(credits: number): ApiError {
  return new ApiError("insufficient_credits", `This job needs ${credits} credits, more than the wallet has available.`, { details: { required: credits } });
}

/** The hold of one attempt of a job, keyed `hold:<job>:<attempt>` so it happens once. */
export function holdMove(j: { userId: string; jobId: string; attempt: number; credits: number; onlyIf?: MoveGuard }): MoneyMove {
  return {
    userId: j.userId,
    kind: "hold",
    amount: 0,
    reservedDelta: j.credits,
    requireAvailable: j.credits,
    dedupeKey: `hold:${j.jobId}:${j.attempt}`,
    reason: `Reserved ${j.credits} credits for job ${j.jobId}${j.attempt ? ` (attempt ${j.attempt + 1})` : ""}`,
    jobId: j.jobId,
    onlyIf: j.onlyIf,
  };
}

/** Reserves a job's estimate; refuses with `insufficient_credits` when the wallet cannot cover it. */
export async function holdForJob(db: DB, j: { userId: string; jobId: string; attempt: number; credits: number }): Promise<void> {
  if (j.credits === 0) return;
  const move = holdMove(j);
  const held = await applyMove(db, move);
  if (!held && !(await ledgerHas(db, move.dedupeKey))) throw insufficient(j.credits);
}

/**
 * The settlement of one attempt: charges `charge` (what was delivered) and releases the rest of
 * `reserved`. Keyed `settle:<job>:<attempt>`, so a repeat (a retried step, a lost race) is a no-op.
 * Null when there is nothing to move.
 */
export function settleMove(j: { userId: string; jobId: string; attempt: number; reserved: number; charge: number; onlyIf?: MoveGuard }): MoneyMove | null {
  if (j.reserved === 0 && j.charge === 0) return null;
  return {
    userId: j.userId,
    kind: j.charge > 0 ? "charge" : "release",
    amount: -j.charge,
    reservedDelta: -j.reserved,
    dedupeKey: `settle:${j.jobId}:${j.attempt}`,
    reason: j.charge > 0 ? `Charged ${j.charge} credits for job ${j.jobId}; released ${j.reserved - j.charge}` : `Released ${j.reserved} credits of job ${j.jobId}`,
    jobId: j.jobId,
    onlyIf: j.onlyIf,
  };
}

/** Settles a job's hold once: charges the pages that succeeded and releases the rest. */
export async function settleJob(db: DB, j: { userId: string; jobId: string; attempt: number; reserved: number; charge: number }): Promise<void> {
  const move = settleMove(j);
  if (move) await applyMove(db, move);
}

/** D1 statements of a move, for callers that commit it in one batch with a job transition. */
export function moneyStatements(db: DB, move: MoneyMove | null): D1PreparedStatement[] {
  return move ? moveStatements(db, move) : [];
}

export { insufficient as insufficientCredits };
