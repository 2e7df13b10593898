import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep, type WorkflowStepConfig } from "cloudflare:workers";
import { parseEngineError } from "../../workers/engine/contract";
import { db as makeDb } from "../db/client";
import { ApiError, isErrorCode } from "../http/errors";
import { TOOLS, type JobStage } from "../modules/jobs/tools";
import { advance, finishJob, pageEvent } from "./job-lifecycle";
import { planJob, runExports, runPageStage } from "./stages";

export interface PipelineParams {
  jobId: string;
}

/** Step names, shared with the tests that introspect the workflow. */
export const STEP = {
  plan: "plan job",
  enter: (stage: JobStage) => `enter ${stage}`,
  page: (stage: JobStage, page: number) => `${stage} page ${page}`,
  pageFailed: (stage: JobStage, page: number) => `${stage} page ${page} failed`,
  exports: "build exports",
  finish: "finish job",
} as const;

/** Retries with backoff, for retryable failures only (others throw NonRetryableError). */
const PAGE_STEP: WorkflowStepConfig = { retries: { limit: 3, delay: "2 seconds", backoff: "exponential" }, timeout: "5 minutes" };
const DB_STEP: WorkflowStepConfig = { retries: { limit: 5, delay: "1 second", backoff: "exponential" }, timeout: "30 seconds" };

function asApiError(err: unknown): ApiError {
  const parsed = parseEngineError(err);
  if (parsed && isErrorCode(parsed.code)) return new ApiError(parsed.code, parsed.message);
  return new ApiError("internal_error", err instanceof Error ? err.message : String(err));
}

/**
 * One instance per job (instance id = job id): a step per stage and per page, so a failed page
 * fails alone and the job ends partially_completed. Step outputs are counts, never bitmaps.
 */
export class PipelineWorkflow extends WorkflowEntrypoint<Env, PipelineParams> {
  override async run(event: WorkflowEvent<PipelineParams>, step: WorkflowStep): Promise<string> {
    const db = makeDb(this.env.DB);
    const { jobId } = event.payload;
    const plan = await step.do(STEP.plan, DB_STEP, () => planJob(db, jobId));
    if (!plan) return "missing";

    const failed = new Map<number, ApiError>();
    const pageStages = TOOLS[plan.tool].stages.filter((s) => s !== "exporting");
    for (const stage of [...pageStages, "exporting" as const]) {
      const entered = await step.do(STEP.enter(stage), DB_STEP, () => advance(this.env, db, jobId, stage, `Started ${stage}`));
      if (!entered) return "stopped"; // cancelled or finished elsewhere
      if (stage === "exporting") break;
      for (let page = 0; page < plan.pages; page++) {
        if (failed.has(page)) continue;
        try {
          await step.do(STEP.page(stage, page), PAGE_STEP, async () => {
            const out = await runPageStage(this.env, db, plan, stage, page);
            await pageEvent(this.env, db, jobId, page, stage);
            return out;
          });
        } catch (err) {
          const e = asApiError(err);
          failed.set(page, e);
          await step.do(STEP.pageFailed(stage, page), DB_STEP, () => pageEvent(this.env, db, jobId, page, stage, { code: e.code, message: e.message }));
        }
      }
      if (failed.size === plan.pages) {
        const first = [...failed.values()][0]!;
        await step.do(STEP.finish, DB_STEP, () => finishJob(this.env, db, jobId, "failed", first));
        return "failed";
      }
    }

    const okPages = [...Array(plan.pages).keys()].filter((p) => !failed.has(p));
    try {
      await step.do(STEP.exports, PAGE_STEP, () => runExports(this.env, db, plan, okPages));
    } catch (err) {
      await step.do(STEP.finish, DB_STEP, () => finishJob(this.env, db, jobId, "failed", asApiError(err)));
      return "failed";
    }
    const status = failed.size > 0 ? "partially_completed" : "completed";
    await step.do(STEP.finish, DB_STEP, () => finishJob(this.env, db, jobId, status, undefined, failed.size));
    return status;
  }
}
