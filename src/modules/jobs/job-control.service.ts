import type { DB } from "../../db/client";
import type { AuthContext } from "../../env";
import { projectEditable } from "../../db/project-guard";
import { ApiError } from "../../http/errors";
import { cancelAttempt, instanceIdFor, publish } from "./job-lifecycle";
import { availableCredits, holdMove, insufficientCredits, moneyStatements, moveMadeGuard, priceOf } from "../billing/wallet.service";
import { allowedFrom, isTerminal, RETRYABLE_FROM } from "./job-state";
import * as repo from "./jobs.repo";
import { projectPort } from "./project-port";
import { getOwnJob, launch } from "./jobs.service";

/**
 * POST /jobs/{id}/cancel: stops the job (and, for a batch, its unfinished files) and releases its
 * hold. A job that already finished is 409 `invalid_transition`; of a cancel racing with the last
 * stage exactly one wins, and the job ends in that one's state with credits settled once.
 */
export async function cancelJob(env: Env, db: DB, auth: AuthContext, jobId: string): Promise<repo.JobRow> {
  const job = await getOwnJob(db, auth, jobId);
  const refuse = (status: string) =>
    new ApiError("invalid_transition", `The job already finished (${status}); only a queued or running job can be cancelled.`, {
      details: { from: status, to: "cancelled" },
    });
  if (isTerminal(job.status)) throw refuse(job.status);
  const won = await cancelAttempt(env, db, job, "Cancelled by request");
  if (!won) {
    const now = (await repo.getJob(db, jobId))!;
    throw refuse(now.status);
  }
  if (job.kind === "batch") {
    for (const child of await repo.childrenOf(db, job.id)) {
      if (!isTerminal(child.status)) await cancelAttempt(env, db, child, "Cancelled with its batch");
    }
  }
  return (await repo.getJob(db, jobId))!;
}

/**
 * Starts a new attempt of a failed, cancelled or partially completed job: the hold for what is not
 * yet charged and the move to `queued` commit together (two racing retries: one wins, the other is
 * 409), pages not completed go back to pending (completed ones are kept), and a new Workflow
 * instance `<job>-a<attempt>` runs it.
 */
async function retryOne(env: Env, db: DB, job: repo.JobRow): Promise<repo.JobRow> {
  if (!(RETRYABLE_FROM as readonly string[]).includes(job.status)) {
    throw new ApiError(
      "invalid_transition",
      `A ${job.status} job cannot be retried; only failed, cancelled or partially completed jobs can.`,
      { details: { from: job.status, to: "queued" } },
    );
  }
  if (job.kind !== "batch" && job.pagesTotal === 0) {
    throw new ApiError(
      "conflict",
      `The file was refused at upload (${job.error?.code ?? "unreadable"}); a retry cannot change it. Upload it again.`,
      {
        details: { error_code: job.error?.code ?? null },
      },
    );
  }
  const attempt = job.attempt + 1;
  const hold = job.kind === "batch" ? 0 : Math.max(0, priceOf(job.tool, job.pagesTotal, job.kind) - job.creditsCharged);
  // A job that writes a project claims it as a re-render does: only while the project is editable,
  // marked `processing` in the same transaction, so edits wait for this attempt to finish.
  const projectFree = job.projectId ? projectEditable(job.projectId) : null;
  const stillRetryable = allOf(repo.jobIsGuard(job.id, job.attempt, RETRYABLE_FROM), projectFree);
  const resetPages = repo.resetUnfinishedPagesStatement(db, job.id, attempt);
  const committed = await repo.commitTransition(db, {
    jobId: job.id,
    attempt: job.attempt,
    from: allowedFrom(job, "queued").filter((s) => (RETRYABLE_FROM as readonly string[]).includes(s)),
    to: "queued",
    patch: {
      attempt,
      stage: null,
      error: null,
      finishedAt: null,
      pagesFailed: 0,
      creditsReserved: hold,
      workflowInstanceId: instanceIdFor(job.id, attempt),
    },
    requireSql: allOf(
      hold > 0 ? moveMadeGuard(holdMove({ userId: job.userId, jobId: job.id, attempt, credits: hold })) : null,
      projectFree,
    ),
    event: { message: `Retry: attempt ${attempt + 1}`, data: { attempt, retry: true } },
    before:
      hold > 0 ? moneyStatements(db, holdMove({ userId: job.userId, jobId: job.id, attempt, credits: hold, onlyIf: stillRetryable })) : [],
    after: [
      resetPages,
      ...(job.projectId
        ? [projectPort().statusStatement(db, job.projectId, "processing", repo.jobIsGuard(job.id, attempt, ["queued"]))]
        : []),
    ],
  });
  if (!committed) {
    const now = (await repo.getJob(db, job.id))!;
    if (job.projectId && !(await projectPort().editableNow(db, job.projectId))) {
      throw new ApiError(
        "conflict",
        "The job's project is being processed or is in the trash; retry when its other job has finished (or restore it).",
        { details: { project_id: job.projectId } },
      );
    }
    if (hold > 0 && now.attempt === job.attempt && now.status === job.status) throw insufficientCredits(hold);
    throw new ApiError("invalid_transition", `The job is ${now.status} now (another request moved it); it cannot be retried from there.`, {
      details: { from: now.status, to: "queued" },
    });
  }
  await publish(env, job.id, {
    seq: committed.seq,
    type: "status",
    data: { job_id: job.id, status: "queued", attempt, retry: true, message: `Retry: attempt ${attempt + 1}` },
  });
  await launch(env, db, { id: job.id, attempt });
  return (await repo.getJob(db, job.id))!;
}

