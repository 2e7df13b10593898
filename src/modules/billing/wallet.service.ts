import type { DB } from "../../db/client";
import { ApiError } from "../../http/errors";
import { TOOLS, type Tool } from "../jobs/tools";
import { applyMove, ledgerHas } from "./wallet.repo";

/** The price of a job: the one function both `POST /estimate` and the charge use. */
export function priceOf(tool: Tool, pages: number): number {
  return TOOLS[tool].credits_per_page * pages;
}

/** Reserves a job's estimate; refuses with `insufficient_credits` when the wallet cannot cover it. */
export async function holdForJob(db: DB, j: { userId: string; jobId: string; attempt: number; credits: number }): Promise<void> {
  if (j.credits === 0) return;
  const dedupeKey = `hold:${j.jobId}:${j.attempt}`;
  const held = await applyMove(db, {
    userId: j.userId,
    kind: "hold",
    amount: 0,
    reservedDelta: j.credits,
    requireAvailable: j.credits,
    dedupeKey,
    reason: `Reserved ${j.credits} credits for job ${j.jobId}`,
    jobId: j.jobId,
  });
  if (!held && !(await ledgerHas(db, dedupeKey))) {
    throw new ApiError("insufficient_credits", `This job needs ${j.credits} credits, more than the wallet has available.`, {
      details: { required: j.credits },
    });
  }
}

/**
 * Settles a job's hold once: charges the pages that succeeded and releases the rest.
 * Safe to call again (a retried step): the dedupe key makes the second call a no-op.
 */
export async function settleJob(db: DB, j: { userId: string; jobId: string; attempt: number; reserved: number; charge: number }): Promise<void> {
  if (j.reserved === 0 && j.charge === 0) return;
  await applyMove(db, {
    userId: j.userId,
    kind: j.charge > 0 ? "charge" : "release",
    amount: -j.charge,
    reservedDelta: -j.reserved,
    dedupeKey: `settle:${j.jobId}:${j.attempt}`,
    reason: j.charge > 0 ? `Charged ${j.charge} credits for job ${j.jobId}; released ${j.reserved - j.charge}` : `Released ${j.reserved} credits of job ${j.jobId}`,
    jobId: j.jobId,
  });
}
