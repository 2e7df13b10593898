import { z } from "@hono/zod-openapi";
import { requireAuth } from "../../http/auth";
import { IdempotencyHeader, idempotent } from "../../http/idempotency";
import { errors, json, Paging } from "../../http/openapi";
import { answerWith, authedRoutes, jsonBody, noContentAfter } from "../../http/route";
import { JobOut } from "../jobs/jobs.schemas";
import { toJobOut } from "../jobs/jobs.service";
import * as schemas from "./projects.schemas";
import * as service from "./projects.service";
import { rerenderProject } from "./rerender.service";

const project = authedRoutes("Projects");
const folder = authedRoutes("Folders");

export const projectRoutes = [
  project("get", "/api/v1/projects", "listProjects", {
    summary: "List projects (or the trash) with filters; most recently updated first by default",
    request: { query: schemas.ProjectListQuery.extend(Paging.shape) },
    responses: { 200: json(schemas.ProjectListOut, "A page of projects"), ...errors(401, 422) },
    handler: answerWith((c) => service.listProjects(c.get("db"), c.get("auth"), c.req.valid("query"))),
  }),
  project("get", "/api/v1/projects/{project_id}", "getProject", {
    summary: "A project with its pages (signed image URLs), regions and tables",
    request: { params: schemas.ProjectIdParam },
    responses: { 200: json(schemas.ProjectDetailOut, "The project"), ...errors(401, 404, 422) },
    handler: answerWith((c) => {
      const origin = new URL(c.req.url).origin;
      return service.projectDetail(c.env, c.get("db"), c.get("auth"), c.req.valid("param").project_id, origin);
    }),
  }),
  project("patch", "/api/v1/projects/{project_id}", "renameProject", {
    summary: "Rename a project and/or move it to a folder",
    request: { params: schemas.ProjectIdParam, ...jsonBody(schemas.RenameProjectRequest) },
    responses: { 200: json(schemas.ProjectOut, "The project"), ...errors(401, 404, 409, 422) },
    handler: answerWith((c) => service.renameProject(c.get("db"), c.get("auth"), c.req.valid("param").project_id, c.req.valid("json"))),
  }),
  project("delete", "/api/v1/projects/{project_id}", "deleteProject", {
    summary: "Move a project to the trash, or delete it and its files for good (`permanent=true`)",
    request: { params: schemas.ProjectIdParam, query: schemas.DeleteProjectQuery },
    responses: { 204: { description: "Deleted" }, ...errors(401, 404, 409, 422) },
    handler: async (c) => {
      const id = c.req.valid("param").project_id;
      if (c.req.valid("query").permanent) await service.deleteProjectPermanently(c.env, c.get("db"), c.get("auth"), id);
      else await service.trashProject(c.get("db"), c.get("auth"), id);
      return c.body(null, 204);
    },
  }),
  project("post", "/api/v1/projects/{project_id}/duplicate", "duplicateProject", {
    summary: "Deep-copy a project (rows and files) under a new name",
    request: { params: schemas.ProjectIdParam },
    responses: { 200: json(schemas.ProjectOut, "The copy"), ...errors(401, 404, 409, 422) },
    handler: answerWith((c) => service.duplicateProject(c.env, c.get("db"), c.get("auth"), c.req.valid("param").project_id)),
  }),
  project("post", "/api/v1/projects/{project_id}/restore", "restoreProject", {
    summary: "Take a project out of the trash",
    request: { params: schemas.ProjectIdParam },
    responses: { 200: json(schemas.ProjectOut, "The project"), ...errors(401, 404, 422) },
    handler: answerWith((c) => service.restoreProject(c.get("db"), c.get("auth"), c.req.valid("param").project_id)),
  }),
  project("post", "/api/v1/projects/{project_id}/rerender", "rerenderProject", {
    middleware: [requireAuth, idempotent()] as const,
    summary: "Redraw pages from the edited regions and rebuild the exports; free",
    description:
      "Starts a job of kind `rerender` (follow it like any job): text removal, typesetting and exports run again from the regions as stored and edited; recognition and translation do not, and nothing is charged. While it runs the project is `processing` and edits are refused (409).",
    request: { params: schemas.ProjectIdParam, headers: IdempotencyHeader, ...jsonBody(schemas.RerenderRequest) },
    responses: { 202: json(JobOut, "Re-render accepted"), ...errors(401, 404, 409, 422, 429, 503) },
    handler: async (c) => {
      const db = c.get("db");
      const job = await rerenderProject(c.env, db, c.get("auth"), c.req.valid("param").project_id, c.req.valid("json"));
      return c.json(await toJobOut(db, job), 202);
    },
  }),
  project("post", "/api/v1/projects/{project_id}/exports", "createProjectExport", {
    summary: "Build an export from the project as edited now (no recognition, no translation)",
    request: { params: schemas.ProjectIdParam, ...jsonBody(schemas.ExportRequest) },
    responses: { 201: json(schemas.ExportOut, "The export, ready to download"), ...errors(401, 404, 409, 422, 503) },
    handler: async (c) =>
      c.json(
        await service.createProjectExport(c.env, c.get("db"), c.get("auth"), c.req.valid("param").project_id, c.req.valid("json")),
        201,
      ),
  }),
  project("get", "/api/v1/projects/{project_id}/exports", "listProjectExports", {
    summary: "Exports of a project (from its jobs and built on request), newest first",
    request: { params: schemas.ProjectIdParam },
    responses: { 200: json(z.array(schemas.ExportOut), "Exports"), ...errors(401, 404, 422) },
    handler: answerWith((c) => service.listProjectExports(c.get("db"), c.get("auth"), c.req.valid("param").project_id)),
  }),
  folder("get", "/api/v1/folders", "listFolders", {
    summary: "Folders, by name, with the number of live projects in each",
    responses: { 200: json(z.array(schemas.FolderOut), "Folders"), ...errors(401) },
    handler: answerWith((c) => service.listFolders(c.get("db"), c.get("auth"))),
  }),
  folder("post", "/api/v1/folders", "createFolder", {
    summary: "Create a folder (move projects into it with PATCH /projects/{id})",
    request: jsonBody(schemas.FolderCreateRequest),
    responses: { 201: json(schemas.FolderOut, "The folder"), ...errors(401, 422) },
    handler: async (c) => c.json(await service.createFolder(c.get("db"), c.get("auth"), c.req.valid("json")), 201),
  }),
  folder("delete", "/api/v1/folders/{folder_id}", "deleteFolder", {
    summary: "Delete a folder; its projects stay, outside any folder",
    request: { params: schemas.FolderIdParam },
    responses: { 204: { description: "Deleted" }, ...errors(401, 404, 422) },
    handler: noContentAfter((c) => service.deleteFolder(c.get("db"), c.get("auth"), c.req.valid("param").folder_id)),
  }),
];
