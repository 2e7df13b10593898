import { NonRetryableError } from "cloudflare:workflows";
import { styleFrame, type InpaintRegion, type PageLayout } from "../../../workers/shared/engine-contract";
import type { DB } from "../../db/client";
import type { RegionStyle } from "../../db/schema/types";
import { newId, pageIdOf } from "../../lib/ids";
import { keys } from "../../lib/storage";
import * as pagesRepo from "../../modules/projects/pages.repo";
import * as jobs from "../../modules/jobs/jobs.repo";
import * as regions from "../../modules/projects/pages.repo";
import { engineCall } from "./engine-call";
import { savePageOutput } from "./page-output";
import type { JobPlan, StageHandler, StageResult } from "./types";

/**
 * The `erase` tool does not recognise text: its regions are the detected text blocks, saved here
 * (without text) so that the leftover-text flag and the editor have regions to show.
 */
async function regionsFromLayout(env: Env, db: DB, plan: JobPlan, page: number) {
  const obj = await env.FILES.get(keys.pageLayout(plan.userId, plan.jobId, page));
  if (!obj) throw new Error(`layout of page ${page} is missing`);
  const layout = await obj.json<PageLayout>();
  await savePageOutput(
    db,
    plan.jobId,
    {
      projectId: plan.projectId!,
      pageId: pageIdOf(plan.projectId!, page),
      pageIndex: page,
      width: layout.width,
      height: layout.height,
      imageKey: keys.pageImage(plan.userId, plan.jobId, page),
      sourceKey: plan.sourceKey!,
      language: plan.languages.join("+"),
      path: layout.path,
    },
    layout.blocks.map((b, i) => ({
      id: newId("rgn"),
      readingOrder: i,
      x: Math.round(b.box.x),
      y: Math.round(b.box.y),
      w: Math.round(b.box.w),
      h: Math.round(b.box.h),
      text: "",
      vertical: b.vertical,
      lines: b.items.map((l) => ({ ...l.box, text: "", words: l.words.map((w) => ({ ...w, text: "" })) })),
    })),
  );
}

/**
 * Removes the page's text: the engine masks each region's glyph pixels, fills them from the
 * surrounding background into a clean plate, and reads every cleaned region again. Regions where
 * source text is still readable get `leftover_text` and a `leftover_text` warning in the job's
 * timeline, regions whose fill differs strongly from the background around it (a visible smear)
 * get `smear` and a `smear` warning; the style of the original text (colour, weight, alignment, size) is kept on each
 * region for typesetting, without overriding what the user set. A retried step rewrites the same keys and rows.
 */
export async function inpaintingStage(env: Env, db: DB, plan: JobPlan, page: number): Promise<StageResult> {
  if (!plan.projectId) return {};
  const pid = pageIdOf(plan.projectId, page);
  // A re-render works from the regions as stored and edited; only a first run of `erase` makes them.
  if (plan.tool === "erase" && plan.kind !== "rerender") await regionsFromLayout(env, db, plan, page);
  const pageRow = await pagesRepo.findPage(db, pid);
  if (!pageRow?.imageKey) throw new NonRetryableError(`[conflict] Page ${page + 1} has no page image to remove text from.`);
  const rows = await regions.pageRegions(db, pid);
  const input: InpaintRegion[] = rows.map((r) => ({
    box: { x: r.x, y: r.y, w: r.w, h: r.h },
    lines: (r.lines ?? []).map((l) => ({ x: l.x, y: l.y, w: l.w, h: l.h })),
    vertical: r.vertical,
    frame: styleFrame(r.style),
    words: (r.lines ?? []).flatMap((l) =>
      (l.words ?? []).flatMap((w) =>
        w.confidence === undefined ? [] : [{ box: { x: w.x, y: w.y, w: w.w, h: w.h }, text: w.text, confidence: w.confidence }],
      ),
    ),
  }));
  const maskKey = keys.pageMask(plan.userId, plan.jobId, page);
  const cleanKey = keys.pageClean(plan.userId, plan.jobId, page);
  // The leftover check reads in the language recognition settled on for the page (not `auto`).
  const detected = pageRow.detectedLanguage?.split("+").filter((l) => l !== "auto");
  const languages = detected?.length ? detected : plan.languages;
  const out = await engineCall(() =>
    env.ENGINE.inpaint({
      pageKey: pageRow.imageKey!,
      sourceKey: pageRow.sourceKey ?? undefined,
      page,
      regions: input,
      maskKey,
      cleanKey,
      languages,
    }),
  );
  await pagesRepo.setPageFiles(db, pid, { maskKey, cleanKey });
  if (rows.length) {
    await regions.applyRegionChanges(db, plan.projectId, {
      updates: rows.map((r, i) => {
        const found = out.regions[i]!;
        const style: RegionStyle = { ...(found.style as RegionStyle), ...(r.style ?? {}) };
        return { id: r.id, patch: { leftoverText: found.leftover, smear: found.smear, style } };
      }),
    });
  }
  const results = rows.map((r, i) => ({ r, found: out.regions[i]! }));
  const warnings = [
    ...results
      .filter((x) => x.found.leftover)
      .map(({ r, found }) => ({
        code: "leftover_text",
        message: `Page ${page + 1}: source text may remain in region ${r.id} after text removal (read again: "${found.leftoverText.slice(0, 80)}").`,
      })),
    ...results
      .filter((x) => x.found.smear)
      .map(({ r, found }) => ({
        code: "smear",
        message: `Page ${page + 1}: the fill of region ${r.id} differs from the background around it (${Math.round(found.smearShare * 100)} % of its filled pixels); check the clean plate there.`,
      })),
  ];
  return { regions: rows.length, ...(warnings.length ? { warnings } : {}) };
}

/** The stage map's entry (src/pipeline/stages/index.ts). */
export const inpainting: StageHandler = ({ env, db, plan, page }) => inpaintingStage(env, db, plan, page);
