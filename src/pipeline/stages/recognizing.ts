import type { PageTables, PageText, RecognizeResult } from "../../../workers/shared/engine-contract";
import { balloonsInCapitals } from "../../../workers/shared/lettering";
import { newId, pageIdOf } from "../../lib/ids";
import { keys } from "../../lib/storage";
import * as repo from "../../modules/jobs/jobs.repo";
import { engineCall } from "./engine-call";
import { savePageOutput } from "./page-output";
import type { StageContext, StageHandler, StageResult } from "./types";

async function readJson<T>(env: Env, key: string): Promise<T> {
  const obj = await env.FILES.get(key);
  if (!obj) throw new Error(`engine output ${key} is missing`);
  return obj.json<T>();
}

/** Stores a page's recognised regions (with lines, words, confidences) and, for the tables tool, its tables. */
async function savePage(
  ctx: StageContext,
  text: PageText,
  read: { languages?: string[]; path?: PageText["path"]; rotation?: number },
  tables?: PageTables,
) {
  const { db, plan, page } = ctx;
  if (!plan.projectId) return;
  const inCapitals = balloonsInCapitals(text.regions.map((reg) => (reg.frame ? reg.text : "")));
  await savePageOutput(
    db,
    plan.jobId,
    {
      projectId: plan.projectId,
      pageId: pageIdOf(plan.projectId, page),
      pageIndex: page,
      width: text.width,
      height: text.height,
      imageKey: keys.pageImage(plan.userId, plan.jobId, page),
      sourceKey: plan.sourceKey!,
      language: (read.languages?.length ? read.languages : plan.languages).join("+"),
      path: read.path ?? "ocr",
      rotation: read.rotation ?? 0,
    },
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
      vertical: reg.vertical ?? false,
      // A picture's region keeps its balloon's interior, where its translation is set in the lettering face.
      ...(reg.frame
        ? {
            style: {
              frame: reg.frame,
              font_family: "lettering",
              ...(inCapitals[i] ? { lettering: "caps" } : {}),
              ...(reg.angle ? { angle: reg.angle } : {}),
            },
          }
        : {}),
      lines: reg.lines.map((l) => ({
        ...l.box,
        text: l.text,
        confidence: l.confidence,
        words: l.words.map((w) => ({ ...w.box, text: w.text, confidence: w.confidence })),
      })),
    })),
    tables?.tables.map((t) => ({
      id: newId("tbl"),
      x: Math.round(t.box.x),
      y: Math.round(t.box.y),
      w: Math.round(t.box.w),
      h: Math.round(t.box.h),
      rows: t.rows,
      cols: t.cols,
      confidence: t.cells.length ? Math.round((t.cells.reduce((n, c) => n + c.confidence, 0) / t.cells.length) * 1000) / 1000 : null,
      cells: t.cells.map((c) => ({
        row: c.row,
        col: c.col,
        rowSpan: c.rowSpan,
        colSpan: c.colSpan,
        text: c.text,
        confidence: c.confidence,
      })),
    })),
  );
}

/** What the engine reads a page from: its normalised image, in the job's languages. */
const pageReading = (plan: StageContext["plan"], page: number) => ({
  pageKey: keys.pageImage(plan.userId, plan.jobId, page),
  languages: plan.languages,
});

/** Table extraction (tool `tables`): the page's tables and the text they were read from, in one engine call. */
async function recognizeTables(ctx: StageContext): Promise<StageResult> {
  const { env, plan, page } = ctx;
  const r = await engineCall(() =>
    env.ENGINE.extractTables({
      ...pageReading(plan, page),
      outKey: keys.pageTables(plan.userId, plan.jobId, page),
      textOutKey: keys.pageText(plan.userId, plan.jobId, page),
    }),
  );
  const [text, tables] = await Promise.all([readJson<PageText>(env, r.textKey!), readJson<PageTables>(env, r.key)]);
  await savePage(ctx, text, r, tables);
  return { regions: r.regions };
}

/**
 * OCR of the page; its regions (with lines, words, confidences) become the project's editable
 * regions. The `tables` tool reads the page's tables here as well (grid and cell text).
 */
export const recognizing: StageHandler = async (ctx) => {
  if (ctx.plan.tool === "tables") return recognizeTables(ctx);
  const { env, plan, page } = ctx;
  const r = await engineCall(() =>
    env.ENGINE.recognize({
      ...pageReading(plan, page),
      outKey: keys.pageText(plan.userId, plan.jobId, page),
    }),
  );
  return saveRecognition(ctx, r);
};

/** Stores a page's reading (from `recognize`, or from preprocessing of a text-layer page) as its project regions. */
export async function saveRecognition(ctx: StageContext, r: RecognizeResult): Promise<StageResult> {
  await savePage(ctx, await readJson<PageText>(ctx.env, r.key), r);
  // Pages with ink but no text fail in the engine; what reaches here empty is a blank page: said, not silent.
  const warnings = r.chars === 0 ? [{ code: "blank_page", message: `Page ${ctx.page + 1} is blank: no text was found on it.` }] : [];
  return { regions: r.regions, ...(warnings.length ? { warnings } : {}) };
}
