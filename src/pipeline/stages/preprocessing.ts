import { keys } from "../../lib/storage";
import { TOOLS } from "../../modules/jobs/tools";
import { RECOGNIZED_BY_TEXT } from "./detecting";
import { engineCall } from "./engine-call";
import type { JobPlan, StageHandler } from "./types";

/** Exports that embed the page image, and stages that draw on it: jobs with neither do not wait for a text-layer page's drawing. */
const IMAGE_EXPORTS = new Set(["png", "jpg", "webp", "pdf", "searchable_pdf", "zip"]);
const IMAGE_STAGES = new Set<string>(["inpainting", "rendering"]);

/** Jobs whose text-layer pages are left as blank canvases, drawn once the job has finished (`STEP.draw`). */
export function drawsPagesLater(plan: JobPlan): boolean {
  const stages: readonly string[] = TOOLS[plan.tool].stages;
  return stages.includes("preprocessing") && !plan.formats.some((f) => IMAGE_EXPORTS.has(f)) && !stages.some((s) => IMAGE_STAGES.has(s));
}

/**
 * Decodes the page (image, PDF text layer, embedded scan or rasterised page) into the normalised page
 * image. For tools that read the page's text, a page read from its text layer also gets its layout
 * and text stored in the same engine call (`read`), so detection and recognition need no call of their own.
 */
export const preprocessing: StageHandler = async ({ env, plan, page }) => {
  const readOutKeys = RECOGNIZED_BY_TEXT.has(plan.tool)
    ? { layout: keys.pageLayout(plan.userId, plan.jobId, page), text: keys.pageText(plan.userId, plan.jobId, page) }
    : undefined;
  const r = await engineCall(() =>
    env.ENGINE.preprocess({
      sourceKey: plan.sourceKey!,
      page,
      outKey: keys.pageImage(plan.userId, plan.jobId, page),
      languages: plan.languages,
      ocrMode: plan.ocrMode,
      pageKind: plan.pageKind,
      pageImage: drawsPagesLater(plan) ? "background" : "now",
      readOutKeys,
    }),
  );
  return { path: r.path, ...(r.read ? { read: r.read } : {}), ...(r.warnings?.length ? { warnings: r.warnings } : {}) };
};
