import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep, type WorkflowStepConfig } from "cloudflare:workers";
import { db as makeDb, type DB } from "../db/client";
import type { ApiError } from "../http/errors";
import { stepFailure } from "../modules/jobs/engine-failure";
import { mapLimit } from "../lib/concurrency";
import { runningStatuses, stagesOf } from "../modules/jobs/job-state";
import * as repo from "../modules/jobs/jobs.repo";
import type { JobStage } from "../modules/jobs/tools";
import { batchArchive, batchOutcome, watchChildren } from "./batch/batch-steps";
import { advance, finishJob, type JobRef, pageEvent, runningPercent, warn } from "../modules/jobs/job-lifecycle";
import { drawsPagesLater, type JobPlan, type PageStage, planJob, runExports, runPageStages } from "./stages";
import { keys } from "../lib/storage";

export interface PipelineParams {
  jobId: string;
  /** The job's attempt this instance runs (0 first, +1 per retry); absent means 0. */
  attempt?: number;
}

/** Step names, shared with the tests that introspect the workflow. */
export const STEP = {
  plan: "plan job",
  admit: (n: number) => `admit ${n}`,
  admitWait: (n: number) => `wait for a free slot ${n}`,
  enter: (stage: JobStage) => `enter ${stage}`,
  page: (stage: JobStage, page: number) => `${stage} page ${page}`,
  pageFailed: (stage: JobStage, page: number) => `${stage} page ${page} failed`,
  exports: "build exports",
  children: (n: number) => `check children ${n}`,
  childrenWait: (n: number) => `wait for children ${n}`,
  archive: "build batch archive",
  finish: "finish job",
  draw: (page: number) => `draw page ${page}`,
} as const;

/** Retries with backoff, for retryable failures only (others throw NonRetryableError). */
const PAGE_STEP: WorkflowStepConfig = { retries: { limit: 3, delay: "2 seconds", backoff: "exponential" }, timeout: "5 minutes" };
/** Drawing a page image after the job finished: one try, its failure only leaves the blank canvas. */
const DRAW_STEP: WorkflowStepConfig = { retries: { limit: 0, delay: "1 second" }, timeout: "5 minutes" };
const DB_STEP: WorkflowStepConfig = { retries: { limit: 5, delay: "1 second", backoff: "exponential" }, timeout: "30 seconds" };

/** Polling interval while waiting (for a concurrency slot, or for a batch's children): 0.5 s growing to 10 s. */
function pollDelayMs(n: number): number {
  return Math.min(500 * 1.5 ** n, 10_000);
}

/** Pages of one document in flight at once (each through its chain): the `PAGE_CONCURRENCY` var, at least 1. */
function pageConcurrency(env: Env): number {
  const n = Number.parseInt(env.PAGE_CONCURRENCY ?? "", 10);
  return Number.isFinite(n) && n >= 1 ? n : 1;
}

async function stillCurrent(db: DB, ref: JobRef): Promise<boolean> {
  const job = await repo.getJob(db, ref.jobId);
  return !!job && job.attempt === ref.attempt && job.status !== "cancelled";
}

/**
 * One instance per attempt of a job (`instanceIdFor`): admission against the plan's concurrency,
 * then each page through its own chain of stage steps, so a failed page fails alone and the job ends
 * partially_completed. A batch parent instead waits for its children and builds the ZIP and report.
 * Step outputs are counts and keys, never bitmaps.
 */
export class PipelineWorkflow extends WorkflowEntrypoint<Env, PipelineParams> {
  override async run(event: WorkflowEvent<PipelineParams>, step: WorkflowStep): Promise<string> {
    const db = makeDb(this.env.DB);
    const { jobId, attempt = 0 } = event.payload;
    // The plan and the first admission try share a step: one step fewer on every job's path.
    const { plan, admitted } = await step.do(STEP.plan, DB_STEP, async () => {
      const plan = await planJob(db, jobId, attempt);
      if (!plan || plan.kind === "batch") return { plan, admitted: null };
      return { plan, admitted: await this.tryAdmit(db, plan, { jobId, attempt, tool: plan.tool, kind: plan.kind }) };
    });
    if (!plan) return "missing";
    const ref: JobRef = { jobId, attempt, tool: plan.tool, kind: plan.kind };
    if (plan.kind === "batch") return this.runBatch(db, step, plan, ref);
    if (!(await this.admit(db, step, plan, ref, admitted!))) return "stopped";
    return this.runDocument(db, step, plan, ref);
  }

