import type { z } from "@hono/zod-openapi";
import {
  EXPORT_FORMATS as ENGINE_EXPORT_FORMATS,
  type BuiltExport,
  type ExportFormat as EngineExportFormat,
} from "../../../workers/shared/engine-contract";
import type { DB } from "../../db/client";
import type { AuthContext } from "../../env";
import { ApiError } from "../../http/errors";
import { newId, pageIdOf } from "../../lib/ids";
import { keys } from "../../lib/storage";
import { buildDocumentExports } from "./export-document.service";
import { exportStatements, type ExportRow, insertExport, projectExports } from "../exports/exports.service";
import { engineFailure } from "../jobs/engine-failure";
import { jobIdsOfProject } from "../jobs/jobs.service";
import { regionsOf, tablesOf } from "./regions.service";
import { fileSigner, pageUrls } from "./page-urls";
import { editableProject, ownProject } from "./project-access";
import * as pagesRepo from "./pages.repo";
import * as repo from "./projects.repo";
import type { ExportRequest, FolderCreateRequest, ProjectListQuery, RenameProjectRequest } from "./projects.schemas";
import { TRASH_RETENTION_MS, toExportOut, toFolderOut, toProjectOut } from "./projects.views";
import { iso } from "../../lib/time";
import { log } from "../../lib/log";

/** Lists the caller's projects (live or trash) with filters, a stable order and a total. */
export async function listProjects(db: DB, auth: AuthContext, q: z.infer<typeof ProjectListQuery> & { limit: number; offset: number }) {
  const { items, total } = await repo.listProjects(
    db,
    auth.userId,
    {
      tool: q.tool,
      status: q.project_status,
      search: q.search,
      folderId: q.folder_id,
      trash: q.trash,
      order: q.order,
      limit: q.limit,
      offset: q.offset,
    },
    pagesRepo.regionTextMatches,
  );
  return { items: items.map(toProjectOut), total, limit: q.limit, offset: q.offset };
}

/** A project's pages, regions and tables, and a signer for its image URLs. */
async function projectContent(env: Env, db: DB, project: repo.ProjectRow, origin: string) {
  const signer = fileSigner(env, origin);
  const [pages, regions, tables] = await Promise.all([
    pagesRepo.projectPages(db, project.id),
    regionsOf(db, project.id),
    tablesOf(db, project.id),
  ]);
  return { signer, pages, regions, tables };
}

/** A project with its pages (short-lived signed image URLs), regions and tables. */
export async function projectDetail(env: Env, db: DB, auth: AuthContext, projectId: string, origin: string) {
  const project = await ownProject(db, auth.userId, projectId);
  const { signer, pages, regions, tables } = await projectContent(env, db, project, origin);
  return {
    ...toProjectOut(project),
    pages: await Promise.all(
      pages.map(async (p) => ({
        id: p.id,
        index: p.pageIndex,
        width: p.width,
        height: p.height,
        status: p.status,
        path: p.path,
        rotation: p.rotation,
        detected_language: p.detectedLanguage,
        ...(await pageUrls(signer, p)),
      })),
    ),
    regions,
    tables,
    urls_expire_at: signer.expiresAt.toISOString(),
  };
}

/**
 * What a share link shows of a project: its pages (signed image URLs), regions with the owner's
 * current text and translation, and tables. No ids, folders, jobs or other account data.
 */
export async function publicProjectView(env: Env, db: DB, project: repo.ProjectRow, origin: string) {
  const { signer, pages, regions, tables } = await projectContent(env, db, project, origin);
  return {
    project: {
      name: project.name,
      tool: project.tool,
      source_language: project.sourceLanguage,
      target_language: project.targetLanguage,
      page_count: project.pageCount,
      updated_at: iso(project.updatedAt),
    },
    pages: await Promise.all(
      pages.map(async (p) => ({ index: p.pageIndex, width: p.width, height: p.height, ...(await pageUrls(signer, p)) })),
    ),
    regions: regions.map((r) => ({
      page_index: r.page_index,
      order: r.order,
      kind: r.kind,
      box: r.box,
      text: r.user_text ?? r.text,
      translation: r.user_translation ?? r.translation,
      vertical: r.vertical,
    })),
    tables: tables.map((t) => ({
      page_index: t.page_index,
      box: t.box,
      rows: t.rows,
      columns: t.columns,
      cells: t.cells.map((c) => ({ row: c.row, column: c.column, row_span: c.row_span, column_span: c.column_span, text: c.text })),
    })),
    urls_expire_at: signer.expiresAt.toISOString(),
  };
}

