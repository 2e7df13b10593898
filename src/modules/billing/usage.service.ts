import type { DB } from "../../db/client";
import { addUsage, type FinishedStatus, usageSince } from "./usage.repo";

const DAY_MS = 24 * 60 * 60 * 1000;

/** UTC day of a timestamp, `YYYY-MM-DD`. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * Records a finished job in the usage aggregates (`usage_daily`), on the UTC day it finished.
 * Call it once per job attempt, where the job reaches its terminal state (after the transition
 * succeeded, so a retried step does not count the job twice). `pages` are the pages delivered,
 * `credits` what was charged.
 */
export async function recordUsage(
  db: DB,
  u: { userId: string; tool: string; status: FinishedStatus; pages: number; pagesFailed: number; credits: number; at?: number },
): Promise<void> {
  await addUsage(db, {
    userId: u.userId,
    day: utcDay(u.at ?? Date.now()),
    tool: u.tool,
    status: u.status,
    pages: u.pages,
    pagesFailed: u.pagesFailed,
    credits: u.credits,
  });
}

interface Counts {
  jobs: number;
  pages: number;
  pages_failed: number;
  credits: number;
}

const zero = (): Counts => ({ jobs: 0, pages: 0, pages_failed: 0, credits: 0 });

function add(into: Counts, row: { jobs: number; pages: number; pagesFailed: number; credits: number }) {
  into.jobs += row.jobs;
  into.pages += row.pages;
  into.pages_failed += row.pagesFailed;
  into.credits += row.credits;
}

/**
 * GET /account/usage: the last `days` UTC days up to today, from the daily aggregates. Every day
 * of the range is listed (zeros included) with its pages and credits by tool; totals by tool and
 * finished jobs by status cover the whole range.
 */
export async function usageReport(db: DB, userId: string, days: number, now = Date.now()) {
  const to = utcDay(now);
  const from = utcDay(now - (days - 1) * DAY_MS);
  const rows = await usageSince(db, userId, from);
  const daily = new Map<string, Counts & { by_tool: Record<string, Counts> }>();
  for (let i = days - 1; i >= 0; i--) daily.set(utcDay(now - i * DAY_MS), { ...zero(), by_tool: {} });
  const totals = zero();
  const byTool: Record<string, Counts> = {};
  const jobsByStatus: Record<FinishedStatus, number> = { completed: 0, partially_completed: 0, failed: 0, cancelled: 0 };
  for (const row of rows) {
    const day = daily.get(row.day);
    if (!day) continue; // a row dated after `now` (clock skew between isolates) is left for tomorrow
    add(day, row);
    add((day.by_tool[row.tool] ??= zero()), row);
    add(totals, row);
    add((byTool[row.tool] ??= zero()), row);
    jobsByStatus.completed += row.jobsCompleted;
    jobsByStatus.partially_completed += row.jobsPartiallyCompleted;
    jobsByStatus.failed += row.jobsFailed;
    jobsByStatus.cancelled += row.jobsCancelled;
  }
  return {
    days,
    from,
    to,
    totals,
    by_tool: byTool,
    jobs_by_status: jobsByStatus,
    daily: [...daily].map(([day, counts]) => ({ day, ...counts })),
  };
}
