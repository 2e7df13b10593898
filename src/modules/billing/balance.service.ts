import type { z } from "@hono/zod-openapi";
import type { DB } from "../../db/client";
import type { AuthContext } from "../../env";
import { emitEvent } from "../webhooks/webhooks.service";
import type { LedgerEntryOut, WalletOut } from "./billing.schemas";
import { findWallet, latestCredit, listLedger } from "./wallet.repo";
import { CREDIT_PACKS } from "./packs";
import { PLANS } from "./plans";
import { iso } from "../../lib/time";

/** Below this many available credits, `wallet.low_balance` is emitted (once per top-up). */
export const LOW_BALANCE_THRESHOLD = 20;

/** GET /account/wallet. */
export async function walletOf(db: DB, auth: AuthContext): Promise<z.infer<typeof WalletOut>> {
  const w = await findWallet(db, auth.userId);
  const balance = w?.balance ?? 0;
  const reserved = w?.reserved ?? 0;
  return {
    balance,
    reserved,
    available: balance - reserved,
    plan: auth.plan,
    low_balance_threshold: LOW_BALANCE_THRESHOLD,
    updated_at: iso(w?.updatedAt ?? null),
  };
}

/** GET /account/wallet/ledger: newest first. */
export async function ledgerPage(
  db: DB,
  auth: AuthContext,
  page: { limit: number; offset: number },
): Promise<z.infer<typeof LedgerEntryOut>[]> {
  return (await listLedger(db, auth.userId, page)).map((e) => ({
    id: e.id,
    kind: e.kind,
    amount: e.amount,
    reserved_delta: e.reservedDelta,
    balance_after: e.balanceAfter,
    reserved_after: e.reservedAfter,
    reason: e.reason,
    job_id: e.jobId,
    payment_id: e.paymentId,
    created_at: iso(e.createdAt)!,
  }));
}

/** GET /billing/plans: the plans `/config` shows, and the credit packs checkout sells. */
export function plansAndPacks() {
  return { plans: Object.values(PLANS), credit_packs: Object.values(CREDIT_PACKS) };
}

/**
 * Emits `wallet.low_balance` when fewer than LOW_BALANCE_THRESHOLD credits are available. Once per
 * top-up: the event is keyed by the latest credit into the wallet, so a run of jobs on a low
 * wallet warns once, and again only after credits were added and ran low again. Safe to repeat.
 */
export async function warnIfLowBalance(env: Env, db: DB, userId: string): Promise<void> {
  const w = await findWallet(db, userId);
  if (!w || w.balance - w.reserved >= LOW_BALANCE_THRESHOLD) return;
  const lastCredit = await latestCredit(db, userId);
  await emitEvent(
    env,
    db,
    userId,
    "wallet.low_balance",
    {
      balance: w.balance,
      reserved: w.reserved,
      available: w.balance - w.reserved,
      threshold: LOW_BALANCE_THRESHOLD,
      last_credit_id: lastCredit?.id ?? null,
    },
    { dedupeKey: `low_balance:${userId}:${lastCredit?.id ?? "none"}` },
  );
}
