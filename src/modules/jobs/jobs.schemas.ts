import { z } from "@hono/zod-openapi";
import { ErrorOut, pathId, queryEnum, resourceOut } from "../../http/openapi";
import { JOB_KINDS } from "../../db/schema/enums";
import { JOB_STATUSES, TOOL_IDS, TOOLS } from "./tools";

const allFormats = [...new Set(Object.values(TOOLS).flatMap((t) => t.export_formats))] as [string, ...string[]];

/** Processing options: the JSON text of the multipart `options` field, and the body of POST /estimate. */
export const CreateJobRequest = z
  .object({
    tool: z.enum(TOOL_IDS).default("ocr").openapi({ description: "What to do with the file." }),
    source_language: z
      .string()
      .regex(/^(auto|[a-z]{2,3}(_[a-z]{2,4}){0,2}(\+[a-z]{2,3}(_[a-z]{2,4}){0,2}){0,2})$/)
      .default("en")
      .openapi({
        description:
          "Language of the text: ISO 639-1 like `ar`, or a tesseract code like `ara` or `jpn_vert` (GET /api/v1/languages lists them; `ja`, `zh` and `ko` read a page in columns with the vertical model); up to three joined by `+` for pages in several languages (`en+ar`); or `auto` to detect each page's script and language.",
        example: "en",
      }),
    target_language: z
      .string()
      .regex(/^[a-z]{2,3}$/)
      .optional()
      .openapi({ description: "Translation target (tool `translate`).", example: "es" }),
    export_formats: z.array(z.enum(allFormats)).min(1).max(10).optional().openapi({ description: "Result formats; defaults per tool." }),
    name: z.string().trim().min(1).max(200).optional().openapi({ description: "Project name; defaults to the file name." }),
    ocr_mode: z.enum(["auto", "force", "redo"]).optional().openapi({
      description:
        "How PDF text layers are used (default `auto`). `auto`: a plausible text layer is taken as it is, other pages are recognised; `force`: every page is recognised, text layers are ignored; `redo`: invisible text from an earlier OCR is replaced by a new recognition, visible text is kept.",
      example: "auto",
    }),
    page_kind: z.enum(["auto", "document", "picture"]).optional().openapi({
      description:
        "How pages are read (default `auto`). `document`: scans and documents — turned upright, deskewed, read with the page's layout; `picture`: comics, manga, photos — text found in its balloons, captions and plates and read block by block, the page never turned and its colour kept; `auto` decides per image (tables are always read as documents).",
      example: "auto",
    }),
    glossary_ids: z
      .array(z.string().min(1).max(64))
      .max(10)
      .optional()
      .openapi({ description: "Glossaries whose terms the translation must keep (tool `translate`)." }),
  })
  .strict()
  .openapi("CreateJobRequest");

/** A multipart upload: the file part(s) and the processing options as JSON text. */
function uploadBody(name: string, file: z.ZodType, options: { description: string; example: string }) {
  return z.object({ file, options: z.string().optional().openapi(options) }).openapi(name);
}

export const ProcessBody = uploadBody(
  "Body_process",
  z.any().openapi({ type: "string", format: "binary", description: "The image or PDF." }),
  { description: "JSON text of CreateJobRequest.", example: '{"tool":"ocr","export_formats":["txt","json"]}' },
);

export const BatchBody = uploadBody(
  "Body_upload_batch",
  z.any().openapi({
    type: "array",
    items: { type: "string", format: "binary" },
    description: "The files, one multipart part named `file` each (count and total size limited; see /api/v1/config).",
  }),
  { description: "JSON text of CreateJobRequest, applied to every file.", example: '{"tool":"ocr"}' },
);

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

export const JobOut = resourceOut("JobOut", "job", {
  status: z.enum(JOB_STATUSES),
  stage: z.string().nullable().openapi({ description: "The stage running now; null when queued or finished." }),
  tool: z.enum(TOOL_IDS),
  kind: z.enum(JOB_KINDS).openapi({ description: "single (one upload), batch (parent of one child per file) or rerender." }),
  parent_job_id: z.string().nullable(),
  project_id: z.string().nullable(),
  options: z.record(z.string(), z.unknown()),
  source: z.object({ name: z.string().nullable(), bytes: z.number().int().nullable(), type: z.string().nullable() }),
  progress: z.object({ percent: z.number().int().min(0).max(100) }),
  pages: z
    .object({ total: z.number().int(), succeeded: z.number().int(), failed: z.number().int() })
    .openapi({ description: "For a batch parent: summed over its files." }),
  cost: z
    .object({
      estimated: z.number().int().openapi({ description: "Price of the whole document (POST /estimate computes the same)." }),
      reserved: z.number().int().openapi({ description: "Credits held for the running attempt." }),
      charged: z.number().int().openapi({ description: "Credits charged so far (pages delivered)." }),
    })
    .openapi({ description: "In credits." }),
  batch: z
    .object({
      files_total: z.number().int(),
      files_completed: z.number().int(),
      files_partially_completed: z.number().int(),
      files_failed: z.number().int(),
      files_pending: z.number().int(),
    })
    .nullable()
    .openapi({ description: "A batch parent's files by outcome; null for other jobs." }),
  output: z.object({ exports: z.array(ExportRefOut) }),
  error: ErrorOut.shape.error.omit({ request_id: true }).nullable(),
  attempt: z.number().int().openapi({ description: "0 for the first run, +1 per retry." }),
  created_at: z.string(),
  updated_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});

export const JobListOut = z
  .object({ items: z.array(JobOut), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .openapi("JobListOut");

export const JobIdParam = z.object({
  job_id: pathId("job_id", "job"),
});

export const JobListQuery = z.object({
  job_status: queryEnum("job_status", JOB_STATUSES),
  job_type: queryEnum("job_type", TOOL_IDS),
  parent_job_id: z
    .string()
    .max(64)
    .optional()
    .openapi({ param: { name: "parent_job_id", in: "query" } }),
});

export const EstimateQuery = z.object({
  pages: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .openapi({ param: { name: "pages", in: "query" }, example: 3 }),
});

export const CostEstimateOut = z
  .object({
    tool: z.enum(TOOL_IDS),
    pages: z.number().int(),
    credits_per_page: z.number().int(),
    credits: z
      .number()
      .int()
      .openapi({ description: "What a job with these options and pages reserves, and charges when every page succeeds." }),
    plan: z.string(),
    page_limit: z.number().int(),
    within_page_limit: z.boolean(),
    available_credits: z.number().int(),
    sufficient_credits: z.boolean(),
  })
  .openapi("CostEstimateOut");
