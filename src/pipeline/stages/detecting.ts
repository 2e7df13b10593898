import { keys } from "../../lib/storage";
import { engineCall } from "./engine-call";
import type { StageHandler } from "./types";

/** Layout analysis: text blocks and lines of the normalised page. */
export const detecting: StageHandler = async ({ env, plan, page }) => {
  const r = await engineCall(() => env.ENGINE.detect({ pageKey: keys.pageImage(plan.userId, plan.jobId, page), outKey: keys.pageLayout(plan.userId, plan.jobId, page) }));
  return { regions: r.regions };
};
