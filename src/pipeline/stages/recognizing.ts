import type { PageText } from "../../../workers/engine/contract";
import { newId, pageIdOf } from "../../lib/ids";
import { keys } from "../../lib/storage";
import * as repo from "../../modules/jobs/jobs.repo";
import { engineCall } from "./engine-call";
import type { StageHandler } from "./types";

/** OCR of the page; its regions (with lines, words, confidences) become the project's editable regions. */
export const recognizing: StageHandler = async ({ env, db, plan, page }) => {
  const pageKey = keys.pageImage(plan.userId, plan.jobId, page);
  const r = await engineCall(() => env.ENGINE.recognize({ pageKey, languages: plan.languages, outKey: keys.pageText(plan.userId, plan.jobId, page) }));
  const obj = await env.FILES.get(r.key);
  if (!obj) throw new Error(`recognition output ${r.key} is missing`);
  const text = await obj.json<PageText>();
  if (plan.projectId) {
    await repo.savePageRegions(
      db,
      { jobId: plan.jobId, projectId: plan.projectId, pageId: pageIdOf(plan.projectId, page), pageIndex: page, width: text.width, height: text.height, imageKey: pageKey, sourceKey: plan.sourceKey!, language: (r.languages ?? plan.languages).join("+"), path: r.path ?? "ocr", rotation: r.rotation ?? 0 },
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
  }
  return { regions: r.regions };
};
