import type { BatchItem } from "drizzle-orm/batch";
import type { DB } from "../../db/client";
import { batchWhileEditable } from "../../db/project-guard";
import { ApiError } from "../../http/errors";
import { findProject, type ProjectRow } from "./projects.repo";

/** The caller's project; another account's (or an unknown) id is 404 `not_found`. */
export async function ownProject(db: DB, userId: string, projectId: string): Promise<ProjectRow> {
  const project = await findProject(db, userId, projectId);
  if (!project) throw new ApiError("not_found", `No project ${projectId}.`);
  return project;
}

/**
 * The caller's project, when its content may change: not in the trash (restore it first) and not
 * being processed (the running job writes its pages and regions and would overwrite edits).
 */
export async function editableProject(db: DB, userId: string, projectId: string): Promise<ProjectRow> {
  const project = await ownProject(db, userId, projectId);
  if (project.trashedAt !== null) {
    throw new ApiError("conflict", `Project ${projectId} is in the trash; restore it first.`, {
      details: { project_id: projectId, trashed: true },
    });
  }
  if (project.status === "processing") {
    throw new ApiError("conflict", `Project ${projectId} is still being processed; edit it when its job has finished.`, {
      details: { project_id: projectId, status: project.status },
    });
  }
  return project;
}

/**
 * Writes a user's change to a project's content (regions, tables, pages): the one guard every such
 * write goes through. The project is checked first (409 with the reason) and again inside the
 * transaction that writes, so a job that starts, or a trash, between the check and the write
 * refuses the write instead of racing it.
 */
export async function writeProjectContent(db: DB, userId: string, projectId: string, statements: BatchItem<"sqlite">[]): Promise<void> {
  if (await batchWhileEditable(db, projectId, statements)) return;
  await editableProject(db, userId, projectId);
  throw new ApiError("conflict", `Project ${projectId} changed state during the edit; nothing was written. Try again.`, {
    details: { project_id: projectId },
  });
}
