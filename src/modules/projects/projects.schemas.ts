import { z } from "@hono/zod-openapi";
import { pathId, queryEnum, resourceOut } from "../../http/openapi";
import { EXPORT_FORMATS, PROJECT_STATUSES, REGION_KINDS, REGION_OVERFLOWS, TOOLS } from "../../db/schema/enums";

export const ProjectIdParam = z.object({ project_id: pathId("project_id", "prj") });
export const RegionIdParam = ProjectIdParam.extend({ region_id: pathId("region_id", "rgn") });
export const TableIdParam = ProjectIdParam.extend({ table_id: pathId("table_id", "tbl") });
export const FolderIdParam = z.object({ folder_id: pathId("folder_id", "fld") });

/** A rectangle in the pixels of the page's normalised image (`PageOut.width` × `height`). */
export const Box = z
  .object({
    x: z.number().int().min(0),
    y: z.number().int().min(0),
    w: z.number().int().min(1),
    h: z.number().int().min(1),
  })
  .openapi("Box");

/** Typesetting of a region's translation; open so the renderer can grow without a schema change. */
export const RegionStyle = z
  .object({
    font_family: z.string().max(100).optional().openapi({
      description:
        "Face the translation is set in first: `lettering` (Comic Neue, set on the balloons of comics and manga), `serif`, `mono`; any other name or none is `sans`. Characters the face lacks fall back to the faces of their script.",
      example: "lettering",
    }),
    font_size: z.number().positive().max(1000).optional(),
    font_weight: z.union([z.number().int().min(100).max(900), z.enum(["normal", "bold"])]).optional(),
    italic: z.boolean().optional(),
    color: z.string().max(32).optional(),
    background: z.string().max(32).nullable().optional(),
    align: z.enum(["left", "center", "right", "justify"]).optional(),
    line_height: z.number().positive().max(10).optional(),
    angle: z.number().min(-360).max(360).optional().openapi({
      description:
        "Degrees clockwise the translation is set turned by, about the centre of its frame or box: it is laid out in the largest rectangle so turned that the frame holds. Set by recognition on a balloon photographed at a slant and on lettering drawn turned; under half a degree is upright.",
      example: -6,
    }),
    frame: z
      .object({ x: z.number().finite(), y: z.number().finite(), w: z.number().finite().min(1), h: z.number().finite().min(1) })
      .optional()
      .openapi({
        description:
          "Pictures: the interior of the balloon or caption box (page pixels) the translation is set in, centred, instead of the region's box; the text never leaves it, and text is removed within it. Set by recognition on pictures.",
        example: { x: 412, y: 96, w: 180, h: 74 },
      }),
    lettering: z.string().max(32).optional().openapi({
      description:
        "`caps`: the original is lettered in capitals (comics), and so is its translation; any other value or none sets it as written.",
      example: "caps",
    }),
  })
  .catchall(z.unknown())
  .openapi("RegionStyle");

export const RegionOut = resourceOut("RegionOut", "rgn", {
  page_id: z.string(),
  page_index: z.number().int().openapi({ description: "0-based page of the region." }),
  order: z.number().int().openapi({ description: "Reading order within the page, from 0." }),
  kind: z.enum(REGION_KINDS),
  box: Box,
  text: z.string().openapi({ description: "Recognised source text (never overwritten by edits)." }),
  user_text: z.string().nullable().openapi({ description: "Source text as corrected by the user; overrides `text` when set." }),
  source_language: z.string().nullable(),
  translation: z.string().nullable().openapi({ description: "Machine translation." }),
  user_translation: z.string().nullable().openapi({ description: "Translation as edited by the user; overrides `translation` when set." }),
  confidence: z.number().nullable(),
  style: RegionStyle.nullable(),
  vertical: z.boolean(),
  overflow: z.enum(REGION_OVERFLOWS).nullable(),
  leftover_text: z.boolean(),
  smear: z.boolean().openapi({
    description:
      "The text removal's fill here differs strongly from the background around it (a visible smear on the clean plate): worth a look in the editor. Set by the inpainting stage.",
  }),
  created_at: z.string(),
  updated_at: z.string(),
});

export const ProjectOut = resourceOut("ProjectOut", "prj", {
  name: z.string(),
  tool: z.enum(TOOLS),
  status: z.enum(PROJECT_STATUSES),
  folder_id: z.string().nullable(),
  source_language: z.string().nullable(),
  target_language: z.string().nullable(),
  page_count: z.number().int(),
  source_job_id: z.string().nullable().openapi({ description: "The job that created the project (null for a duplicate)." }),
  created_at: z.string(),
  updated_at: z.string(),
  trashed_at: z.string().nullable(),
  purge_at: z.string().nullable().openapi({ description: "When a trashed project is deleted for good." }),
});