/** Signed URLs of a project's ready exports, the newest of each format (what a share link downloads). */
export async function publicProjectExports(env: Env, db: DB, project: repo.ProjectRow, origin: string) {
  const signer = fileSigner(env, origin);
  const newest = new Map<string, ExportRow>();
  for (const e of await projectExports(db, project.id)) if (e.status === "ready" && e.key && !newest.has(e.format)) newest.set(e.format, e);
  return {
    project: { name: project.name },
    exports: await Promise.all(
      [...newest.values()].map(async (e) => {
        const filename = e.filename ?? `${e.id}.${e.format}`;
        return {
          format: e.format,
          filename,
          bytes: e.bytes,
          content_type: e.contentType ?? "application/octet-stream",
          url: (await signer.sign(e.key, filename))!,
        };
      }),
    ),
    expires_at: signer.expiresAt.toISOString(),
  };
}

/** Renames a project and/or moves it into (or out of, with null) one of the caller's folders. */
export async function renameProject(db: DB, auth: AuthContext, projectId: string, body: z.infer<typeof RenameProjectRequest>) {
  const project = await ownProject(db, auth.userId, projectId);
  if (project.trashedAt !== null)
    throw new ApiError("conflict", `Project ${projectId} is in the trash; restore it first.`, {
      details: { project_id: projectId, trashed: true },
    });
  if (body.folder_id) {
    if (!(await repo.findFolder(db, auth.userId, body.folder_id)))
      throw new ApiError("not_found", `No folder ${body.folder_id}.`, { details: { folder_id: body.folder_id } });
  }
  const row = await repo.updateProject(db, project.id, {
    ...(body.name !== undefined && { name: body.name }),
    ...(body.folder_id !== undefined && { folderId: body.folder_id }),
  });
  return toProjectOut(row!);
}

/** Moves a project to the trash (idempotent); it is purged TRASH_RETENTION_DAYS later unless restored. */
export async function trashProject(db: DB, auth: AuthContext, projectId: string): Promise<void> {
  const project = await ownProject(db, auth.userId, projectId);
  if (project.trashedAt === null) await repo.updateProject(db, project.id, { trashedAt: Date.now() });
}

export async function restoreProject(db: DB, auth: AuthContext, projectId: string) {
  const project = await ownProject(db, auth.userId, projectId);
  if (project.trashedAt === null) return toProjectOut(project);
  return toProjectOut((await repo.updateProject(db, project.id, { trashedAt: null }))!);
}

/** Lists every object under an R2 prefix. */
async function listKeys(files: R2Bucket, prefix: string): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await files.list({ prefix, cursor });
    out.push(...page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return out;
}

/** Every R2 FILES key a project owns: its pages' files, its exports, its jobs' work files and its own copies. */
async function projectFileKeys(env: Env, db: DB, project: repo.ProjectRow): Promise<string[]> {
  const [pages, exports, jobIds] = await Promise.all([
    pagesRepo.projectPages(db, project.id),
    projectExports(db, project.id),
    jobIdsOfProject(db, project),
  ]);
  const u = project.userId;
  const prefixes = [
    keys.projectPrefix(u, project.id),
    keys.projectExportsPrefix(u, project.id),
    ...jobIds.flatMap((j) => [keys.jobPrefix(u, j), keys.exportPrefix(u, j)]),
  ];
  const listed = await Promise.all(prefixes.map((p) => listKeys(env.FILES, p)));
  const referenced = [
    project.thumbnailKey,
    ...pages.flatMap((p) => [p.sourceKey, p.imageKey, p.maskKey, p.cleanKey, p.renderKey]),
    ...exports.map((e) => e.key),
    ...jobIds.map((j) => keys.upload(u, j)),
  ].filter((k): k is string => !!k);
  return [...new Set([...referenced, ...listed.flat()])];
}

