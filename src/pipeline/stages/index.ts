import { NonRetryableError } from "cloudflare:workflows";
import type { DB } from "../../db/client";
import { planOf } from "../../modules/billing/plans";
import { readyPageIndexes } from "../../modules/projects/pages.repo";
import * as repo from "../../modules/jobs/jobs.repo";
import { detecting } from "./detecting";
import { inpainting } from "./inpainting";
import { preprocessing } from "./preprocessing";
import { recognizing } from "./recognizing";
import { rendering } from "./rendering";
import { translating } from "./translating";
import type { JobPlan, PageStage, StageContext, StageHandler, StageResult } from "./types";

export type { JobPlan, PageStage, StageResult } from "./types";
export { runExports } from "./exporting";
export { drawsPagesLater } from "./preprocessing";

/**
 * The page stages this deployment can run, one file each. A tool whose stage is missing here fails
 * its pages with `stage_unavailable` rather than faking output; adding a stage is adding its file
 * and its line in this map.
 */
export const STAGE_HANDLERS: Partial<Record<PageStage, StageHandler>> = {
  preprocessing,
  detecting,
  recognizing,
  translating,
  inpainting,
  rendering,
};

/** One page through one stage. */
export async function runPageStage(ctx: StageContext & { stage: PageStage }): Promise<StageResult> {
  const handler = STAGE_HANDLERS[ctx.stage];
  if (!handler) throw new NonRetryableError(`[stage_unavailable] The ${ctx.stage} stage is not available in this version of the service.`);
  return handler(ctx);
}

/** Reads what an attempt needs from D1 once; null when the job is gone or belongs to another attempt. */
export async function planJob(db: DB, jobId: string, attempt: number): Promise<JobPlan | null> {
  const job = await repo.getJob(db, jobId);
  if (!job || job.attempt !== attempt) return null;
  const o = job.options;
  const pages = job.kind === "batch" ? [] : await repo.jobPageRows(db, jobId);
  const exportPages = job.kind === "rerender" && job.projectId ? await readyPageIndexes(db, job.projectId) : pages.map((p) => p.pageIndex);
  return {
    jobId,
    attempt,
    kind: job.kind,
    userId: job.userId,
    projectId: job.projectId,
    tool: job.tool,
    pages: job.pagesTotal,
    pagesToRun: pages.filter((p) => p.status !== "completed").map((p) => p.pageIndex),
    exportPages,
    sourceKey: job.sourceKey,
    languages: (o.ocr_languages as string[] | undefined) ?? ["eng"],
    ocrMode: (o.ocr_mode as JobPlan["ocrMode"]) ?? "auto",
    targetLanguage: o.target_language ?? null,
    formats: o.export_formats ?? [],
    baseName:
      (job.sourceName ?? "document")
        .replace(/\.[A-Za-z0-9]{1,5}$/, "")
        .replace(/[^\w.-]+/g, "_")
        .slice(0, 80) || "document",
    concurrency: planOf(await repo.ownerPlan(db, job.userId)).concurrency,
  };
}
