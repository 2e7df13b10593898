import { z } from "@hono/zod-openapi";
import { requireAuth } from "../../http/auth";
import { IdempotencyHeader, idempotent } from "../../http/idempotency";
import { JobOut } from "../jobs/jobs.schemas";
import { errors, json, Paging } from "../../http/openapi";
import {
  DeleteProjectQuery,
  ExportOut,
  ExportRequest,
  FolderCreateRequest,
  FolderIdParam,
  FolderOut,
  ProjectDetailOut,
  ProjectIdParam,
  ProjectListOut,
  ProjectListQuery,
  ProjectOut,
  RenameProjectRequest,
  RerenderRequest,
} from "./projects.schemas";
import { authedRoutes, jsonBody, operation } from "../../http/route";

const projectsRoute = authedRoutes("Projects");
const foldersRoute = authedRoutes("Folders");

export const listProjects = projectsRoute({
  ...operation("get", "/api/v1/projects", "listProjects"),
  summary: "List projects (or the trash) with filters; most recently updated first by default",
  request: { query: ProjectListQuery.extend(Paging.shape) },
  responses: { 200: json(ProjectListOut, "A page of projects"), ...errors(401, 422) },
});

export const getProject = projectsRoute({
  ...operation("get", "/api/v1/projects/{project_id}", "getProject"),
  summary: "A project with its pages (signed image URLs), regions and tables",
  request: { params: ProjectIdParam },
  responses: { 200: json(ProjectDetailOut, "The project"), ...errors(401, 404, 422) },
});

export const renameProject = projectsRoute({
  ...operation("patch", "/api/v1/projects/{project_id}", "renameProject"),
  summary: "Rename a project and/or move it to a folder",
  request: { params: ProjectIdParam, ...jsonBody(RenameProjectRequest) },
  responses: { 200: json(ProjectOut, "The project"), ...errors(401, 404, 409, 422) },
});

export const deleteProject = projectsRoute({
  ...operation("delete", "/api/v1/projects/{project_id}", "deleteProject"),
  summary: "Move a project to the trash, or delete it and its files for good (`permanent=true`)",
  request: { params: ProjectIdParam, query: DeleteProjectQuery },
  responses: { 204: { description: "Deleted" }, ...errors(401, 404, 409, 422) },
});

export const duplicateProject = projectsRoute({
  ...operation("post", "/api/v1/projects/{project_id}/duplicate", "duplicateProject"),
  summary: "Deep-copy a project (rows and files) under a new name",
  request: { params: ProjectIdParam },
  responses: { 200: json(ProjectOut, "The copy"), ...errors(401, 404, 409, 422) },
});

export const restoreProject = projectsRoute({
  ...operation("post", "/api/v1/projects/{project_id}/restore", "restoreProject"),
  summary: "Take a project out of the trash",
  request: { params: ProjectIdParam },
  responses: { 200: json(ProjectOut, "The project"), ...errors(401, 404, 422) },
});

export const rerenderProject = projectsRoute({
  middleware: [requireAuth, idempotent()] as const,
  ...operation("post", "/api/v1/projects/{project_id}/rerender", "rerenderProject"),
  summary: "Redraw pages from the edited regions and rebuild the exports; free",
  description:
    "Starts a job of kind `rerender` (follow it like any job): text removal, typesetting and exports run again from the regions as stored and edited; recognition and translation do not, and nothing is charged. While it runs the project is `processing` and edits are refused (409).",
  request: { params: ProjectIdParam, headers: IdempotencyHeader, ...jsonBody(RerenderRequest) },
  responses: { 202: json(JobOut, "Re-render accepted"), ...errors(401, 404, 409, 422, 429, 503) },
});

export const createProjectExport = projectsRoute({
  ...operation("post", "/api/v1/projects/{project_id}/exports", "createProjectExport"),
  summary: "Build an export from the project as edited now (no recognition, no translation)",
  request: { params: ProjectIdParam, ...jsonBody(ExportRequest) },
  responses: { 201: json(ExportOut, "The export, ready to download"), ...errors(401, 404, 409, 422, 503) },
});

export const listProjectExports = projectsRoute({
  ...operation("get", "/api/v1/projects/{project_id}/exports", "listProjectExports"),
  summary: "Exports of a project (from its jobs and built on request), newest first",
  request: { params: ProjectIdParam },
  responses: { 200: json(z.array(ExportOut), "Exports"), ...errors(401, 404, 422) },
});

export const listFolders = foldersRoute({
  ...operation("get", "/api/v1/folders", "listFolders"),
  summary: "Folders, by name, with the number of live projects in each",
  responses: { 200: json(z.array(FolderOut), "Folders"), ...errors(401) },
});

export const createFolder = foldersRoute({
  ...operation("post", "/api/v1/folders", "createFolder"),
  summary: "Create a folder (move projects into it with PATCH /projects/{id})",
  request: jsonBody(FolderCreateRequest),
  responses: { 201: json(FolderOut, "The folder"), ...errors(401, 422) },
});

export const deleteFolder = foldersRoute({
  ...operation("delete", "/api/v1/folders/{folder_id}", "deleteFolder"),
  summary: "Delete a folder; its projects stay, outside any folder",
  request: { params: FolderIdParam },
  responses: { 204: { description: "Deleted" }, ...errors(401, 404, 422) },
});
