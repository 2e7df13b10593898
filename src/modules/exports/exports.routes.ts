import { z } from "@hono/zod-openapi";
import { errors, json, pathId } from "../../http/openapi";
import { authedRoutes, operation } from "../../http/route";

const exportsRoute = authedRoutes("Exports");

export const DownloadOut = z
  .object({
    url: z.string().openapi({ description: "Short-lived signed URL of the file." }),
    expires_at: z.string(),
    filename: z.string(),
    content_type: z.string(),
  })
  .openapi("DownloadOut");

export const downloadExport = exportsRoute({
  ...operation("get", "/api/v1/exports/{export_id}/download", "downloadExport"),
  summary: "A short-lived signed URL for an export file",
  request: {
    params: z.object({
      export_id: pathId("export_id"),
    }),
  },
  responses: { 200: json(DownloadOut, "Signed URL"), ...errors(401, 404, 422) },
});
