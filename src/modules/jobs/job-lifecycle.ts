import type { DB } from "../../db/client";
import { type ApiError, ERROR_CATALOGUE } from "../../http/errors";
import { moneyStatements, priceOf, settleMove } from "../billing/wallet.service";
import { warnIfLowBalance } from "../billing/balance.service";
import { recordUsage } from "../billing/usage.service";
import { allowedFrom, type JobShape } from "./job-state";
import * as repo from "./jobs.repo";
import { projectPort } from "./project-port";
import type { JobStage, JobStatus } from "./tools";
import { emitJobEvent } from "../webhooks/webhooks.service";
import type { JobHub, JobHubEvent } from "./job-hub.do";
import { log, tracing } from "../../lib/log";

/** Who a pipeline call works for: the job and the attempt (a stale attempt's workflow cannot move the job). */
export interface JobRef extends JobShape {
  jobId: string;
  attempt: number;
}

export type FinalStatus = Extract<JobStatus, "completed" | "partially_completed" | "failed">;

/** The Workflow instance of one attempt: the job id first, then `<job>-a<attempt>` for each retry. */
export function instanceIdFor(jobId: string, attempt: number): string {
  return attempt === 0 ? jobId : `${jobId}-a${attempt}`;
}

/** Pushes an event to the job's hub; the D1 timeline stays authoritative if the hub is unreachable. */
export async function publish(env: Env, jobId: string, event: JobHubEvent): Promise<void> {
  const ns = env.JOB_HUB as DurableObjectNamespace<JobHub>;
  try {
    await ns.get(ns.idFromName(jobId)).publish(event);
  } catch (err) {
    log.warn("job hub publish failed", { job_id: jobId, error: err });
  }
}

/** What a timeline event carries besides its type: the page and stage it concerns, the message and its data. */
export interface JobEventInput {
  type: "progress" | "warning";
  message: string;
  page?: number;
  stage?: JobStage;
  data: Record<string, unknown>;
}

/**
 * Appends an event to the job's D1 timeline, then pushes it to the job's hub under the same `seq`
 * (the hub ignores a repeat, so a retried step publishes it once).
 */
export async function recordEvent(env: Env, db: DB, jobId: string, e: JobEventInput, before: D1PreparedStatement[] = []): Promise<void> {
  // `before` commits in the same batch (one round trip), ahead of the event.
  const results = await db.$client.batch<{ seq: number }>([...before, repo.appendEventStatement(db, jobId, e)]);
  const seq = results.at(-1)!.results[0]!.seq;
  await publish(env, jobId, {
    seq,
    type: e.type,
    data: { job_id: jobId, ...(e.page !== undefined ? { page: e.page } : {}), message: e.message, ...e.data },
  });
}

/** A job's percent while it runs: `done` of `units` of work, held below 100 until the job ends. */
export function runningPercent(done: number, units: number): number {
  return Math.min(99, Math.floor((100 * done) / units));
}

/** A batch parent's percent: its finished children of all of them plus the archive step. */
export function batchPercent(finishedChildren: number, children: number): number {
  return runningPercent(finishedChildren, children + 1);
}

/**
 * Moves a job to `to` if the state machine allows it from the job's current state, for this attempt.
 * Returns "moved" (also when a retried step finds the move already made), "blocked" when the job is
 * still where it was but `requireSql` refused (admission), or "stopped" when the job is elsewhere
 * (cancelled, retried, finished).
 */
export async function advance(
  env: Env,
  db: DB,
  ref: JobRef,
  to: JobStage,
  message: string,
  opts: { requireSql?: { sql: string; args: unknown[] }; data?: Record<string, unknown> } = {},
): Promise<"moved" | "blocked" | "stopped"> {
  const job = await repo.getJob(db, ref.jobId);
  if (!job || job.attempt !== ref.attempt) return "stopped";
  if (job.status === to) return "moved";
  const committed = await repo.commitTransition(db, {
    jobId: ref.jobId,
    attempt: ref.attempt,
    from: allowedFrom(ref, to),
    to,
    patch: { stage: to, ...(job.startedAt === null ? { startedAt: Date.now() } : {}) },
    requireSql: opts.requireSql,
    event: { message, data: opts.data },
  });
  if (!committed) {
    const now = await repo.getJob(db, ref.jobId);
    if (now && now.attempt === ref.attempt && now.status === to) return "moved";
    return now && now.attempt === ref.attempt && now.status === job.status ? "blocked" : "stopped";
  }
  await publish(env, ref.jobId, {
    seq: committed.seq,
    type: "status",
    data: { job_id: ref.jobId, status: to, stage: to, attempt: ref.attempt, message, ...opts.data },
  });
  // duration_ms: time spent in the stage the job leaves.
  if (tracing(env))
    log.info("job stage", {
      job_id: ref.jobId,
      user_id: job.userId,
      stage: to,
      from: job.status,
      attempt: ref.attempt,
      duration_ms: Date.now() - job.updatedAt,
    });
  return "moved";
}

