import { keys } from "../../lib/storage";
import { TOOLS } from "../../modules/jobs/tools";
import { engineCall } from "./engine-call";
import type { StageHandler } from "./types";

/** Exports that embed the page image, and stages that draw on it: jobs with neither do not wait for a text-layer page's drawing. */
const IMAGE_EXPORTS = new Set(["png", "jpg", "webp", "pdf", "searchable_pdf", "zip"]);
const IMAGE_STAGES = new Set<string>(["inpainting", "rendering"]);

/** Decodes the page (image, PDF text layer, embedded scan or rasterised page) into the normalised page image. */
export const preprocessing: StageHandler = async ({ env, plan, page }) => {
  const needsImage = plan.formats.some((f) => IMAGE_EXPORTS.has(f)) || TOOLS[plan.tool].stages.some((s) => IMAGE_STAGES.has(s));
  await engineCall(() =>
    env.ENGINE.preprocess({
      sourceKey: plan.sourceKey!,
      page,
      outKey: keys.pageImage(plan.userId, plan.jobId, page),
      languages: plan.languages,
      ocrMode: plan.ocrMode,
      pageImage: needsImage ? "now" : "background",
    }),
  );
  return {};
};
