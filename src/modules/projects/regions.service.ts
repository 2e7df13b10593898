import type { z } from "@hono/zod-openapi";
import type { DB } from "../../db/client";
import type { RegionLine } from "../../db/schema/types";
import type { AuthContext } from "../../env";
import { ApiError } from "../../http/errors";
import { newId } from "../../lib/ids";
import { ocrCodeFor } from "../../lib/languages";
import { engineFailure } from "../jobs/engine-failure";
import { editableProject, writeProjectContent } from "./project-access";
import { toRegionOut, toTableOut } from "./projects.views";
import { type Box, type Span, lineBoxes, lineSpans, linesWithin, offsetAtPoint, spanBox, trimSpan, unionBox } from "./region-geometry";
import * as repo from "./pages.repo";
import type { PageRow } from "./pages.repo";
import { rememberTranslation } from "../translation/translation.service";
import type { RegionCreate, RegionMergeRequest, RegionSplitRequest, RegionUpdate, ReocrRequest, TableCellUpdates } from "./regions.schemas";

type RegionOutT = ReturnType<typeof toRegionOut>;

function invalid(field: string, message: string, details: Record<string, unknown> = {}): ApiError {
  return new ApiError("validation_error", message, { details: { fields: [{ location: "json", field, message }], ...details } });
}

/** A box must lie inside its page (when the page's size is known). */
function checkBox(box: Box, page: PageRow, field = "box"): void {
  if (page.width > 0 && page.height > 0 && (box.x + box.w > page.width || box.y + box.h > page.height)) {
    throw invalid(field, `The box ${box.x},${box.y} ${box.w}×${box.h} does not fit the page (${page.width}×${page.height}).`, {
      page: { width: page.width, height: page.height },
    });
  }
}

/** Reading orders 0…n-1 after moving (or inserting) `id` to `position`; only changed rows are returned. */
function renumber(ordered: { id: string; readingOrder: number }[], id: string, position?: number) {
  const ids = ordered.map((r) => r.id).filter((x) => x !== id);
  if (position !== undefined) ids.splice(Math.min(position, ids.length), 0, id);
  const before = new Map(ordered.map((r) => [r.id, r.readingOrder]));
  return ids.map((rid, i) => ({ id: rid, order: i })).filter((r) => before.get(r.id) !== r.order);
}

/** Writes a user's region edit through the projects' edit guard (409 while the project is processing or trashed). */
export async function editRegions(db: DB, auth: AuthContext, projectId: string, ch: repo.RegionChanges): Promise<void> {
  await writeProjectContent(db, auth.userId, projectId, repo.regionChangeStatements(db, projectId, ch));
}

async function placed(db: DB, projectId: string, regionId: string): Promise<repo.PlacedRegion> {
  const region = await repo.findRegion(db, projectId, regionId);
  if (!region) throw new ApiError("not_found", `No region ${regionId} in project ${projectId}.`);
  return region;
}

/** The caller's editable project and one of its regions (404 when either is not found). */
async function editableRegion(db: DB, userId: string, projectId: string, regionId: string) {
  const project = await editableProject(db, userId, projectId);
  return { project, region: await placed(db, project.id, regionId) };
}

/** Every region of a project, by page and reading order. */
export async function regionsOf(db: DB, projectId: string): Promise<RegionOutT[]> {
  return (await repo.regionsOfProject(db, projectId)).map(toRegionOut);
}

/** Every table of a project with its cells. */
export async function tablesOf(db: DB, projectId: string) {
  const rows = await repo.tablesOfProject(db, projectId);
  const cells = await repo.cellsOfTables(
    db,
    rows.map((r) => r.table.id),
  );
  return rows.map((r) =>
    toTableOut(
      r.table,
      r.pageIndex,
      cells.filter((c) => c.tableId === r.table.id),
    ),
  );
}

/**
 * Adds a region the recogniser missed. The text typed is the user's (`user_text`; the recognised
 * `text` stays empty), likewise the translation (`user_translation`).
 */
