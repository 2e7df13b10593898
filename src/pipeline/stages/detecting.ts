import { keys } from "../../lib/storage";
import { engineCall } from "./engine-call";
import type { StageHandler } from "./types";

/** Tools whose recognizing stage reads the page with `recognize` (tables read it their own way). */
export const RECOGNIZED_BY_TEXT: ReadonlySet<string> = new Set(["ocr", "translate"]);

/**
 * Layout analysis: text blocks and lines of the normalised page. When `recognize` follows, the
 * engine reads the page here once (layout and text from one layout analysis) and keeps the reading.
 */
export const detecting: StageHandler = async ({ env, plan, page }) => {
  const languages = RECOGNIZED_BY_TEXT.has(plan.tool) ? { languages: plan.languages } : {};
  const r = await engineCall(() =>
    env.ENGINE.detect({
      pageKey: keys.pageImage(plan.userId, plan.jobId, page),
      outKey: keys.pageLayout(plan.userId, plan.jobId, page),
      ...languages,
    }),
  );
  return { regions: r.regions };
};