/** Records a page's progress (or failure) in job_pages, the timeline and on the hub, with the job's percent. */
export async function pageEvent(
  env: Env,
  db: DB,
  ref: JobRef,
  p: {
    page: number;
    stage: JobStage;
    last: boolean;
    percent: number;
    failed?: { code: string; message: string };
    /** Stages the page passed in one step, ending with `stage` (a text-layer page's reads). */
    stages?: JobStage[];
  },
): Promise<void> {
  const mark = repo.markPageStatement(db, ref.jobId, p.page, {
    status: p.failed ? "failed" : p.last ? "completed" : "processing",
    stage: p.stage,
    error: p.failed,
  });
  const message = p.failed
    ? `Page ${p.page + 1} failed at ${p.stage}: ${p.failed.message}`
    : `Page ${p.page + 1} ${(p.stages ?? [p.stage]).join(", ")} done`;
  const data = {
    stage: p.stage,
    percent: p.percent,
    attempt: ref.attempt,
    ...(p.stages ? { stages: p.stages } : {}),
    ...(p.failed ? { error: p.failed } : {}),
  };
  await recordEvent(env, db, ref.jobId, { type: "progress", page: p.page, stage: p.stage, message, data }, [mark]);
}

/** A warning about the result that does not fail the job (e.g. text left after inpainting). */
export async function warn(
  env: Env,
  db: DB,
  ref: JobRef,
  w: { code: string; message: string; page?: number; stage?: JobStage },
): Promise<void> {
  const data = { code: w.code, attempt: ref.attempt, ...(w.stage ? { stage: w.stage } : {}) };
  await recordEvent(env, db, ref.jobId, { type: "warning", page: w.page, stage: w.stage, message: w.message, data });
}

/** Guards a settlement on the transition it belongs to having happened (same transaction). */
function jobNowIs(jobId: string, attempt: number, status: JobStatus) {
  return repo.jobIsGuard(jobId, attempt, [status]);
}

/**
 * The project's status once its job ends. A re-render never changes which pages hold content, so
 * its project returns to what its pages say, whatever the re-render's outcome.
 */
async function projectStatusAfter(db: DB, job: repo.JobRow, status: JobStatus, succeededPages: number) {
  if (job.kind === "rerender") return projectPort().statusFromPages(db, job.projectId!);
  return status === "completed" ? "ready" : succeededPages > 0 ? "partial" : "failed";
}

function storedError(error: ApiError | undefined) {
  return error
    ? { code: error.code, message: error.message, retryable: ERROR_CATALOGUE[error.code].retryable, details: error.details }
    : null;
}

async function pageCounts(db: DB, job: repo.JobRow): Promise<{ succeeded: number; failed: number }> {
  if (job.kind === "batch") {
    const children = await repo.childrenOf(db, job.id);
    return { succeeded: children.reduce((n, c) => n + c.pagesDone, 0), failed: children.reduce((n, c) => n + c.pagesFailed, 0) };
  }
  const rows = await repo.jobPageRows(db, job.id);
  return { succeeded: rows.filter((r) => r.status === "completed").length, failed: rows.filter((r) => r.status !== "completed").length };
}

/**
 * Ends an attempt of a job, in one transaction: the terminal state, its timeline events and the
 * settlement (what was delivered is charged, the rest of the attempt's hold released). A cancel
 * racing with it resolves to exactly one outcome: the loser's transition and its guarded
 * settlement both do nothing. A repeat by a retried step re-publishes and returns true.
 */
export async function finishJob(
  env: Env,
  db: DB,
  ref: Pick<JobRef, "jobId" | "attempt">,
  status: FinalStatus,
  error?: ApiError,
): Promise<boolean> {
  const job = await repo.getJob(db, ref.jobId);
  if (!job || job.attempt !== ref.attempt) return false;
  const { succeeded, failed } = await pageCounts(db, job);
  // Charged on delivery: every succeeded page of the document is priced, minus what earlier attempts charged.
  const owed = status === "failed" ? 0 : Math.max(0, priceOf(job.tool, succeeded, job.kind) - job.creditsCharged);
  const charge = Math.min(owed, job.creditsReserved);
  const stored = storedError(error);
  const message =
    status === "completed"
      ? "Job completed"
      : status === "partially_completed"
        ? job.kind === "batch"
          ? "Some files failed"
          : `${failed} of ${job.pagesTotal} pages failed`
        : `Job failed: ${error?.message ?? "unknown error"}`;
  const settle = settleMove({
    userId: job.userId,
    jobId: job.id,
    attempt: job.attempt,
    reserved: job.creditsReserved,
    charge,
    onlyIf: jobNowIs(job.id, job.attempt, status),
  });
  const committed = await repo.commitTransition(db, {
    jobId: job.id,
    attempt: job.attempt,
    from: allowedFrom(job, status),
    to: status,
    patch: {
      stage: null,
      finishedAt: Date.now(),
      pagesDone: succeeded,
      pagesFailed: failed,
      creditsCharged: { sql: "credits_charged + ?", args: [charge] },
      creditsReserved: 0,
      error: stored,
    },
    event: { message, data: stored ? { error: stored } : {} },
    done: true,
    // The project's state commits with the job's, so a client never sees the job finished and its project still processing.
    after: [
      ...moneyStatements(db, settle),
      ...(job.projectId
        ? [
            projectPort().statusStatement(
              db,
              job.projectId,
              await projectStatusAfter(db, job, status, succeeded),
              jobNowIs(job.id, job.attempt, status),
            ),
          ]
        : []),
    ],
  });
  // Usage counts the winning transition only (a batch parent's pages are its children's).
  if (committed && job.kind !== "batch")
    await recordUsage(db, { userId: job.userId, tool: job.tool, status, pages: succeeded, pagesFailed: failed, credits: charge });
  return announceTerminal(env, db, job, status, committed, { message, ...(stored ? { error: stored } : {}) });
}

