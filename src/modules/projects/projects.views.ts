import type { z } from "@hono/zod-openapi";
import type { CellRow, PlacedRegion, TableRow } from "./pages.repo";
import type { ExportOut, FolderOut, ProjectOut, RegionOut, TableOut } from "./projects.schemas";
import type { ExportRow } from "../exports/exports.service";
import type { FolderRow, ProjectRow } from "./projects.repo";
import { iso } from "../../lib/time";

/** Trashed projects are deleted for good this long after they were trashed (scheduled purge). */
export const TRASH_RETENTION_DAYS = 30;
export const TRASH_RETENTION_MS = TRASH_RETENTION_DAYS * 24 * 60 * 60 * 1000;

export function toProjectOut(p: ProjectRow): z.infer<typeof ProjectOut> {
  return {
    id: p.id,
    name: p.name,
    tool: p.tool,
    status: p.status,
    folder_id: p.folderId,
    source_language: p.sourceLanguage,
    target_language: p.targetLanguage,
    page_count: p.pageCount,
    source_job_id: p.sourceJobId,
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
    trashed_at: iso(p.trashedAt),
    purge_at: p.trashedAt === null ? null : iso(p.trashedAt + TRASH_RETENTION_MS),
  };
}

export function toRegionOut(r: PlacedRegion): z.infer<typeof RegionOut> {
  return {
    id: r.id,
    page_id: r.pageId,
    page_index: r.pageIndex,
    order: r.readingOrder,
    kind: r.kind,
    box: { x: r.x, y: r.y, w: r.w, h: r.h },
    text: r.text,
    user_text: r.userText,
    source_language: r.sourceLanguage,
    translation: r.translation,
    user_translation: r.userTranslation,
    confidence: r.confidence,
    style: (r.style ?? null) as z.infer<typeof RegionOut>["style"],
    vertical: r.vertical,
    overflow: r.overflow,
    leftover_text: r.leftoverText,
    smear: r.smear,
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
  };
}

export function toTableOut(t: TableRow, pageIndex: number, cells: CellRow[]): z.infer<typeof TableOut> {
  return {
    id: t.id,
    page_id: t.pageId,
    page_index: pageIndex,
    box: { x: t.x, y: t.y, w: t.w, h: t.h },
    rows: t.rows,
    columns: t.cols,
    confidence: t.confidence,
    cells: cells.map((c) => ({
      row: c.row,
      column: c.col,
      row_span: c.rowSpan,
      column_span: c.colSpan,
      text: c.text,
      confidence: c.confidence,
      edited: c.editedAt !== null,
    })),
  };
}

export function toExportOut(e: ExportRow): z.infer<typeof ExportOut> {
  return {
    id: e.id,
    project_id: e.projectId,
    job_id: e.jobId,
    format: e.format,
    status: e.status,
    filename: e.filename,
    bytes: e.bytes,
    content_type: e.contentType,
    download: e.status === "ready" ? `/api/v1/exports/${e.id}/download` : null,
    created_at: iso(e.createdAt),
    completed_at: iso(e.completedAt),
  };
}

export function toFolderOut(f: FolderRow, projectCount: number): z.infer<typeof FolderOut> {
  return { id: f.id, name: f.name, project_count: projectCount, created_at: iso(f.createdAt), updated_at: iso(f.updatedAt) };
}
