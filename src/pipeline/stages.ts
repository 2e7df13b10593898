import { NonRetryableError } from "cloudflare:workflows";
import type { PageText } from "../../workers/engine/contract";
import type { DB } from "../db/client";
import { ERROR_CATALOGUE } from "../http/errors";
import { newId } from "../lib/ids";
import { keys } from "../lib/storage";
import { engineFailure } from "../modules/jobs/jobs.service";
import * as repo from "../modules/jobs/jobs.repo";
import type { JobStage, Tool } from "../modules/jobs/tools";

/** What the workflow carries between steps: small and serialisable (ARCHITECTURE §2). */
export interface JobPlan {
  jobId: string;
  userId: string;
  projectId: string;
  tool: Tool;
  pages: number;
  sourceKey: string;
  languages: string[];
  formats: string[];
  baseName: string;
}

export async function planJob(db: DB, jobId: string): Promise<JobPlan | null> {
  const job = await repo.getJob(db, jobId);
  if (!job || !job.sourceKey || !job.projectId) return null;
  const o = job.options;
  return {
    jobId,
    userId: job.userId,
    projectId: job.projectId,
    tool: job.tool,
    pages: job.pagesTotal,
    sourceKey: job.sourceKey,
    languages: (o.ocr_languages as string[] | undefined) ?? ["eng"],
    formats: o.export_formats ?? [],
    baseName: (job.sourceName ?? "document").replace(/\.[A-Za-z0-9]{1,5}$/, "").replace(/[^\w.-]+/g, "_").slice(0, 80) || "document",
  };
}

/**
 * Runs engine work inside a step: retryable failures are rethrown for the step's retries;
 * others become NonRetryableError carrying the `[code] message` so the page fails at once.
 */
async function engineCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    const e = engineFailure(err);
    const text = `[${e.code}] ${e.message}`;
    if (ERROR_CATALOGUE[e.code].retryable) throw new Error(text);
    throw new NonRetryableError(text);
  }
}

/** Stable page id per project and index, so a retried step updates the same row. */
function pageId(projectId: string, page: number): string {
  return `pg_${projectId.slice(4)}_${page}`;
}

/** One page through one stage. Outputs live in R2 under keys derived from the job and page. */
export async function runPageStage(env: Env, db: DB, plan: JobPlan, stage: JobStage, page: number): Promise<{ regions?: number }> {
  const pageKey = keys.pageImage(plan.userId, plan.jobId, page);
  switch (stage) {
    case "preprocessing":
      await engineCall(() => env.ENGINE.preprocess({ sourceKey: plan.sourceKey, page, outKey: pageKey }));
      return {};
    case "detecting": {
      const r = await engineCall(() => env.ENGINE.detect({ pageKey, outKey: keys.pageLayout(plan.userId, plan.jobId, page) }));
      return { regions: r.regions };
    }
    case "recognizing": {
      const r = await engineCall(() => env.ENGINE.recognize({ pageKey, languages: plan.languages, outKey: keys.pageText(plan.userId, plan.jobId, page) }));
      const obj = await env.FILES.get(r.key);
      if (!obj) throw new Error(`recognition output ${r.key} is missing`);
      const text = await obj.json<PageText>();
      await repo.savePageRegions(
        db,
        { projectId: plan.projectId, pageId: pageId(plan.projectId, page), pageIndex: page, width: text.width, height: text.height, imageKey: pageKey, sourceKey: plan.sourceKey, language: plan.languages.join("+") },
        text.regions.map((reg, i) => ({
          id: newId("rgn"),
          readingOrder: i,
          x: reg.box.x,
          y: reg.box.y,
          w: reg.box.w,
          h: reg.box.h,
          text: reg.text,
          sourceLanguage: plan.languages[0] ?? null,
          confidence: reg.confidence,
          lines: reg.lines.map((l) => ({ ...l.box, text: l.text, confidence: l.confidence, words: l.words.map((w) => ({ ...w.box, text: w.text, confidence: w.confidence })) })),
        })),
      );
      return { regions: r.regions };
    }
    default:
      throw new NonRetryableError(`[stage_unavailable] The ${stage} stage is not available in this version of the service.`);
  }
}

/** Builds the job's export files from the pages that succeeded and records them. */
export async function runExports(env: Env, db: DB, plan: JobPlan, okPages: number[]): Promise<number> {
  const built = await engineCall(() =>
    env.ENGINE.buildExports({
      pageTextKeys: okPages.map((p) => keys.pageText(plan.userId, plan.jobId, p)),
      formats: plan.formats as ("txt" | "json")[],
      outPrefix: keys.exportPrefix(plan.userId, plan.jobId),
      baseName: plan.baseName,
    }),
  );
  const now = Date.now();
  await repo.insertExports(
    db,
    built.map((b) => ({
      id: `exp_${plan.jobId.slice(4)}_${b.format}`,
      userId: plan.userId,
      projectId: plan.projectId,
      jobId: plan.jobId,
      format: b.format,
      status: "ready" as const,
      key: b.key,
      filename: `${plan.baseName}.${b.format}`,
      bytes: b.bytes,
      contentType: b.contentType,
      createdAt: now,
      completedAt: now,
    })),
  );
  return built.length;
}
