import { createRoute, z } from "@hono/zod-openapi";
import { requireAuth } from "../../http/auth";
import { authed, errors, json } from "../../http/openapi";

export const DownloadOut = z
  .object({
    url: z.string().openapi({ description: "Short-lived signed URL of the file." }),
    expires_at: z.string(),
    filename: z.string(),
    content_type: z.string(),
  })
  .openapi("DownloadOut");

export const downloadExport = createRoute({
  method: "get",
  path: "/api/v1/exports/{export_id}/download",
  operationId: "downloadExport",
  tags: ["Exports"],
  summary: "A short-lived signed URL for an export file",
  security: authed,
  middleware: [requireAuth] as const,
  request: { params: z.object({ export_id: z.string().min(1).max(64).openapi({ param: { name: "export_id", in: "path" } }) }) },
  responses: { 200: json(DownloadOut, "Signed URL"), ...errors(401, 404, 422) },
});