export async function createRegion(db: DB, auth: AuthContext, projectId: string, body: z.infer<typeof RegionCreate>): Promise<RegionOutT> {
  const project = await editableProject(db, auth.userId, projectId);
  if ((body.page_id === undefined) === (body.page_index === undefined))
    throw invalid("page_id", "Send exactly one of page_id and page_index.");
  const page = await repo.findProjectPage(db, project.id, { pageId: body.page_id, pageIndex: body.page_index });
  if (!page) throw new ApiError("not_found", `No page ${body.page_id ?? `with index ${body.page_index}`} in project ${projectId}.`);
  checkBox(body.box, page);
  const siblings = await repo.pageRegions(db, page.id);
  const id = newId("rgn");
  const position = body.order ?? siblings.length;
  const shifts = renumber([...siblings, { id, readingOrder: -1 }], id, position).filter((r) => r.id !== id);
  await editRegions(db, auth, project.id, {
    updates: shifts.map((s) => ({ id: s.id, patch: { readingOrder: s.order } })),
    inserts: [
      {
        id,
        pageId: page.id,
        readingOrder: Math.min(position, siblings.length),
        kind: body.kind,
        ...body.box,
        text: "",
        userText: body.text === "" ? null : body.text,
        sourceLanguage: project.sourceLanguage,
        userTranslation: body.translation ?? null,
        style: body.style ?? null,
        vertical: body.vertical,
      },
    ],
  });
  return toRegionOut((await repo.findRegion(db, project.id, id))!);
}

/**
 * Edits a region. Text edits go to `user_text` and translation edits to `user_translation`, so the
 * recognised text and the machine translation stay as they were (null clears the user's version).
 */
export async function updateRegion(
  db: DB,
  auth: AuthContext,
  projectId: string,
  regionId: string,
  body: z.infer<typeof RegionUpdate>,
): Promise<RegionOutT> {
  const { project, region } = await editableRegion(db, auth.userId, projectId, regionId);
  const patch: Partial<repo.NewRegion> = {};
  if (body.text !== undefined) patch.userText = body.text;
  if (body.translation !== undefined) patch.userTranslation = body.translation;
  if (body.kind !== undefined) patch.kind = body.kind;
  if (body.vertical !== undefined) patch.vertical = body.vertical;
  if (body.style !== undefined) patch.style = body.style;
  if (body.box !== undefined) {
    const page = await repo.findProjectPage(db, project.id, { pageId: region.pageId });
    checkBox(body.box, page!);
    Object.assign(patch, body.box);
  }
  // A changed text, translation, box or style invalidates the last typesetting result.
  if (body.text !== undefined || body.translation !== undefined || body.box !== undefined || body.style !== undefined)
    patch.overflow = null;
  const shifts = body.order === undefined ? [] : renumber(await repo.pageRegions(db, region.pageId), region.id, body.order);
  const own = shifts.find((s) => s.id === region.id);
  if (own) patch.readingOrder = own.order;
  await editRegions(db, auth, project.id, {
    updates: [
      { id: region.id, patch },
      ...shifts.filter((s) => s.id !== region.id).map((s) => ({ id: s.id, patch: { readingOrder: s.order } })),
    ],
  });
  const updated = (await repo.findRegion(db, project.id, region.id))!;
  if (body.translation) await remember(db, auth.userId, updated, project.sourceLanguage, project.targetLanguage);
  return toRegionOut(updated);
}

/** A translation the user wrote teaches the translation memory (source text → their translation). */
async function remember(db: DB, userId: string, r: repo.RegionRow, projectSource: string | null, target: string | null): Promise<void> {
  const source = r.sourceLanguage ?? projectSource;
  const text = r.userText ?? r.text;
  if (!source || source === "auto" || !target || !/\S/.test(text) || !r.userTranslation) return;
  try {
    await rememberTranslation(db, userId, source, target, text, r.userTranslation);
  } catch (err) {
    // A language code the memory does not know cannot be remembered; the edit itself stands.
    if (!(err instanceof ApiError && err.code === "validation_error")) throw err;
  }
}

export async function deleteRegion(db: DB, auth: AuthContext, projectId: string, regionId: string): Promise<void> {
  const { project, region } = await editableRegion(db, auth.userId, projectId, regionId);
  const shifts = renumber(await repo.pageRegions(db, region.pageId), region.id);
  await editRegions(db, auth, project.id, {
    deletes: [region.id],
    updates: shifts.map((s) => ({ id: s.id, patch: { readingOrder: s.order } })),
  });
}

function joinTexts(parts: (string | null)[], sep: string): string {
  return parts.filter((p): p is string => p !== null && p !== "").join(sep);
}

