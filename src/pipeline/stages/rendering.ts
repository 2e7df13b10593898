import { NonRetryableError } from "cloudflare:workflows";
import type { DB } from "../../db/client";
import type { RegionStyle } from "../../db/schema/types";
import { styleFrame } from "../../../workers/shared/engine-contract";
import { setVertically } from "../../../workers/shared/lettering";
import { pageIdOf } from "../../lib/ids";
import { keys } from "../../lib/storage";
import * as pagesRepo from "../../modules/projects/pages.repo";
import * as regions from "../../modules/projects/pages.repo";
import { engineCall } from "./engine-call";
import type { JobPlan, StageHandler, StageResult } from "./types";

/**
 * Draws the page: the `erase` tool's rendered page is the clean plate itself; the `translate` tool
 * typesets each region's translation (the user's where edited) into its box on the clean plate,
 * with the style found on the original or set by the user. Each region's `overflow` (fitted,
 * shrunk, overflowing) is stored; overflowing regions are also `text_overflow` warnings.
 */
export async function renderingStage(env: Env, db: DB, plan: JobPlan, page: number): Promise<StageResult> {
  if (!plan.projectId) return {};
  const pid = pageIdOf(plan.projectId, page);
  const row = await pagesRepo.findPage(db, pid);
  if (!row?.cleanKey) throw new NonRetryableError(`[conflict] Page ${page + 1} has no clean plate: its text was not removed.`);
  if (plan.tool !== "translate") {
    await pagesRepo.setPageFiles(db, pid, { renderKey: row.cleanKey });
    return {};
  }
  const rows = await regions.pageRegions(db, pid);
  const renderKey = keys.pageRender(plan.userId, plan.jobId, page);
  const out = await engineCall(() =>
    env.ENGINE.typeset({
      backgroundKey: row.cleanKey!,
      outKey: renderKey,
      regions: rows.map((r) => ({
        box: { x: r.x, y: r.y, w: r.w, h: r.h },
        text: r.userTranslation ?? r.translation ?? "",
        // Columns stay columns only in a language written in them; a balloon translated into
        // Japanese is lettered in columns as manga are.
        vertical: setVertically(plan.targetLanguage, r.vertical, styleFrame(r.style)),
        lines: (r.lines ?? []).map((l) => ({ x: l.x, y: l.y, w: l.w, h: l.h })),
        style: (r.style ?? null) as RegionStyle | null,
      })),
    }),
  );
  await pagesRepo.setPageFiles(db, pid, { renderKey });
  if (rows.length) {
    await regions.applyRegionChanges(db, plan.projectId, {
      updates: rows.map((r, i) => ({ id: r.id, patch: { overflow: out.regions[i]!.overflow } })),
    });
  }
  const warnings = rows
    .map((r, i) => ({ r, res: out.regions[i]! }))
    .filter((x) => x.res.overflow === "overflowing")
    .map(({ r, res }) => ({
      code: "text_overflow",
      message: `Page ${page + 1}: the translation of region ${r.id} does not fit its box even at ${res.fontSize} px.`,
    }));
  return { regions: rows.length, ...(warnings.length ? { warnings } : {}) };
}

/** The stage map's entry (src/pipeline/stages/index.ts). */
export const rendering: StageHandler = ({ env, db, plan, page }) => renderingStage(env, db, plan, page);
