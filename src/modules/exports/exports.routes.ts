import { z } from "@hono/zod-openapi";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { errors, json, pathId } from "../../http/openapi";
import { answerWith, authedRoutes } from "../../http/route";
import * as service from "./exports.service";
import { FILES_PATH } from "./signed-url";

const exportsRoute = authedRoutes("Exports");

export const DownloadOut = z
  .object({
    url: z.string().openapi({ description: "Short-lived signed URL of the file." }),
    expires_at: z.string(),
    filename: z.string(),
    content_type: z.string(),
  })
  .openapi("DownloadOut");

export const exportRoutes = [
  exportsRoute("get", "/api/v1/exports/{export_id}/download", "downloadExport", {
    summary: "A short-lived signed URL for an export file",
    request: { params: z.object({ export_id: pathId("export_id") }) },
    responses: { 200: json(DownloadOut, "Signed URL"), ...errors(401, 404, 422) },
    handler: answerWith((c) => {
      const origin = new URL(c.req.url).origin;
      return service.downloadLink(c.env, c.get("db"), c.get("auth"), c.req.valid("param").export_id, origin);
    }),
  }),
];

/** Signed file downloads: outside the OpenAPI document (URLs come only from download links). */
export function registerSignedFiles(app: OpenAPIHono<AppEnv>) {
  app.get(`${FILES_PATH}*`, (c) => service.serveSignedFile(c.env, new URL(c.req.url)));
}