/**
 * Merges regions of one page into the first in reading order: the boxes are united and each text
 * (recognised, corrected, machine and user translation) is joined in reading order.
 */
export async function mergeRegions(
  db: DB,
  auth: AuthContext,
  projectId: string,
  body: z.infer<typeof RegionMergeRequest>,
): Promise<RegionOutT> {
  const project = await editableProject(db, auth.userId, projectId);
  if (new Set(body.region_ids).size !== body.region_ids.length) throw invalid("region_ids", "region_ids must not repeat.");
  const found = await repo.findRegions(db, project.id, body.region_ids);
  const missing = body.region_ids.filter((id) => !found.some((r) => r.id === id));
  if (missing.length) throw new ApiError("not_found", `No region ${missing.join(", ")} in project ${projectId}.`, { details: { missing } });
  const pageIds = [...new Set(found.map((r) => r.pageId))];
  if (pageIds.length > 1) {
    throw invalid("region_ids", "Only regions of the same page can be merged.", {
      pages: [...new Set(found.map((r) => r.pageIndex))].sort((a, b) => a - b),
    });
  }
  const rs = [...found].sort((a, b) => a.readingOrder - b.readingOrder || a.id.localeCompare(b.id));
  const [keep, ...rest] = rs as [repo.PlacedRegion, ...repo.PlacedRegion[]];
  const sep = body.separator;
  const weighted = rs.filter((r) => r.confidence !== null);
  const weight = (r: repo.PlacedRegion) => Math.max(1, (r.userText ?? r.text).length);
  const lines = rs.flatMap((r) => r.lines ?? []);
  const patch: Partial<repo.NewRegion> = {
    ...unionBox(rs),
    text: joinTexts(
      rs.map((r) => r.text),
      sep,
    ),
    userText: rs.some((r) => r.userText !== null)
      ? joinTexts(
          rs.map((r) => r.userText ?? r.text),
          sep,
        )
      : null,
    translation: rs.some((r) => r.translation !== null)
      ? joinTexts(
          rs.map((r) => r.translation),
          sep,
        )
      : null,
    userTranslation: rs.some((r) => r.userTranslation !== null)
      ? joinTexts(
          rs.map((r) => r.userTranslation ?? r.translation),
          sep,
        )
      : null,
    confidence: weighted.length
      ? weighted.reduce((s, r) => s + r.confidence! * weight(r), 0) / weighted.reduce((s, r) => s + weight(r), 0)
      : null,
    lines: lines.length ? lines : null,
    leftoverText: rs.some((r) => r.leftoverText),
    smear: rs.some((r) => r.smear),
    overflow: null,
  };
  const others = new Set(rest.map((r) => r.id));
  const remaining = (await repo.pageRegions(db, keep.pageId)).filter((r) => !others.has(r.id));
  const shifts = renumber(remaining, "", undefined);
  const own = shifts.find((s) => s.id === keep.id);
  if (own) patch.readingOrder = own.order;
  await editRegions(db, auth, project.id, {
    deletes: [...others],
    updates: [
      { id: keep.id, patch },
      ...shifts.filter((s) => s.id !== keep.id).map((s) => ({ id: s.id, patch: { readingOrder: s.order } })),
    ],
  });
  return toRegionOut((await repo.findRegion(db, project.id, keep.id))!);
}

/** The character ranges a split request cuts the text into (each non-empty), or a 422 saying why not. */
function splitSpans(
  text: string,
  req: z.infer<typeof RegionSplitRequest>,
  spans: Span[],
  boxes: Box[],
  vertical: boolean,
  box: Box,
): Span[] {
  if (req.mode === "lines") {
    const parts = spans.map((s) => trimSpan(text, s)).filter((s): s is Span => s !== null);
    if (parts.length < 2) throw invalid("mode", "The region has a single line of text; split it at an offset or a point instead.");
    return parts;
  }
  let offset: number;
  if (req.mode === "offset") {
    offset = req.offset;
    if (offset >= text.length)
      throw invalid(
        "offset",
        `The offset must be between 1 and ${Math.max(1, text.length - 1)} (the text has ${text.length} characters).`,
        { length: text.length },
      );
  } else {
    if (req.x < box.x || req.x > box.x + box.w || req.y < box.y || req.y > box.y + box.h) {
      throw invalid("x", `The point ${req.x},${req.y} is outside the region's box.`, { box });
    }
    offset = offsetAtPoint(req.x, req.y, spans, boxes, vertical);
  }
  const a = trimSpan(text, { start: 0, end: offset });
  const b = trimSpan(text, { start: offset, end: text.length });
  if (!a || !b)
    throw invalid(req.mode === "offset" ? "offset" : "x", "The cut would leave an empty region; cut inside the text.", {
      offset,
      length: text.length,
    });
  return [a, b];
}

