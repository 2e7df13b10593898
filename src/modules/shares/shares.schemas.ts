import { z } from "@hono/zod-openapi";
import { pathId, resourceOut } from "../../http/openapi";
import { REGION_KINDS, TOOLS } from "../../db/schema/enums";
import { Box, cellPlace } from "../projects/projects.schemas";

export const ShareIdParam = z.object({
  share_id: pathId("share_id", "shr"),
});

export const ShareTokenParam = z.object({
  token: z
    .string()
    .min(1)
    .max(128)
    .openapi({ param: { name: "token", in: "path" }, description: "The secret token of the link." }),
});

export const SharePasswordQuery = z.object({
  password: z
    .string()
    .max(256)
    .optional()
    .openapi({ param: { name: "password", in: "query" }, description: "Required when the link has a password." }),
});

export const ShareCreateRequest = z
  .object({
    password: z
      .string()
      .min(4)
      .max(256)
      .optional()
      .openapi({ description: "Viewers must send it as `?password=`; stored only as a slow hash." }),
    expires_at: z.iso.datetime({ offset: true }).optional().openapi({ description: "When the link stops working (at most a year ahead)." }),
    expires_in_hours: z
      .number()
      .int()
      .min(1)
      .max(24 * 366)
      .optional()
      .openapi({ description: "Alternative to expires_at." }),
    allow_download: z.boolean().default(true).openapi({ description: "Whether viewers may download the project's exports." }),
  })
  .strict()
  .refine((b) => !(b.expires_at && b.expires_in_hours), { message: "Send expires_at or expires_in_hours, not both.", path: ["expires_at"] })
  .openapi("ShareCreateRequest");

export const ShareOut = resourceOut("ShareOut", "shr", {
  project_id: z.string(),
  token: z.string().nullable().openapi({ description: "The secret token: returned once, at creation (only its hash is stored)." }),
  url: z.string().nullable().openapi({ description: "The public link (at creation only)." }),
  token_prefix: z.string().openapi({ description: "First characters of the token, to tell links apart." }),
  status: z.enum(["active", "expired", "revoked"]),
  has_password: z.boolean(),
  allow_download: z.boolean(),
  view_count: z.number().int(),
  last_viewed_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  created_at: z.string(),
});

export const ShareViewOut = z
  .object({
    project: z.object({
      name: z.string(),
      tool: z.enum(TOOLS),
      source_language: z.string().nullable(),
      target_language: z.string().nullable(),
      page_count: z.number().int(),
      updated_at: z.string(),
    }),
    pages: z.array(
      z.object({
        index: z.number().int(),
        width: z.number().int(),
        height: z.number().int(),
        image_url: z.string().nullable(),
        render_url: z.string().nullable(),
      }),
    ),
    regions: z.array(
      z.object({
        page_index: z.number().int(),
        order: z.number().int(),
        kind: z.enum(REGION_KINDS),
        box: Box,
        text: z.string().openapi({ description: "The source text as the owner corrected it." }),
        translation: z.string().nullable().openapi({ description: "The translation as the owner edited it." }),
        vertical: z.boolean(),
      }),
    ),
    tables: z.array(
      z.object({
        page_index: z.number().int(),
        box: Box,
        rows: z.number().int(),
        columns: z.number().int(),
        cells: z.array(z.object(cellPlace)),
      }),
    ),
    allow_download: z.boolean(),
    expires_at: z.string().nullable(),
    urls_expire_at: z.string(),
  })
  .openapi("ShareViewOut");

export const ShareDownloadOut = z
  .object({
    project: z.object({ name: z.string() }),
    exports: z.array(
      z.object({
        format: z.string(),
        filename: z.string(),
        bytes: z.number().int().nullable(),
        content_type: z.string(),
        url: z.string().openapi({ description: "Short-lived signed URL of the file." }),
      }),
    ),
    expires_at: z.string().openapi({ description: "When the signed URLs stop working; ask again for new ones." }),
  })
  .openapi("ShareDownloadOut");