  /** The first stage of this attempt: a retry whose pages all completed before (its exports failed) goes straight to exporting. */
  private firstStage(plan: JobPlan, ref: JobRef): JobStage {
    return plan.pagesToRun.length > 0 ? stagesOf(ref)[0]! : "exporting";
  }

  /** One admission try: the move into the first stage, guarded by the owner's running jobs (same SQL statement). */
  private tryAdmit(db: DB, plan: JobPlan, ref: JobRef) {
    const first = this.firstStage(plan, ref);
    const guard = repo.admissionGuard(plan.userId, plan.concurrency, runningStatuses());
    return advance(this.env, db, ref, first, `Started ${first}`, { requireSql: guard });
  }

  /**
   * Concurrency admission: the job waits in `queued` until its owner runs fewer jobs than the plan
   * allows, polling with durable sleeps (no instance is held meanwhile). The check and the move into
   * the first stage are one guarded D1 update, so the plan's limit holds under races. `first` is the
   * try made with the plan.
   */
  private async admit(db: DB, step: WorkflowStep, plan: JobPlan, ref: JobRef, first: "moved" | "blocked" | "stopped"): Promise<boolean> {
    let r = first;
    for (let n = 0; r === "blocked"; n++) {
      await step.sleep(STEP.admitWait(n), pollDelayMs(n));
      r = await step.do(STEP.admit(n + 1), DB_STEP, () => this.tryAdmit(db, plan, ref));
    }
    return r === "moved";
  }