/**
 * Splits a region by line, at a character offset or at a point. The text that is split is the
 * user's corrected text when there is one (else the recognised text); boxes are divided along the
 * lines the pieces cover. When the corrected text is split, each piece's recognised text is made of
 * the recognised words inside its box. Translations do not split meaningfully: the pieces have
 * none (retranslate them). The first piece keeps the region's id.
 */
export async function splitRegion(
  db: DB,
  auth: AuthContext,
  projectId: string,
  regionId: string,
  req: z.infer<typeof RegionSplitRequest>,
): Promise<RegionOutT[]> {
  const { project, region } = await editableRegion(db, auth.userId, projectId, regionId);
  const corrected = region.userText !== null;
  const text = region.userText ?? region.text;
  const spans = lineSpans(text);
  const boxes = lineBoxes(region, region.lines, spans.length, region.vertical);
  const pieces = splitSpans(text, req, spans, boxes, region.vertical, region).map((s) => {
    const box = spanBox(s, spans, boxes, region.vertical);
    const lines: RegionLine[] = region.lines ? linesWithin(region.lines, box) : [];
    const piece = text.slice(s.start, s.end);
    return {
      box,
      lines: lines.length ? lines : null,
      text: corrected ? lines.map((l) => l.text).join("\n") : piece,
      userText: corrected ? piece : null,
    };
  });
  const ids = [region.id, ...pieces.slice(1).map(() => newId("rgn"))];
  const siblings = await repo.pageRegions(db, region.pageId);
  const at = siblings.findIndex((r) => r.id === region.id);
  const orderIds = [...siblings.slice(0, at + 1).map((r) => r.id), ...ids.slice(1), ...siblings.slice(at + 1).map((r) => r.id)];
  const orderOf = new Map(orderIds.map((id, i) => [id, i]));
  const common = { translation: null, userTranslation: null, overflow: null, leftoverText: false, smear: false } as const;
  await editRegions(db, auth, project.id, {
    updates: [
      {
        id: region.id,
        patch: {
          ...pieces[0]!.box,
          text: pieces[0]!.text,
          userText: pieces[0]!.userText,
          lines: pieces[0]!.lines,
          readingOrder: orderOf.get(region.id)!,
          ...common,
        },
      },
      ...siblings
        .filter((r) => r.id !== region.id && orderOf.get(r.id) !== r.readingOrder)
        .map((r) => ({ id: r.id, patch: { readingOrder: orderOf.get(r.id)! } })),
    ],
    inserts: pieces.slice(1).map((p, i) => ({
      id: ids[i + 1]!,
      pageId: region.pageId,
      readingOrder: orderOf.get(ids[i + 1]!)!,
      kind: region.kind,
      ...p.box,
      text: p.text,
      userText: p.userText,
      lines: p.lines,
      sourceLanguage: region.sourceLanguage,
      confidence: region.confidence,
      style: region.style,
      vertical: region.vertical,
      ...common,
    })),
  });
  const after = await repo.findRegions(db, project.id, ids);
  return ids.map((id) => toRegionOut(after.find((r) => r.id === id)!));
}

/**
 * Recognises a rectangle of the region's page again, from the original upload at full resolution
 * (the engine maps the box through the page's recorded transform). The result becomes the
 * region's recognised text, lines and confidence; the user's correction is cleared so the new
 * reading shows (the translation is kept until it is retranslated). Free: no credits move.
 */
