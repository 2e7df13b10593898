import { z } from "@hono/zod-openapi";
import { ErrorOut } from "../../http/openapi";
import { JOB_STATUSES, TOOL_IDS, TOOLS } from "./tools";

const allFormats = [...new Set(Object.values(TOOLS).flatMap((t) => t.export_formats))] as [string, ...string[]];

export const ProcessOptions = z
  .object({
    tool: z.enum(TOOL_IDS).default("ocr").openapi({ description: "What to do with the file." }),
    source_language: z
      .string()
      .regex(/^[a-z]{2,3}(_[a-z]{2,4})?$/)
      .default("en")
      .openapi({ description: "Language of the text (ISO 639-1 like `en`, or a tesseract code like `eng`).", example: "en" }),
    target_language: z.string().regex(/^[a-z]{2,3}$/).optional().openapi({ description: "Translation target (tool `translate`).", example: "es" }),
    export_formats: z.array(z.enum(allFormats)).min(1).max(10).optional().openapi({ description: "Result formats; defaults per tool." }),
    name: z.string().trim().min(1).max(200).optional().openapi({ description: "Project name; defaults to the file name." }),
  })
  .strict()
  .openapi("ProcessOptions");

export const ProcessBody = z
  .object({
    file: z.any().openapi({ type: "string", format: "binary", description: "The image or PDF." }),
    options: z.string().optional().openapi({ description: "JSON text of ProcessOptions.", example: '{"tool":"ocr","export_formats":["txt","json"]}' }),
  })
  .openapi("Body_process");

export const ExportRefOut = z
  .object({
    export_id: z.string(),
    format: z.string(),
    bytes: z.number().int(),
    content_type: z.string(),
    filename: z.string(),
    download: z.string().openapi({ description: "Path that answers a short-lived signed URL." }),
  })
  .openapi("ExportRefOut");

export const JobOut = z
  .object({
    id: z.string().openapi({ example: "job_0a1b2c3d4e5f6g7h8i9j" }),
    status: z.enum(JOB_STATUSES),
    stage: z.string().nullable(),
    tool: z.enum(TOOL_IDS),
    kind: z.string(),
    parent_job_id: z.string().nullable(),
    project_id: z.string().nullable(),
    options: z.record(z.string(), z.unknown()),
    source: z.object({ name: z.string().nullable(), bytes: z.number().int().nullable(), type: z.string().nullable() }),
    progress: z.object({ pages_total: z.number().int(), pages_done: z.number().int(), pages_failed: z.number().int(), percent: z.number().int() }),
    credits: z.object({ reserved: z.number().int(), charged: z.number().int() }),
    output: z.object({ exports: z.array(ExportRefOut) }),
    error: ErrorOut.shape.error.omit({ request_id: true }).nullable(),
    attempt: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
  })
  .openapi("JobOut");

export const JobListOut = z
  .object({ items: z.array(JobOut), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .openapi("JobListOut");

export const JobIdParam = z.object({
  job_id: z.string().min(1).max(64).openapi({ param: { name: "job_id", in: "path" }, example: "job_0a1b2c3d4e5f6g7h8i9j" }),
});

export const JobListQuery = z.object({
  job_status: z.enum(JOB_STATUSES).optional().openapi({ param: { name: "job_status", in: "query" } }),
  job_type: z.enum(TOOL_IDS).optional().openapi({ param: { name: "job_type", in: "query" } }),
  parent_job_id: z.string().max(64).optional().openapi({ param: { name: "parent_job_id", in: "query" } }),
});
