import { zipSync } from "fflate";
import type { DB } from "../../db/client";
import { ApiError, isErrorCode } from "../../http/errors";
import { keys } from "../../lib/storage";
import { isTerminal } from "../../modules/jobs/job-state";
import { jobExports, upsertExports } from "../../modules/exports/exports.service";
import * as repo from "../../modules/jobs/jobs.repo";
import { batchPercent, type FinalStatus, type JobRef, recordEvent } from "../../modules/jobs/job-lifecycle";
import type { JobPlan } from "../stages";
import { batchReportCsv, childFolder } from "./batch-report";

/**
 * One look at a batch's children: how many are finished. Publishes a progress event on the parent
 * when more finished than `seen`. `stopped` when the parent was cancelled or retried meanwhile.
 */
export async function watchChildren(
  env: Env,
  db: DB,
  ref: JobRef,
  seen: number,
): Promise<{ stopped: boolean; total: number; finished: number }> {
  const parent = await repo.getJob(db, ref.jobId);
  if (!parent || parent.attempt !== ref.attempt || parent.status !== "queued") return { stopped: true, total: 0, finished: 0 };
  const children = await repo.childrenOf(db, ref.jobId);
  const finished = children.filter((c) => isTerminal(c.status)).length;
  if (finished > seen) {
    const percent = batchPercent(finished, children.length);
    const message = `${finished} of ${children.length} files finished`;
    const data = { children_total: children.length, children_finished: finished, percent, attempt: ref.attempt };
    await recordEvent(env, db, ref.jobId, { type: "progress", message, data });
  }
  return { stopped: false, total: children.length, finished };
}

export interface BatchCounts {
  completed: number;
  partial: number;
  failed: number;
  firstError: { code: string; message: string } | null;
}

/**
 * Builds the parent's ZIP (every child's exports in a folder per file, plus report.csv) and the
 * CSV report on its own, and records both as the parent's exports. Rebuilt in place on retry-failed.
 * The archive is built in memory: batch inputs are bounded by LIMITS.max_batch_bytes.
 */
export async function batchArchive(env: Env, db: DB, plan: JobPlan): Promise<BatchCounts> {
  const children = await repo.childrenOf(db, plan.jobId);
  const exports = await jobExports(
    db,
    children.map((c) => c.id),
  );
  const files: Record<string, Uint8Array> = {};
  for (const child of children) {
    for (const e of exports.filter((x) => x.jobId === child.id && x.status === "ready" && x.key)) {
      const obj = await env.FILES.get(e.key!);
      if (!obj) throw new Error(`export ${e.id} of ${child.id} is missing from storage`);
      files[`${childFolder(child)}/${e.filename ?? `${e.id}.${e.format}`}`] = new Uint8Array(await obj.arrayBuffer());
    }
  }
  const csv = new TextEncoder().encode(batchReportCsv(children));
  const zip = zipSync({ ...files, "report.csv": csv }, { level: 6 });
  const zipKey = keys.batchZip(plan.userId, plan.jobId);
  const csvKey = keys.batchReport(plan.userId, plan.jobId);
  await env.FILES.put(zipKey, zip, { httpMetadata: { contentType: "application/zip" } });
  await env.FILES.put(csvKey, csv, { httpMetadata: { contentType: "text/csv; charset=utf-8" } });
  const now = Date.now();
  const base = { userId: plan.userId, projectId: null, jobId: plan.jobId, status: "ready" as const, createdAt: now, completedAt: now };
  await upsertExports(db, [
    {
      ...base,
      id: `exp_${plan.jobId.slice(4)}_zip`,
      format: "zip",
      key: zipKey,
      filename: "batch.zip",
      bytes: zip.byteLength,
      contentType: "application/zip",
    },
    {
      ...base,
      id: `exp_${plan.jobId.slice(4)}_csv`,
      format: "csv",
      key: csvKey,
      filename: "report.csv",
      bytes: csv.byteLength,
      contentType: "text/csv; charset=utf-8",
    },
  ]);
  const failed = children.filter((c) => c.status === "failed" || c.status === "cancelled");
  return {
    completed: children.filter((c) => c.status === "completed").length,
    partial: children.filter((c) => c.status === "partially_completed").length,
    failed: failed.length,
    firstError: failed[0]?.error ? { code: failed[0].error.code, message: failed[0].error.message } : null,
  };
}

/** completed when every file completed, failed when none produced output, partially_completed otherwise. */
export function batchOutcome(c: BatchCounts): { status: FinalStatus; error?: ApiError } {
  if (c.failed === 0 && c.partial === 0) return { status: "completed" };
  if (c.completed + c.partial > 0) return { status: "partially_completed" };
  const code = c.firstError && isErrorCode(c.firstError.code) ? c.firstError.code : "internal_error";
  return {
    status: "failed",
    error: new ApiError(code, `Every file of the batch failed; the first: ${c.firstError?.message ?? "unknown error"} (see report.csv).`),
  };
}
