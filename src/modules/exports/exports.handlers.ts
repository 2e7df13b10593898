import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import * as routes from "./exports.routes";
import * as service from "./exports.service";
import { FILES_PATH } from "./signed-url";

export function registerExports(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.downloadExport, async (c) => {
    const origin = new URL(c.req.url).origin;
    return c.json(await service.downloadLink(c.env, c.get("db"), c.get("auth"), c.req.valid("param").export_id, origin), 200);
  });

  // Signed file downloads: outside the OpenAPI document (URLs come only from download links).
  app.get(`${FILES_PATH}*`, (c) => service.serveSignedFile(c.env, new URL(c.req.url)));
}
