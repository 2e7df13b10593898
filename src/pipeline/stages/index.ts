import { NonRetryableError } from "cloudflare:workflows";
import type { DB } from "../../db/client";
import { userPlan } from "../../modules/auth/auth.repo";
import { planOf } from "../../modules/billing/plans";
import { readyPageIndexes } from "../../modules/projects/pages.repo";
import * as repo from "../../modules/jobs/jobs.repo";
import { detecting, RECOGNIZED_BY_TEXT } from "./detecting";
import { inpainting } from "./inpainting";
import { preprocessing } from "./preprocessing";
import { recognizing, saveRecognition } from "./recognizing";
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

/** Stages that only read a text-layer page's stored text layer (a few R2 reads: cheaper than a step of their own). */
const TEXT_LAYER_READS: ReadonlySet<PageStage> = new Set(["detecting", "recognizing"]);

/** What one page step did: the stages it ran, in order, and their warnings. */
export interface PageStepResult {
  stages: PageStage[];
  warnings: { code: string; message: string; stage: PageStage }[];
}

/**
 * One page through `chain[from]` and, when preprocessing found the page's text layer (`ocr` and
 * `translate`), through the read stages right after it as well: detection and recognition then
 * read the stored text layer, and one step for the three costs less than a step each. The caller
 * learns from the result how far the page went, so the step names that follow stay deterministic.
 */
export async function runPageStages(ctx: StageContext, chain: readonly PageStage[], from: number): Promise<PageStepResult> {
  const out: PageStepResult = { stages: [], warnings: [] };
  let textLayer = false;
  let read: StageResult["read"];
  for (let i = from; i < chain.length; i++) {
    const stage = chain[i]!;
    if (i > from && !(textLayer && TEXT_LAYER_READS.has(stage))) break;
    const r = read ? await storedReading(ctx, stage, read) : await runPageStage({ ...ctx, stage });
    out.stages.push(stage);
    for (const w of r.warnings ?? []) out.warnings.push({ ...w, stage });
    if (stage === "preprocessing") {
      textLayer = r.path === "text_layer" && RECOGNIZED_BY_TEXT.has(ctx.plan.tool);
      read = textLayer ? r.read : undefined;
    }
  }
  return out;
}

/** Detection or recognition of a text-layer page from what its preprocessing already stored (no engine call). */
function storedReading(ctx: StageContext, stage: PageStage, read: NonNullable<StageResult["read"]>): Promise<StageResult> {
  if (stage === "detecting") return Promise.resolve({ regions: read.detect.regions });
  return saveRecognition(ctx, read.recognize);
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
    pageKind: job.tool === "tables" ? "document" : ((o.page_kind as JobPlan["pageKind"]) ?? "auto"),
    targetLanguage: o.target_language ?? null,
    formats: o.export_formats ?? [],
    baseName:
      (job.sourceName ?? "document")
        .replace(/\.[A-Za-z0-9]{1,5}$/, "")
        .replace(/[^\w.-]+/g, "_")
        .slice(0, 80) || "document",
    concurrency: planOf(await userPlan(db, job.userId)).concurrency,
  };
}
