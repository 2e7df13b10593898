import { and, asc, eq, gte } from "drizzle-orm";
import type { DB } from "../../db/client";
import { usageDaily } from "../../db/schema";
import { type AccountRows, ownRows } from "../../db/account-rows";

/** The account's daily usage, for its data export. */
export const ACCOUNT_ROWS: AccountRows = { usage: ownRows("usage_daily", "day, tool") };

export type FinishedStatus = "completed" | "partially_completed" | "failed" | "cancelled";

const STATUS_COLUMN: Record<FinishedStatus, string> = {
  completed: "jobs_completed",
  partially_completed: "jobs_partially_completed",
  failed: "jobs_failed",
  cancelled: "jobs_cancelled",
};

/** Adds one finished job to its user's row for that UTC day and tool (an upsert, one statement). */
export async function addUsage(
  db: DB,
  u: { userId: string; day: string; tool: string; status: FinishedStatus; pages: number; pagesFailed: number; credits: number },
): Promise<void> {
  const col = STATUS_COLUMN[u.status];
  await db.$client
    .prepare(
      `INSERT INTO usage_daily (user_id, day, tool, jobs, pages, pages_failed, credits, ${col}) VALUES (?, ?, ?, 1, ?, ?, ?, 1)
       ON CONFLICT (user_id, day, tool) DO UPDATE SET jobs = jobs + 1, pages = pages + excluded.pages,
         pages_failed = pages_failed + excluded.pages_failed, credits = credits + excluded.credits, ${col} = ${col} + 1`,
    )
    .bind(u.userId, u.day, u.tool, u.pages, u.pagesFailed, u.credits)
    .run();
}

/** The user's rows from `fromDay` (inclusive, `YYYY-MM-DD`) on, by day then tool. */
export async function usageSince(db: DB, userId: string, fromDay: string) {
  return db
    .select()
    .from(usageDaily)
    .where(and(eq(usageDaily.userId, userId), gte(usageDaily.day, fromDay)))
    .orderBy(asc(usageDaily.day), asc(usageDaily.tool));
}