export async function reocrRegion(
  env: Env,
  db: DB,
  auth: AuthContext,
  projectId: string,
  regionId: string,
  req: z.infer<typeof ReocrRequest>,
): Promise<RegionOutT> {
  const { project, region } = await editableRegion(db, auth.userId, projectId, regionId);
  const page = (await repo.findProjectPage(db, project.id, { pageId: region.pageId }))!;
  if (!page.sourceKey) throw new ApiError("conflict", `The original of page ${page.pageIndex + 1} is not stored; it cannot be read again.`);
  const box = req.box ?? { x: region.x, y: region.y, w: region.w, h: region.h };
  checkBox(box, page);
  const asked = req.languages ?? page.detectedLanguage?.split("+") ?? (region.sourceLanguage ? [region.sourceLanguage] : ["eng"]);
  const languages = asked.map((code) => {
    const ocr = ocrCodeFor(code);
    if (!ocr)
      throw new ApiError("unsupported_language", `No OCR model is installed for language "${code}".`, { details: { language: code } });
    return ocr;
  });
  const result = await env.ENGINE.reocr({
    sourceKey: page.sourceKey,
    page: page.pageIndex,
    box,
    languages,
    pageKey: page.imageKey ?? undefined,
  }).catch((err: unknown) => {
    throw engineFailure(err);
  });
  const lines: RegionLine[] = result.lines.map((l) => ({
    ...l.box,
    text: l.text,
    confidence: l.confidence,
    words: l.words.map((w) => ({ ...w.box, text: w.text, confidence: w.confidence })),
  }));
  await editRegions(db, auth, project.id, {
    updates: [
      {
        id: region.id,
        patch: {
          ...box,
          text: result.text,
          userText: null,
          confidence: result.confidence,
          lines: lines.length ? lines : null,
          sourceLanguage: result.languages[0] ?? region.sourceLanguage,
          overflow: null,
        },
      },
    ],
  });
  return toRegionOut((await repo.findRegion(db, project.id, region.id))!);
}

/**
 * Writes table cells. Every coordinate is checked first: any outside the grid, inside a merged
 * cell (write its top-left cell instead) or repeated makes the whole request a 422 listing them,
 * and nothing is written.
 */
export async function updateCells(
  db: DB,
  auth: AuthContext,
  projectId: string,
  tableId: string,
  updates: z.infer<typeof TableCellUpdates>,
) {
  const project = await editableProject(db, auth.userId, projectId);
  const table = await repo.findTable(db, project.id, tableId);
  if (!table) throw new ApiError("not_found", `No table ${tableId} in project ${projectId}.`);
  const cells = await repo.cellsOfTables(db, [table.id]);
  const stored = new Map(cells.map((c) => [`${c.row},${c.col}`, c]));
  const coveredBy = new Map<string, string>();
  for (const c of cells) {
    for (let r = c.row; r < c.row + c.rowSpan; r++) {
      for (let k = c.col; k < c.col + c.colSpan; k++) if (r !== c.row || k !== c.col) coveredBy.set(`${r},${k}`, `${c.row},${c.col}`);
    }
  }
  const seen = new Set<string>();
  const bad: { index: number; row: number; column: number; reason: string }[] = [];
  updates.forEach((u, index) => {
    const key = `${u.row},${u.column}`;
    let reason: string | null = null;
    if (u.row < 0 || u.row >= table.rows || u.column < 0 || u.column >= table.cols)
      reason = `outside the ${table.rows}×${table.cols} table`;
    else if (coveredBy.has(key)) reason = `inside the merged cell at ${coveredBy.get(key)}`;
    else if (seen.has(key)) reason = "repeated in this request";
    seen.add(key);
    if (reason) bad.push({ index, row: u.row, column: u.column, reason });
  });
  if (bad.length) {
    throw new ApiError(
      "validation_error",
      `${bad.length} cell${bad.length === 1 ? "" : "s"} cannot be written: ${bad.map((b) => `(${b.row},${b.column}) ${b.reason}`).join("; ")}. Nothing was changed.`,
      {
        details: {
          invalid: bad,
          rows: table.rows,
          columns: table.cols,
          fields: bad.map((b) => ({ location: "json", field: `${b.index}`, message: `(${b.row},${b.column}) ${b.reason}` })),
        },
      },
    );
  }
  const changed = updates.filter((u) => stored.get(`${u.row},${u.column}`)?.text !== u.text || !stored.has(`${u.row},${u.column}`));
  if (changed.length)
    await writeProjectContent(
      db,
      auth.userId,
      project.id,
      repo.cellWriteStatements(
        db,
        project.id,
        table.id,
        changed.map((u) => ({ row: u.row, col: u.column, text: u.text })),
      ),
    );
  return { updated: changed.length, unchanged: updates.length - changed.length, received: updates.length };
}