async function deleteKeys(files: R2Bucket, all: string[]): Promise<void> {
  for (let i = 0; i < all.length; i += 1000) await files.delete(all.slice(i, i + 1000));
}

/**
 * Deletes a project for good: its rows (pages, regions, tables, exports and shares cascade; jobs
 * keep their history without it) and then every file it owns. The row goes first: a failure after
 * it leaves unreachable files, never a project pointing at missing ones.
 */
async function destroyProject(env: Env, db: DB, project: repo.ProjectRow): Promise<number> {
  const files = await projectFileKeys(env, db, project);
  await repo.deleteProject(db, project.id);
  await deleteKeys(env.FILES, files);
  return files.length;
}

/** DELETE /projects/{id}?permanent=true. A project whose job still runs cannot be destroyed (its pipeline writes to it). */
export async function deleteProjectPermanently(env: Env, db: DB, auth: AuthContext, projectId: string): Promise<void> {
  const project = await ownProject(db, auth.userId, projectId);
  if (project.status === "processing") {
    throw new ApiError("conflict", `Project ${projectId} is still being processed; cancel its job or wait for it to finish.`, {
      details: { status: project.status },
    });
  }
  await destroyProject(env, db, project);
}

/**
 * Deletes projects that have been in the trash longer than the retention period, with their files.
 * Called by the scheduled handler; works through at most `limit` projects a run.
 * @returns how many projects were deleted.
 */
export async function purgeTrash(env: Env, db: DB, now: number, limit = 100): Promise<number> {
  const due = await repo.trashedBefore(db, now - TRASH_RETENTION_MS, limit);
  let purged = 0;
  for (const project of due) {
    try {
      await destroyProject(env, db, project);
      purged++;
    } catch (err) {
      // One project's failure must not stop the others; it is retried at the next run.
      log.error("trash purge failed", { project_id: project.id, error: err });
    }
  }
  return purged;
}

async function copyObject(files: R2Bucket, from: string, to: string): Promise<void> {
  const obj = await files.get(from);
  if (!obj)
    throw new ApiError("conflict", "A file of the project is missing; it cannot be duplicated.", { details: { key_missing: true } });
  await files.put(to, await obj.arrayBuffer(), { httpMetadata: obj.httpMetadata, customMetadata: obj.customMetadata });
}

const PAGE_FILES = ["sourceKey", "imageKey", "maskKey", "cleanKey", "renderKey"] as const;

/**
 * Deep-copies a project under a new name: its rows (pages, regions, tables and cells, ready
 * exports) and every file they point at, copied to keys of the new project, so editing or deleting
 * either never touches the other.
 */
export async function duplicateProject(env: Env, db: DB, auth: AuthContext, projectId: string) {
  const source = await editableProject(db, auth.userId, projectId);
  const copyId = newId("prj");
  const u = auth.userId;
  const [pages, exports, tableIds] = await Promise.all([
    pagesRepo.projectPages(db, source.id),
    projectExports(db, source.id),
    pagesRepo.projectTableIds(db, source.id),
  ]);
  const moved = new Map<string, string>();
  const plan = (from: string | null, name: string): string | null => {
    if (!from) return null;
    if (!moved.has(from)) moved.set(from, keys.projectFile(u, copyId, name));
    return moved.get(from)!;
  };
  const now = Date.now();
  const pageRows = pages.map((p) => {
    const row = { ...p, id: pageIdOf(copyId, p.pageIndex), projectId: copyId, createdAt: now, updatedAt: now };
    for (const f of PAGE_FILES) row[f] = plan(p[f], `${p.pageIndex}/${f.replace("Key", "")}`);
    return row;
  });
  const exportRows = exports
    .filter((e) => e.status === "ready" && e.key)
    .map((e) => {
      const id = newId("exp");
      const key = `${keys.projectExport(u, copyId, id)}${e.key!.split("/").pop()}`;
      moved.set(e.key!, key);
      return { ...e, id, projectId: copyId, jobId: null, key, createdAt: now };
    });
  const thumbnailKey = plan(source.thumbnailKey, "thumbnail");
  const copied: string[] = [];
  try {
    for (const [from, to] of moved) {
      await copyObject(env.FILES, from, to);
      copied.push(to);
    }
    await repo.insertProjectCopy(
      db,
      {
        ...source,
        id: copyId,
        name: copyName(source.name),
        sourceJobId: null,
        thumbnailKey,
        createdAt: now,
        updatedAt: now,
        trashedAt: null,
      },
      pagesRepo.contentCopyStatements(
        db,
        source.id,
        copyId,
        pageRows,
        tableIds.map((from) => ({ from, to: newId("tbl") })),
      ),
      exportStatements(db, exportRows),
    );
  } catch (err) {
    await deleteKeys(env.FILES, copied);
    throw err;
  }
  return toProjectOut((await repo.findProject(db, u, copyId))!);
}

