import { and, eq, inArray, lte } from "drizzle-orm";
import type { DB } from "../../db/client";
import { firstRow, newestFirst } from "../../db/rows";
import { subscriptions } from "../../db/schema";
import type { PaymentProvider as ProviderId, SubscriptionStatus } from "../../db/schema/enums";
import { newId } from "../../lib/ids";
import { type AccountRows, ownRows } from "../../db/account-rows";

/** The account's subscriptions, for its data export. */
export const ACCOUNT_ROWS: AccountRows = { subscriptions: ownRows("subscriptions") };

export type SubscriptionRow = typeof subscriptions.$inferSelect;

/** Statuses in which a subscription is the account's current one. */
export const LIVE_STATUSES = ["active", "trialing", "past_due"] as const satisfies readonly SubscriptionStatus[];

export async function currentSubscription(db: DB, userId: string): Promise<SubscriptionRow | undefined> {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, LIVE_STATUSES)))
    .orderBy(...newestFirst(subscriptions))
    .limit(1);
  return row;
}

export async function findSubscription(db: DB, id: string): Promise<SubscriptionRow | undefined> {
  return firstRow(db, subscriptions, eq(subscriptions.id, id));
}

export async function findSubscriptionByRef(db: DB, provider: ProviderId, providerRef: string): Promise<SubscriptionRow | undefined> {
  return firstRow(db, subscriptions, and(eq(subscriptions.provider, provider), eq(subscriptions.providerRef, providerRef)));
}

/** Inserts a subscription once per provider reference and returns the stored row. */
export async function upsertSubscription(
  db: DB,
  s: {
    userId: string;
    plan: string;
    provider: ProviderId;
    providerRef: string;
    status: SubscriptionStatus;
    periodStart: number | null;
    periodEnd: number | null;
  },
): Promise<SubscriptionRow> {
  await db
    .insert(subscriptions)
    .values({
      id: newId("sub"),
      userId: s.userId,
      plan: s.plan,
      provider: s.provider,
      providerRef: s.providerRef,
      status: s.status,
      currentPeriodStart: s.periodStart,
      currentPeriodEnd: s.periodEnd,
    })
    .onConflictDoNothing();
  return (await findSubscriptionByRef(db, s.provider, s.providerRef))!;
}

export async function updateSubscription(
  db: DB,
  id: string,
  patch: Partial<Pick<SubscriptionRow, "status" | "currentPeriodStart" | "currentPeriodEnd" | "cancelAtPeriodEnd" | "cancelledAt">>,
): Promise<void> {
  await db.update(subscriptions).set(patch).where(eq(subscriptions.id, id));
}

/** Sandbox subscriptions whose period has ended: the scheduled handler renews or ends them. */
export async function dueSandboxSubscriptions(db: DB, now: number, limit = 100): Promise<SubscriptionRow[]> {
  return db
    .select()
    .from(subscriptions)
    .where(
      and(eq(subscriptions.provider, "sandbox"), inArray(subscriptions.status, LIVE_STATUSES), lte(subscriptions.currentPeriodEnd, now)),
    )
    .limit(limit);
}

/** Moves a subscription to its next period, only if it is still in the period being renewed (no double renewal). */
export function advancePeriodStatement(db: DB, id: string, from: number, to: number): D1PreparedStatement {
  return db.$client
    .prepare(
      "UPDATE subscriptions SET current_period_start = ?, current_period_end = ?, status = 'active', updated_at = ? WHERE id = ? AND current_period_end = ?",
    )
    .bind(from, to, Date.now(), id, from);
}

/**
 * The plan an account is on lives in `users.plan` (read with every credential); subscriptions
 * are its only writer after sign-up, so billing owns this one column update.
 */
export function setPlanStatement(db: DB, userId: string, plan: string): D1PreparedStatement {
  return db.$client.prepare("UPDATE users SET plan = ?, updated_at = ? WHERE id = ?").bind(plan, Date.now(), userId);
}

/** Records a paid period: only ever moves the period forward, and makes the subscription active. */
export function paidPeriodStatement(db: DB, id: string, start: number, end: number): D1PreparedStatement {
  return db.$client
    .prepare(
      "UPDATE subscriptions SET status = 'active', current_period_start = ?, current_period_end = ?, updated_at = ? WHERE id = ? AND (current_period_end IS NULL OR current_period_end < ?)",
    )
    .bind(start, end, Date.now(), id, end);
}

/** Ends a live subscription and, if this call ended it, puts the account back on the free plan. */
export function endStatements(db: DB, sub: { id: string; userId: string }, endedAt: number): D1PreparedStatement[] {
  const now = Date.now();
  return [
    db.$client
      .prepare(
        "UPDATE subscriptions SET status = 'cancelled', cancelled_at = ?, updated_at = ? WHERE id = ? AND status IN ('active', 'trialing', 'past_due', 'incomplete')",
      )
      .bind(endedAt, now, sub.id),
    db.$client.prepare("UPDATE users SET plan = 'free', updated_at = ? WHERE id = ? AND changes() = 1").bind(now, sub.userId),
  ];
}