export const ProjectListOut = z
  .object({ items: z.array(ProjectOut), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .openapi("ProjectListOut");

export const PageOut = z
  .object({
    id: z.string(),
    index: z.number().int(),
    width: z.number().int(),
    height: z.number().int(),
    status: z.string(),
    path: z.string().nullable(),
    rotation: z.number().int(),
    detected_language: z.string().nullable(),
    image_url: z.string().nullable().openapi({ description: "Short-lived signed URL of the page image the boxes refer to." }),
    render_url: z.string().nullable().openapi({ description: "Short-lived signed URL of the rendered (translated or erased) page." }),
  })
  .openapi("PageOut");

/** A cell's place in its table's grid, and its text (what a shared view shows of a cell). */
export const cellPlace = {
  row: z.number().int(),
  column: z.number().int(),
  row_span: z.number().int(),
  column_span: z.number().int(),
  text: z.string(),
};

export const TableCellOut = z.object({ ...cellPlace, confidence: z.number().nullable(), edited: z.boolean() }).openapi("TableCellOut");

export const TableOut = z
  .object({
    id: z.string(),
    page_id: z.string(),
    page_index: z.number().int(),
    box: Box,
    rows: z.number().int(),
    columns: z.number().int(),
    confidence: z.number().nullable(),
    cells: z.array(TableCellOut),
  })
  .openapi("TableOut");

export const ProjectDetailOut = ProjectOut.extend({
  pages: z.array(PageOut),
  regions: z.array(RegionOut).openapi({ description: "Every region, by page then reading order." }),
  tables: z.array(TableOut),
  urls_expire_at: z.string().openapi({ description: "When the signed image URLs stop working; read the project again for new ones." }),
}).openapi("ProjectDetailOut");

export const PROJECT_ORDERS = ["updated_desc", "updated_asc", "created_desc", "created_asc", "name_asc", "name_desc"] as const;

/** `true`/`false`/`1`/`0` as a boolean (z.coerce.boolean would read "false" as true). */
export const QueryBool = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

export const ProjectListQuery = z.object({
  tool: queryEnum("tool", TOOLS),
  project_status: queryEnum("project_status", PROJECT_STATUSES),
  search: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .openapi({
      param: { name: "search", in: "query" },
      description: "Matches the name and the recognised, corrected and translated text.",
    }),
  folder_id: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .openapi({ param: { name: "folder_id", in: "query" } }),
  trash: QueryBool.default(false).openapi({
    param: { name: "trash", in: "query" },
    type: "boolean",
    description: "List the trash instead of the live projects.",
  }),
  order: z
    .enum(PROJECT_ORDERS)
    .default("updated_desc")
    .openapi({ param: { name: "order", in: "query" } }),
});

export const RenameProjectRequest = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    folder_id: z
      .string()
      .min(1)
      .max(64)
      .nullable()
      .optional()
      .openapi({ description: "Move to this folder; null takes it out of its folder." }),
  })
  .strict()
  .refine((b) => b.name !== undefined || b.folder_id !== undefined, { message: "Send name and/or folder_id." })
  .openapi("RenameProjectRequest");

export const DeleteProjectQuery = z.object({
  permanent: QueryBool.default(false).openapi({
    param: { name: "permanent", in: "query" },
    type: "boolean",
    description: "Delete now, with every file, instead of moving to the trash.",
  }),
});

export const FolderOut = z
  .object({ id: z.string(), name: z.string(), project_count: z.number().int(), created_at: z.string(), updated_at: z.string() })
  .openapi("FolderOut");

export const FolderCreateRequest = z
  .object({ name: z.string().trim().min(1).max(200) })
  .strict()
  .openapi("FolderCreateRequest");

export const RerenderRequest = z
  .object({
    pages: z
      .array(z.number().int().min(0).max(100_000))
      .min(1)
      .max(1000)
      .optional()
      .openapi({
        description: "0-based indexes of the pages to redraw; every ready page when omitted. Exports always cover the whole project.",
        example: [0],
      }),
    export_formats: z.array(z.enum(EXPORT_FORMATS)).min(1).max(10).optional().openapi({
      description: "Formats to rebuild; the formats of the job that made the project when omitted. Must be offered by the project's tool.",
    }),
  })
  .strict()
  .openapi("RerenderRequest");

export const ExportRequest = z
  .object({
    format: z.enum(EXPORT_FORMATS),
    content: z
      .enum(["source", "translation"])
      .default("source")
      .openapi({ description: "Export the (corrected) source text or the (edited) translation." }),
  })
  .strict()
  .openapi("ExportRequest");

export const ExportOut = resourceOut("ExportOut", "exp", {
  project_id: z.string().nullable(),
  job_id: z.string().nullable(),
  format: z.enum(EXPORT_FORMATS),
  status: z.string(),
  filename: z.string().nullable(),
  bytes: z.number().int().nullable(),
  content_type: z.string().nullable(),
  download: z.string().nullable().openapi({ description: "Path that answers a short-lived signed URL (when ready)." }),
  created_at: z.string(),
  completed_at: z.string().nullable(),
});
