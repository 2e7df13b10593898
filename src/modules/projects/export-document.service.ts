import type { BuiltExport, ExportDocument, ExportFormat } from "../../../workers/shared/engine-contract";
import type { DB } from "../../db/client";
import { keys } from "../../lib/storage";
import * as repo from "./pages.repo";

export interface DocumentExportRequest {
  userId: string;
  projectId: string;
  title: string;
  sourceLanguage?: string | null;
  targetLanguage?: string | null;
  formats: ExportFormat[];
  /** Text formats carry the (corrected) source or the (edited) translation. */
  content: "source" | "translation";
  /** Where the files go (a job's or a project export's prefix). */
  outPrefix: string;
  baseName: string;
  /** Only these pages (a job's succeeded pages); all ready pages when absent. */
  pageIndexes?: number[];
}

/**
 * A project as the export builders read it: ready pages with their image and rendered-page keys,
 * regions in reading order with the user's text and translation where edited, lines, and tables.
 */
export async function exportDocument(
  db: DB,
  req: Pick<DocumentExportRequest, "projectId" | "title" | "sourceLanguage" | "targetLanguage" | "pageIndexes">,
): Promise<ExportDocument> {
  const rows = await repo.documentRows(db, req.projectId, req.pageIndexes);
  return {
    title: req.title,
    sourceLanguage: req.sourceLanguage ?? null,
    targetLanguage: req.targetLanguage ?? null,
    pages: rows.pages.map((p) => {
      const rs = rows.regions.filter((r) => r.pageId === p.id);
      const conf = rs.filter((r) => r.confidence !== null);
      return {
        index: p.pageIndex,
        width: p.width,
        height: p.height,
        imageKey: p.imageKey,
        renderKey: p.renderKey,
        languages: p.detectedLanguage ? p.detectedLanguage.split("+") : [],
        confidence: conf.length ? conf.reduce((s, r) => s + r.confidence!, 0) / conf.length : null,
        regions: rs.map((r) => {
          // Edited text makes the recognised lines stale: the builders then lay the text out themselves.
          const edited = r.userText !== null && r.userText !== r.text;
          return {
            box: { x: r.x, y: r.y, w: r.w, h: r.h },
            text: r.userText ?? r.text,
            translation: r.userTranslation ?? r.translation,
            confidence: r.confidence,
            kind: r.kind,
            vertical: r.vertical,
            lines: edited
              ? []
              : (r.lines ?? []).map((l) => ({
                  box: { x: l.x, y: l.y, w: l.w, h: l.h },
                  text: l.text,
                  confidence: l.confidence ?? 1,
                  words: (l.words ?? []).map((w) => ({
                    box: { x: w.x, y: w.y, w: w.w, h: w.h },
                    text: w.text,
                    confidence: w.confidence ?? 1,
                  })),
                })),
          };
        }),
        tables: rows.tables
          .filter((t) => t.pageId === p.id)
          .map((t) => ({
            box: { x: t.x, y: t.y, w: t.w, h: t.h },
            rows: t.rows,
            cols: t.cols,
            cells: rows.cells
              .filter((c) => c.tableId === t.id)
              .map((c) => ({ row: c.row, col: c.col, rowSpan: c.rowSpan, colSpan: c.colSpan, text: c.text })),
          })),
      };
    }),
  };
}

/**
 * Builds export files of a project as it is now (edited regions, rendered pages, tables) through
 * the engine: the document is written to R2 beside the output, handed over by key, then deleted.
 * Used by the pipeline's exporting stage and by project exports; engine errors propagate as
 * `[code] message` for the caller to map.
 */
export async function buildDocumentExports(env: Env, db: DB, req: DocumentExportRequest): Promise<BuiltExport[]> {
  const doc = await exportDocument(db, req);
  const documentKey = keys.exportInput(req.outPrefix);
  await env.FILES.put(documentKey, JSON.stringify(doc), { httpMetadata: { contentType: "application/json" } });
  try {
    return await env.ENGINE.buildExports({
      documentKey,
      formats: req.formats,
      content: req.content,
      outPrefix: req.outPrefix,
      baseName: req.baseName,
    });
  } finally {
    await env.FILES.delete(documentKey);
  }
}
