import { keys } from "../../lib/storage";
import { engineCall } from "./engine-call";
import type { StageHandler } from "./types";

/** Tools whose recognizing stage reads the page with `recognize` (tables read it their own way). */
export const RECOGNIZED_BY_TEXT: ReadonlySet<string> = new Set(["ocr", "translate"]);

const count = (v: string | undefined) => {
  const n = Number.parseInt(v ?? "", 10);
  return Number.isFinite(n) && n >= 1 ? n : 0;
};

/**
 * Engine calls one page's reading may be divided into: the `PAGE_SPLIT` var (at least 1), and,
 * where engine calls share a fixed number of cores (`ENGINE_SLOTS`), no more than the slots left
 * to each of the document's `pagesInFlight`: with as many pages in flight as slots, pages already
 * keep every core busy and a band's own planning, decode and join would be spent for nothing.
 */
export function pageSplit(env: Env, pagesInFlight = 1): number {
  const most = Math.max(1, count(env.PAGE_SPLIT));
  const slots = count(env.ENGINE_SLOTS);
  return slots ? Math.max(1, Math.min(most, Math.floor(slots / Math.max(1, pagesInFlight)))) : most;
}

/**
 * Layout analysis: text blocks and lines of the normalised page. When `recognize` follows, the
 * engine reads the page here once (layout and text from one layout analysis) and keeps the reading.
 * A page with enough lines is read in bands (up to `pageSplit`), each by its own engine call, all
 * at once (on Workers each call has its own isolate; locally, its own engine process), then joined.
 */
export const detecting: StageHandler = async ({ env, plan, page, pagesInFlight }) => {
  const pageKey = keys.pageImage(plan.userId, plan.jobId, page);
  const outKey = keys.pageLayout(plan.userId, plan.jobId, page);
  if (!RECOGNIZED_BY_TEXT.has(plan.tool))
    return { regions: (await engineCall(() => env.ENGINE.detect({ pageKey, outKey, pictureLanguages: plan.languages }))).regions };
  const languages = plan.languages;
  const split = pageSplit(env, pagesInFlight);
  let r = await engineCall(() => env.ENGINE.detect({ pageKey, outKey, languages, ...(split > 1 ? { split } : {}) }));
  const bands = r.bands;
  if (bands) {
    const bandTexts = bands.map((_, i) => keys.pageBandText(plan.userId, plan.jobId, page, i));
    const read = r.languages ?? languages;
    await Promise.all(
      bands.map((band, i) => engineCall(() => env.ENGINE.recognize({ pageKey, languages: read, outKey: bandTexts[i]!, band }))),
    );
    r = await engineCall(() => env.ENGINE.detect({ pageKey, outKey, languages, bandTexts }));
  }
  return { regions: r.regions };
};
