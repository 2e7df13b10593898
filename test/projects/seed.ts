import { env } from "cloudflare:workers";
import { newId } from "../../src/lib/ids";
import { keys } from "../../src/lib/storage";
import { api, body } from "../helpers/api";

export interface SeedRegion {
  text: string;
  box?: { x: number; y: number; w: number; h: number };
  translation?: string | null;
  lines?: {
    x: number;
    y: number;
    w: number;
    h: number;
    text: string;
    words?: { x: number; y: number; w: number; h: number; text: string }[];
  }[];
  confidence?: number;
}

export interface SeedProject {
  name?: string;
  tool?: "ocr" | "translate" | "tables" | "erase";
  status?: "processing" | "ready" | "partial" | "failed";
  folderId?: string | null;
  targetLanguage?: string | null;
  createdAt?: number;
  updatedAt?: number;
  trashedAt?: number | null;
  pages?: { width?: number; height?: number; regions?: SeedRegion[] }[];
  table?: {
    page: number;
    rows: number;
    cols: number;
    cells: { row: number; col: number; text: string; rowSpan?: number; colSpan?: number }[];
  };
  /** Also write a ready txt export file. */
  export?: boolean;
}

/**
 * Inserts a project with pages, regions, an optional table and export straight into D1, with its
 * page image, source and export files in R2 (under the keys a job would use), for fast tests.
 */
export async function seedProject(userId: string, p: SeedProject = {}) {
  const projectId = newId("prj");
  const jobKey = newId("job");
  const now = Date.now();
  const created = p.createdAt ?? now;
  const pages = p.pages ?? [{ regions: [{ text: "Hello world" }] }];
  const stmts: D1PreparedStatement[] = [
    env.DB.prepare(
      "INSERT INTO projects (id, user_id, folder_id, name, tool, status, source_language, target_language, page_count, created_at, updated_at, trashed_at) VALUES (?, ?, ?, ?, ?, ?, 'eng', ?, ?, ?, ?, ?)",
    ).bind(
      projectId,
      userId,
      p.folderId ?? null,
      p.name ?? "Seeded",
      p.tool ?? "ocr",
      p.status ?? "ready",
      p.targetLanguage ?? null,
      pages.length,
      created,
      p.updatedAt ?? created,
      p.trashedAt ?? null,
    ),
  ];
  const files: Record<string, string> = {};
  const sourceKey = keys.upload(userId, jobKey);
  files[sourceKey] = `source of ${projectId}`;
  const pageIds: string[] = [];
  const regionIds: string[][] = [];
  pages.forEach((pg, i) => {
    const pageId = `pg_${projectId.slice(4)}_${i}`;
    pageIds.push(pageId);
    const imageKey = keys.pageImage(userId, jobKey, i);
    files[imageKey] = `image ${i} of ${projectId}`;
    stmts.push(
      env.DB.prepare(
        "INSERT INTO pages (id, project_id, page_index, width, height, source_key, image_key, path, status, detected_language, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'ocr', 'ready', 'eng', ?, ?)",
      ).bind(pageId, projectId, i, pg.width ?? 1000, pg.height ?? 800, sourceKey, imageKey, now, now),
    );
    const ids: string[] = [];
    (pg.regions ?? []).forEach((r, k) => {
      const id = newId("rgn");
      ids.push(id);
      const box = r.box ?? { x: 10, y: 10 + k * 50, w: 400, h: 40 };
      stmts.push(
        env.DB.prepare(
          "INSERT INTO regions (id, project_id, page_id, reading_order, kind, x, y, w, h, text, source_language, translation, confidence, lines, vertical, leftover_text, created_at, updated_at) VALUES (?, ?, ?, ?, 'text', ?, ?, ?, ?, ?, 'eng', ?, ?, ?, 0, 0, ?, ?)",
        ).bind(
          id,
          projectId,
          pageId,
          k,
          box.x,
          box.y,
          box.w,
          box.h,
          r.text,
          r.translation ?? null,
          r.confidence ?? 0.9,
          r.lines ? JSON.stringify(r.lines) : null,
          now,
          now,
        ),
      );
    });
    regionIds.push(ids);
  });
  let tableId: string | null = null;
  if (p.table) {
    tableId = newId("tbl");
    stmts.push(
      env.DB.prepare(
        "INSERT INTO tables (id, project_id, page_id, x, y, w, h, rows, cols, confidence, created_at, updated_at) VALUES (?, ?, ?, 0, 0, 500, 300, ?, ?, 0.8, ?, ?)",
      ).bind(tableId, projectId, pageIds[p.table.page], p.table.rows, p.table.cols, now, now),
      ...p.table.cells.map((c) =>
        env.DB.prepare(
          "INSERT INTO table_cells (table_id, row, col, row_span, col_span, text, confidence) VALUES (?, ?, ?, ?, ?, ?, 0.8)",
        ).bind(tableId, c.row, c.col, c.rowSpan ?? 1, c.colSpan ?? 1, c.text),
      ),
    );
  }
  let exportId: string | null = null;
  if (p.export) {
    exportId = newId("exp");
    const key = `${keys.exportPrefix(userId, jobKey)}seeded.txt`;
    files[key] = `exported text of ${projectId}`;
    stmts.push(
      env.DB.prepare(
        "INSERT INTO exports (id, user_id, project_id, format, status, key, filename, bytes, content_type, created_at, completed_at) VALUES (?, ?, ?, 'txt', 'ready', ?, 'seeded.txt', ?, 'text/plain; charset=utf-8', ?, ?)",
      ).bind(exportId, userId, projectId, key, files[key]!.length, now, now),
    );
  }
  await env.DB.batch(stmts);
  await Promise.all(Object.entries(files).map(([k, v]) => env.FILES.put(k, v)));
  return { projectId, pageIds, regionIds, tableId, exportId, files: Object.keys(files) };
}

/** Fetches a URL the api Worker signed (path and query only: the test calls the Worker directly). */
export function fetchSigned(url: string): Promise<Response> {
  const u = new URL(url);
  return api(u.pathname + u.search);
}

export async function detail(projectId: string, auth: Record<string, string>) {
  const res = await api(`/api/v1/projects/${projectId}`, { headers: auth });
  const b = await body(res);
  if (res.status !== 200) throw new Error(`GET project ${projectId}: ${res.status} ${JSON.stringify(b)}`);
  return b;
}

export function json(method: string, auth: Record<string, string>, payload: unknown): RequestInit {
  return { method, headers: { ...auth, "Content-Type": "application/json" }, body: JSON.stringify(payload) };
}

export async function exists(key: string): Promise<boolean> {
  return (await env.FILES.head(key)) !== null;
}
