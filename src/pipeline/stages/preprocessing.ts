import { keys } from "../../lib/storage";
import { engineCall } from "./engine-call";
import type { StageHandler } from "./types";

/** Decodes the page (image, PDF text layer, embedded scan or rasterised page) into the normalised page image. */
export const preprocessing: StageHandler = async ({ env, plan, page }) => {
  await engineCall(() => env.ENGINE.preprocess({ sourceKey: plan.sourceKey!, page, outKey: keys.pageImage(plan.userId, plan.jobId, page), languages: plan.languages, ocrMode: plan.ocrMode }));
  return {};
};