/** The conjunction of SQL conditions (null ones left out); undefined when none remain. */
function allOf(...conds: ({ sql: string; args: unknown[] } | null)[]): { sql: string; args: unknown[] } | undefined {
  const present = conds.filter((c): c is { sql: string; args: unknown[] } => c !== null);
  if (present.length === 0) return undefined;
  return { sql: present.map((c) => `(${c.sql})`).join(" AND "), args: present.flatMap((c) => c.args) };
}

/** Children of a batch that retry-failed re-runs: failed or cancelled, with a readable file. */
function retryableChildren(children: repo.JobRow[]): repo.JobRow[] {
  return children.filter((c) => (c.status === "failed" || c.status === "cancelled") && c.pagesTotal > 0);
}

/**
 * POST /jobs/{id}/retry-failed (and /retry on a batch): re-queues only the failed files, then the
 * parent, which waits for them and rebuilds the ZIP and report. Files are re-queued first, so the
 * parent never sees them still failed.
 */
export async function retryFailed(env: Env, db: DB, auth: AuthContext, jobId: string): Promise<repo.JobRow> {
  const parent = await getOwnJob(db, auth, jobId);
  if (parent.kind !== "batch")
    throw new ApiError("conflict", "retry-failed applies to batch jobs only; use POST /jobs/{job_id}/retry for this job.", {
      details: { kind: parent.kind },
    });
  if (!(RETRYABLE_FROM as readonly string[]).includes(parent.status)) {
    throw new ApiError("invalid_transition", `A ${parent.status} batch has no failed files to retry.`, {
      details: { from: parent.status, to: "queued" },
    });
  }
  const children = retryableChildren(await repo.childrenOf(db, parent.id));
  if (children.length === 0)
    throw new ApiError("conflict", "No file of this batch can be retried (files refused at upload need a new upload).", {
      details: { retryable_files: 0 },
    });
  const needed = children.reduce((n, c) => n + Math.max(0, priceOf(c.tool, c.pagesTotal, c.kind) - c.creditsCharged), 0);
  if ((await availableCredits(db, parent.userId)) < needed) throw insufficientCredits(needed);
  for (const child of children) await retryOne(env, db, child);
  return retryOne(env, db, parent);
}

/** POST /jobs/{id}/retry: a new attempt re-running only what failed (pages of a document, files of a batch). */
export async function retryJob(env: Env, db: DB, auth: AuthContext, jobId: string): Promise<repo.JobRow> {
  const job = await getOwnJob(db, auth, jobId);
  if (job.kind === "batch") return retryFailed(env, db, auth, jobId);
  return retryOne(env, db, job);
}
