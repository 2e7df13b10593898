import type { DB } from "../../db/client";
import { ApiError } from "../../http/errors";
import { RETRANSLATE_CREDITS } from "./pricing";
import { applyMove, ledgerHas, ledgerHasGuard, type MoneyMove, type MoveGuard, moveStatements, walletBalance } from "./wallet.repo";

export { priceOf } from "./pricing";

/** Credits the account can reserve now (balance minus what running jobs hold). */
export async function availableCredits(db: DB, userId: string): Promise<number> {
  const w = await walletBalance(db, userId);
  return w.balance - w.reserved;
}

function insufficient(credits: number): ApiError {
  return new ApiError("insufficient_credits", `This job needs ${credits} credits, more than the wallet has available.`, {
    details: { required: credits },
  });
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
export function settleMove(j: {
  userId: string;
  jobId: string;
  attempt: number;
  reserved: number;
  charge: number;
  onlyIf?: MoveGuard;
}): MoneyMove | null {
  if (j.reserved === 0 && j.charge === 0) return null;
  return {
    userId: j.userId,
    kind: j.charge > 0 ? "charge" : "release",
    amount: -j.charge,
    reservedDelta: -j.reserved,
    dedupeKey: `settle:${j.jobId}:${j.attempt}`,
    reason:
      j.charge > 0
        ? `Charged ${j.charge} credits for job ${j.jobId}; released ${j.reserved - j.charge}`
        : `Released ${j.reserved} credits of job ${j.jobId}`,
    jobId: j.jobId,
    onlyIf: j.onlyIf,
  };
}

/** Settles a job's hold once: charges the pages that succeeded and releases the rest. */
export async function settleJob(
  db: DB,
  j: { userId: string; jobId: string; attempt: number; reserved: number; charge: number },
): Promise<void> {
  const move = settleMove(j);
  if (move) await applyMove(db, move);
}

/** A guard for a statement committed with `move`: the move has been made (in the same transaction). */
export function moveMadeGuard(move: MoneyMove): MoveGuard {
  return ledgerHasGuard(move.dedupeKey);
}

/** The sign-up credits of a new account, once (keyed by the account). */
export async function grantSignupCredits(db: DB, userId: string, credits: number): Promise<void> {
  await applyMove(db, {
    userId,
    kind: "grant",
    amount: credits,
    reservedDelta: 0,
    dedupeKey: `signup:${userId}`,
    reason: `Sign-up credits (${credits})`,
  });
}

/**
 * Charges RETRANSLATE_CREDITS for a region's re-translation, once per region version (dedupe key
 * `retranslate:<region>:<updated_at>`); refuses with `insufficient_credits` when the wallet cannot cover it.
 */
export async function chargeRetranslation(db: DB, r: { userId: string; regionId: string; regionUpdatedAt: number }): Promise<void> {
  const dedupeKey = `retranslate:${r.regionId}:${r.regionUpdatedAt}`;
  const charged = await applyMove(db, {
    userId: r.userId,
    kind: "charge",
    amount: -RETRANSLATE_CREDITS,
    reservedDelta: 0,
    requireAvailable: RETRANSLATE_CREDITS,
    dedupeKey,
    reason: `Re-translated region ${r.regionId}`,
  });
  if (!charged && !(await ledgerHas(db, dedupeKey))) {
    throw new ApiError(
      "insufficient_credits",
      `Re-translating a region costs ${RETRANSLATE_CREDITS} credit, more than the wallet has available.`,
      {
        details: { required: RETRANSLATE_CREDITS },
      },
    );
  }
}

/** D1 statements of a move, for callers that commit it in one batch with a job transition. */
export function moneyStatements(db: DB, move: MoneyMove | null): D1PreparedStatement[] {
  return move ? moveStatements(db, move) : [];
}

export { insufficient as insufficientCredits };