function copyName(name: string): string {
  return `${name.slice(0, 193)} (copy)`;
}

// Exports built from the edited project

export async function listProjectExports(db: DB, auth: AuthContext, projectId: string) {
  const project = await ownProject(db, auth.userId, projectId);
  return (await projectExports(db, project.id)).map(toExportOut);
}

/**
 * Builds an export from the project as edited now: the document (pages, regions with the user's
 * corrected text and translation winning over the recognised and machine ones, tables) is read from
 * D1 and handed to the engine's export builder. Nothing is recognised or translated again.
 */
export async function createProjectExport(env: Env, db: DB, auth: AuthContext, projectId: string, body: z.infer<typeof ExportRequest>) {
  const project = await editableProject(db, auth.userId, projectId);
  const format = body.format as EngineExportFormat;
  if (!ENGINE_EXPORT_FORMATS.includes(format)) {
    throw new ApiError(
      "validation_error",
      `Exports in ${body.format} cannot be built from a project here; available: ${ENGINE_EXPORT_FORMATS.join(", ")}.`,
      {
        details: { fields: [{ location: "json", field: "format", message: `available: ${ENGINE_EXPORT_FORMATS.join(", ")}` }] },
      },
    );
  }
  const pages = (await pagesRepo.projectPages(db, project.id)).filter((p) => p.status === "ready");
  if (pages.length === 0) throw new ApiError("conflict", `Project ${projectId} has no ready page to export.`);
  const exportId = newId("exp");
  const baseName =
    project.name
      .replace(/\.[A-Za-z0-9]{1,5}$/, "")
      .replace(/[^\w.-]+/g, "_")
      .slice(0, 80) || "document";
  let built: BuiltExport[];
  try {
    built = await buildDocumentExports(env, db, {
      userId: auth.userId,
      projectId: project.id,
      title: project.name,
      sourceLanguage: project.sourceLanguage,
      targetLanguage: project.targetLanguage,
      formats: [format],
      content: body.content,
      outPrefix: keys.projectExport(auth.userId, project.id, exportId),
      baseName,
    });
  } catch (err) {
    throw engineFailure(err);
  }
  const b = built[0]!;
  const now = Date.now();
  const row = await insertExport(db, {
    id: exportId,
    userId: auth.userId,
    projectId: project.id,
    format: b.format,
    status: "ready",
    key: b.key,
    filename: b.filename ?? `${baseName}.${b.format}`,
    bytes: b.bytes,
    contentType: b.contentType,
    createdAt: now,
    completedAt: now,
  });
  return toExportOut(row);
}

// Folders

export async function listFolders(db: DB, auth: AuthContext) {
  return (await repo.listFolders(db, auth.userId)).map((r) => toFolderOut(r.folder, r.projects));
}

export async function createFolder(db: DB, auth: AuthContext, body: z.infer<typeof FolderCreateRequest>) {
  const now = Date.now();
  return toFolderOut(
    await repo.insertFolder(db, { id: newId("fld"), userId: auth.userId, name: body.name, createdAt: now, updatedAt: now }),
    0,
  );
}

/** Deletes a folder; its projects are kept, outside any folder. */
export async function deleteFolder(db: DB, auth: AuthContext, folderId: string): Promise<void> {
  if (!(await repo.deleteFolder(db, auth.userId, folderId))) throw new ApiError("not_found", `No folder ${folderId}.`);
}