/**
 * Cancels the current attempt of a job: the transition and the release of its hold in one
 * transaction (nothing is charged: a cancelled attempt delivers no export; pages it finished are
 * kept, and charged if a retry delivers them), then stops its Workflow instance.
 * Returns false when the job had already reached a terminal state (the race was lost).
 */
export async function cancelAttempt(env: Env, db: DB, job: repo.JobRow, reason: string): Promise<boolean> {
  const settle = settleMove({
    userId: job.userId,
    jobId: job.id,
    attempt: job.attempt,
    reserved: job.creditsReserved,
    charge: 0,
    onlyIf: jobNowIs(job.id, job.attempt, "cancelled"),
  });
  const cancelPages = repo.cancelOpenPagesStatement(db, job.id, job.attempt);
  const committed = await repo.commitTransition(db, {
    jobId: job.id,
    attempt: job.attempt,
    from: allowedFrom(job, "cancelled"),
    to: "cancelled",
    patch: { stage: null, finishedAt: Date.now(), creditsReserved: 0 },
    event: { message: reason },
    done: true,
    after: [...moneyStatements(db, settle), cancelPages],
  });
  if (!committed) return false;
  if (job.kind !== "batch")
    await recordUsage(db, { userId: job.userId, tool: job.tool, status: "cancelled", pages: 0, pagesFailed: 0, credits: 0 });
  // After the transition: a workflow step still running finds the job cancelled and stops at its next step.
  if (job.workflowInstanceId) {
    const instanceId = job.workflowInstanceId;
    await env.PIPELINE.get(instanceId)
      .then((instance) => instance.terminate())
      .catch((err: unknown) => log.warn("terminate failed (instance already ended?)", { job_id: job.id, error: err }));
  }
  return announceTerminal(env, db, job, "cancelled", committed, { message: reason });
}

async function announceTerminal(
  env: Env,
  db: DB,
  job: repo.JobRow,
  status: JobStatus,
  committed: { seq: number; doneSeq: number | null } | null,
  data: Record<string, unknown>,
): Promise<boolean> {
  let seqs = committed;
  if (!seqs) {
    // Lost race, or a retried step whose first run committed: only the latter re-publishes.
    const now = await repo.getJob(db, job.id);
    if (!now || now.attempt !== job.attempt || now.status !== status) return false;
    const [last, prev] = await repo.lastStatusEvents(db, job.id);
    if (!last || last.type !== "done" || !prev) return true;
    seqs = { seq: prev.seq, doneSeq: last.seq };
  }
  await publish(env, job.id, { seq: seqs.seq, type: "status", data: { job_id: job.id, status, attempt: job.attempt, ...data } });
  if (seqs.doneSeq !== null) await publish(env, job.id, { seq: seqs.doneSeq, type: "done", data: { job_id: job.id, status } });
  await onJobTerminal(env, db, job, status);
  return true;
}

/**
 * Runs after a job reaches a terminal state (finished or cancelled), once per winning transition
 * and again if the step that made it is retried, so what runs here must be idempotent (keyed by
 * job id, attempt and status). Outbound job.* notifications hook in here.
 */
async function onJobTerminal(env: Env, db: DB, job: repo.JobRow, status: JobStatus): Promise<void> {
  if (job.projectId && status === "cancelled") {
    const pages = await repo.jobPageRows(db, job.id);
    await projectPort().setStatus(
      db,
      job.projectId,
      await projectStatusAfter(db, job, status, pages.filter((p) => p.status === "completed").length),
    );
  }
  // Keyed by job, attempt and status (event) and by the last top-up (low balance): safe to repeat.
  await emitJobEvent(env, db, (await repo.getJob(db, job.id)) ?? job);
  await warnIfLowBalance(env, db, job.userId);
}
