import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import * as routes from "./projects.routes";
import * as service from "./projects.service";
import { rerenderProject } from "./rerender.service";
import { toJobOut } from "../jobs/jobs.service";

export function registerProjects(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.listProjects, async (c) => c.json(await service.listProjects(c.get("db"), c.get("auth"), c.req.valid("query")), 200));

  app.openapi(routes.getProject, async (c) => {
    const origin = new URL(c.req.url).origin;
    return c.json(await service.projectDetail(c.env, c.get("db"), c.get("auth"), c.req.valid("param").project_id, origin), 200);
  });

  app.openapi(routes.renameProject, async (c) =>
    c.json(await service.renameProject(c.get("db"), c.get("auth"), c.req.valid("param").project_id, c.req.valid("json")), 200),
  );

  app.openapi(routes.deleteProject, async (c) => {
    const id = c.req.valid("param").project_id;
    if (c.req.valid("query").permanent) await service.deleteProjectPermanently(c.env, c.get("db"), c.get("auth"), id);
    else await service.trashProject(c.get("db"), c.get("auth"), id);
    return c.body(null, 204);
  });

  app.openapi(routes.duplicateProject, async (c) =>
    c.json(await service.duplicateProject(c.env, c.get("db"), c.get("auth"), c.req.valid("param").project_id), 200),
  );

  app.openapi(routes.restoreProject, async (c) =>
    c.json(await service.restoreProject(c.get("db"), c.get("auth"), c.req.valid("param").project_id), 200),
  );

  app.openapi(routes.rerenderProject, async (c) => {
    const db = c.get("db");
    const job = await rerenderProject(c.env, db, c.get("auth"), c.req.valid("param").project_id, c.req.valid("json"));
    return c.json(await toJobOut(db, job), 202);
  });

  app.openapi(routes.createProjectExport, async (c) =>
    c.json(await service.createProjectExport(c.env, c.get("db"), c.get("auth"), c.req.valid("param").project_id, c.req.valid("json")), 201),
  );

  app.openapi(routes.listProjectExports, async (c) =>
    c.json(await service.listProjectExports(c.get("db"), c.get("auth"), c.req.valid("param").project_id), 200),
  );

  app.openapi(routes.listFolders, async (c) => c.json(await service.listFolders(c.get("db"), c.get("auth")), 200));

  app.openapi(routes.createFolder, async (c) => c.json(await service.createFolder(c.get("db"), c.get("auth"), c.req.valid("json")), 201));

  app.openapi(routes.deleteFolder, async (c) => {
    await service.deleteFolder(c.get("db"), c.get("auth"), c.req.valid("param").folder_id);
    return c.body(null, 204);
  });
}