  /**
   * A document's pages, each through its own chain of stages as soon as one of PAGE_CONCURRENCY
   * slots is free (in production each engine call may land on its own isolate; locally the calls
   * spread over the engine processes), so no page waits for the slowest page of a stage. The job's
   * stage is the earliest one a page still has to pass: it moves on when the last page leaves a
   * stage, in a step of its own. A page that fails skips its later stages; exporting waits for every page.
   */
  private async runDocument(db: DB, step: WorkflowStep, plan: JobPlan, ref: JobRef): Promise<string> {
    const toRun = plan.pagesToRun;
    const pageStages = stagesOf(ref).filter((s): s is PageStage => s !== "exporting");
    const chain = toRun.length > 0 ? pageStages : [];
    const failed = new Map<number, ApiError>();
    // Percent over the whole document (as GET /jobs/{id} computes it): pages completed earlier count as done.
    const units = pageStages.length * plan.pages + 1;
    let done = pageStages.length * (plan.pages - toRun.length);
    const percent = (d = done) => runningPercent(d, units);
    const allFailed = () => toRun.length === plan.pages && failed.size === toRun.length;

    // Per stage: pages yet to pass it, and pages that passed it inside an earlier stage's step (text layer).
    const left = chain.map(() => toRun.length);
    const readAhead = chain.map(() => 0);
    let current = 0;
    let stopped = false;
    let entering = Promise.resolve();
    /** A page passed stages [from, to): when a stage has no page left, the job enters the stages after it, in order. */
    const pass = (from: number, to: number, ahead: boolean) => {
      for (let k = from; k < to; k++) {
        left[k]!--;
        if (ahead && k > from) readAhead[k]!++;
      }
      // Every page failed: the job fails from where it is (below), entering nothing more.
      if (allFailed()) return;
      let next = current;
      while (next < chain.length && left[next] === 0) next++;
      // Stages every page read from its text layer within an earlier step are skipped (the state
      // machine allows it); exporting is entered by the exports step.
      const enter = chain
        .slice(current + 1, next + 1)
        .filter((s, i) => current + 1 + i === next || readAhead[current + 1 + i] !== toRun.length);
      current = next;
      for (const stage of enter)
        entering = entering.then(async () => {
          if (stopped) return;
          const r = await step.do(STEP.enter(stage), DB_STEP, () => advance(this.env, db, ref, stage, `Started ${stage}`));
          if (r !== "moved") stopped = true;
        });
      // Observed at once, so that a step failing while pages still run (the instance aborted) is
      // no unhandled rejection; `await entering` below still throws it.
      entering.catch(() => {});
    };

    // Pages not yet through their chain: with the concurrency, how many are read at once (`pagesInFlight`).
    let unfinished = toRun.length;
    const slots = pageConcurrency(this.env);
    const runChain = async (page: number) => {
      for (let si = 0; si < chain.length;) {
        if (stopped) return;
        const stage = chain[si]!;
        try {
          const out = await step.do(STEP.page(stage, page), PAGE_STEP, async () => {
            if (!(await stillCurrent(db, ref))) return { stopped: true, through: si };
            const r = await runPageStages({ env: this.env, db, plan, page, pagesInFlight: Math.min(unfinished, slots) }, chain, si);
            const through = si + r.stages.length;
            const folded = r.stages.length > 1 ? { stages: r.stages } : {};
            const stage = r.stages.at(-1)!;
            const last = through === chain.length;
            await pageEvent(this.env, db, ref, { page, stage, last, percent: percent(done + r.stages.length), ...folded });
            for (const w of r.warnings) await warn(this.env, db, ref, { ...w, page });
            return { stopped: false, through };
          });
          if (out.stopped) {
            stopped = true;
            return;
          }
          done += out.through - si;
          pass(si, out.through, true);
          si = out.through;
        } catch (err) {
          const e = stepFailure(err);
          failed.set(page, e);
          const p = percent(done + 1);
          done += chain.length - si;
          await step.do(STEP.pageFailed(stage, page), DB_STEP, () =>
            pageEvent(this.env, db, ref, {
              page,
              stage,
              last: si === chain.length - 1,
              percent: p,
              failed: { code: e.code, message: e.message },
            }),
          );
          pass(si, chain.length, false);
          return;
        }
      }
    };
    await mapLimit(toRun, slots, async (page) => {
      try {
        await runChain(page);
      } finally {
        unfinished--;
      }
    });
    await entering;
    if (stopped) return "stopped";
    // No page left to deliver (none completed before either): the job fails without exporting.
    if (allFailed()) {
      const first = [...failed.values()][0]!;
      await step.do(STEP.finish, DB_STEP, () => finishJob(this.env, db, ref, "failed", first));
      return "failed";
    }

    const okPages = plan.exportPages.filter((p) => !failed.has(p));
    const status = failed.size > 0 ? "partially_completed" : "completed";
    // Entering exporting, building the exports and finishing share a step: each part is safe to
    // repeat (a move already made counts as made, exports are overwritten, a repeated finish re-publishes).
    let ended: boolean;
    try {
      ended = await step.do(STEP.exports, PAGE_STEP, async () => {
        // Not movable into exporting: cancelled (finishJob then does nothing), or finished by an earlier run of this step (it re-publishes).
        if ((await advance(this.env, db, ref, "exporting", "Started exporting")) !== "moved") return finishJob(this.env, db, ref, status);
        await runExports(this.env, db, plan, okPages);
        // A job without page stages (an ocr or tables re-render) delivers its pages with the exports.
        if (pageStages.length === 0)
          for (const page of toRun) await repo.markPage(db, ref.jobId, page, { status: "completed", stage: "exporting" });
        return finishJob(this.env, db, ref, status);
      });
    } catch (err) {
      await step.do(STEP.finish, DB_STEP, () => finishJob(this.env, db, ref, "failed", stepFailure(err)));
      return "failed";
    }
    if (!ended) return "stopped";
    // Text-layer pages of jobs that read only the text layer were left as blank canvases: the
    // editor's page images are drawn now that the job's outputs are complete, off its path.
    if (drawsPagesLater(plan))
      for (const page of toRun.filter((p) => !failed.has(p)))
        await step.do(STEP.draw(page), DRAW_STEP, () =>
          this.env.ENGINE.drawPage({ sourceKey: plan.sourceKey!, page, pageKey: keys.pageImage(plan.userId, plan.jobId, page) }).then(
            (r) => r.drawn,
            () => false,
          ),
        );
    return status;
  }

  /** A batch parent waits in `queued` for its children (each an ordinary job), then builds the ZIP and CSV report. */
  private async runBatch(db: DB, step: WorkflowStep, plan: JobPlan, ref: JobRef): Promise<string> {
    let seen = 0;
    for (let n = 0; ; n++) {
      const s = await step.do(STEP.children(n), DB_STEP, () => watchChildren(this.env, db, ref, seen));
      if (s.stopped) return "stopped";
      seen = s.finished;
      if (s.finished === s.total) break;
      await step.sleep(STEP.childrenWait(n), pollDelayMs(n));
    }
    const entered = await step.do(STEP.enter("exporting"), DB_STEP, () =>
      advance(this.env, db, ref, "exporting", "Building the batch archive and report"),
    );
    if (entered !== "moved") return "stopped";
    try {
      const counts = await step.do(STEP.archive, PAGE_STEP, () => batchArchive(this.env, db, plan));
      const outcome = batchOutcome(counts);
      await step.do(STEP.finish, DB_STEP, () => finishJob(this.env, db, ref, outcome.status, outcome.error));
      return outcome.status;
    } catch (err) {
      await step.do(STEP.finish, DB_STEP, () => finishJob(this.env, db, ref, "failed", stepFailure(err)));
      return "failed";
    }
  }
}
