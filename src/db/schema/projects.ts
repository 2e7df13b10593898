import { sql } from "drizzle-orm";
import { type AnySQLiteColumn, check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { ownedRow, users } from "./auth";
import { bool, createdAt, id, ms, parent, timestamps } from "./columns";
import {
  EXPORT_FORMATS,
  EXPORT_STATUSES,
  PAGE_PATHS,
  PAGE_STATUSES,
  PROJECT_STATUSES,
  REGION_KINDS,
  REGION_OVERFLOWS,
  TOOLS,
} from "./enums";
import { jobs } from "./jobs";
import type { RegionLine, RegionStyle, StoredError } from "./types";

/** Folders group projects (list filter `folder_id`). */
export const folders = sqliteTable(
  "folders",
  {
    ...ownedRow(), // fld_…
    name: text("name").notNull(),
    ...timestamps(),
  },
  (t) => [index("folders_user_name_idx").on(t.userId, t.name)],
);

/**
 * A project holds the pages, regions and tables of one processed document.
 * Trash is a soft delete (`trashed_at`); a permanent delete removes the row and cascades.
 */
export const projects = sqliteTable(
  "projects",
  {
    ...ownedRow(), // prj_…
    folderId: text("folder_id").references(() => folders.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    tool: text("tool", { enum: TOOLS }).notNull(),
    status: text("status", { enum: PROJECT_STATUSES }).notNull().default("processing"),
    sourceLanguage: text("source_language"),
    targetLanguage: text("target_language"),
    pageCount: integer("page_count").notNull().default(0),
    /** R2 key of a small preview of the first page. */
    thumbnailKey: text("thumbnail_key"),
    /** The job that created the project (kept when that job is deleted: set null). */
    sourceJobId: text("source_job_id").references((): AnySQLiteColumn => jobs.id, { onDelete: "set null" }),
    ...timestamps(),
    trashedAt: ms("trashed_at"),
  },
  (t) => [
    // Listing: scoped to the user, trash or not, ordered by updated (default) or created.
    index("projects_user_trash_updated_idx").on(t.userId, t.trashedAt, t.updatedAt),
    index("projects_user_trash_created_idx").on(t.userId, t.trashedAt, t.createdAt),
    index("projects_user_tool_idx").on(t.userId, t.tool),
    index("projects_folder_idx").on(t.folderId),
    index("projects_source_job_idx").on(t.sourceJobId),
    // Trash purge (cron).
    index("projects_trashed_at_idx").on(t.trashedAt),
  ],
);

/** Pages of a project with their images in R2 FILES. Coordinates of regions are in `image_key` pixels. */
export const pages = sqliteTable(
  "pages",
  {
    id: id(), // pg_…
    projectId: parent("project_id", () => projects.id),
    /** 0-based position in the document. */
    pageIndex: integer("page_index").notNull(),
    width: integer("width").notNull().default(0),
    height: integer("height").notNull().default(0),
    /** Original page image (or source PDF page). */
    sourceKey: text("source_key"),
    /** Normalised (preprocessed) page image that recognition and editing work on. */
    imageKey: text("image_key"),
    /** Text mask and clean plate (text removed) for erase/translate. */
    maskKey: text("mask_key"),
    cleanKey: text("clean_key"),
    /** Final rendered page (translated or erased). */
    renderKey: text("render_key"),
    path: text("path", { enum: PAGE_PATHS }),
    status: text("status", { enum: PAGE_STATUSES }).notNull().default("pending"),
    errorCode: text("error_code"),
    /** Clockwise rotation applied during preprocessing: 0, 90, 180 or 270. */
    rotation: integer("rotation").notNull().default(0),
    detectedLanguage: text("detected_language"),
    ...timestamps(),
  },
  (t) => [uniqueIndex("pages_project_index_unique").on(t.projectId, t.pageIndex)],
);

/** Text regions of a page: recognised text, translation, user edits and typesetting. */
export const regions = sqliteTable(
  "regions",
  {
    id: id(), // rgn_…
    projectId: parent("project_id", () => projects.id),
    pageId: parent("page_id", () => pages.id),
    /** Reading order within the page. */
    readingOrder: integer("reading_order").notNull().default(0),
    kind: text("kind", { enum: REGION_KINDS }).notNull().default("text"),
    x: integer("x").notNull(),
    y: integer("y").notNull(),
    w: integer("w").notNull(),
    h: integer("h").notNull(),
    /** Recognised source text. */
    text: text("text").notNull().default(""),
    /** Source text as corrected by the user; overrides `text` when set. */
    userText: text("user_text"),
    sourceLanguage: text("source_language"),
    /** Machine translation. */
    translation: text("translation"),
    /** Translation as edited by the user; overrides `translation` and survives re-translation of other regions. */
    userTranslation: text("user_translation"),
    /** Mean recognition confidence, 0..1 (null for text-layer or user-created regions). */
    confidence: real("confidence"),
    lines: text("lines", { mode: "json" }).$type<RegionLine[]>(),
    style: text("style", { mode: "json" }).$type<RegionStyle>(),
    vertical: bool("vertical").notNull().default(false),
    overflow: text("overflow", { enum: REGION_OVERFLOWS }),
    /** Source-language text may still be visible after inpainting (flag for review). */
    leftoverText: bool("leftover_text").notNull().default(false),
    /** The text removal's fill differs strongly from the background around it (visible smear; flag for review). */
    smear: bool("smear").notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    index("regions_page_order_idx").on(t.pageId, t.readingOrder),
    index("regions_project_idx").on(t.projectId),
    check("regions_box_nonnegative", sql`"w" >= 0 AND "h" >= 0`),
  ],
);

/** Tables detected on a page (tool `tables`). */
export const tables = sqliteTable(
  "tables",
  {
    id: id(), // tbl_…
    projectId: parent("project_id", () => projects.id),
    pageId: parent("page_id", () => pages.id),
    x: integer("x").notNull(),
    y: integer("y").notNull(),
    w: integer("w").notNull(),
    h: integer("h").notNull(),
    rows: integer("rows").notNull(),
    cols: integer("cols").notNull(),
    confidence: real("confidence"),
    ...timestamps(),
  },
  (t) => [index("tables_page_idx").on(t.pageId), index("tables_project_idx").on(t.projectId)],
);

/** Cells of a table; a merged cell is stored once at its top-left position with its spans. */
export const tableCells = sqliteTable(
  "table_cells",
  {
    tableId: parent("table_id", () => tables.id),
    row: integer("row").notNull(),
    col: integer("col").notNull(),
    rowSpan: integer("row_span").notNull().default(1),
    colSpan: integer("col_span").notNull().default(1),
    text: text("text").notNull().default(""),
    confidence: real("confidence"),
    /** Set when the user edited the cell. */
    editedAt: ms("edited_at"),
  },
  (t) => [primaryKey({ name: "table_cells_pk", columns: [t.tableId, t.row, t.col] })],
);

/** Export files of a project (or of a batch job, which has no project). Table `exports` (named exportFiles in TS: `exports` is a CommonJS global). */
export const exportFiles = sqliteTable(
  "exports",
  {
    ...ownedRow(), // exp_…
    projectId: text("project_id").references(() => projects.id, { onDelete: "cascade" }),
    jobId: text("job_id").references((): AnySQLiteColumn => jobs.id, { onDelete: "set null" }),
    format: text("format", { enum: EXPORT_FORMATS }).notNull(),
    status: text("status", { enum: EXPORT_STATUSES }).notNull().default("pending"),
    /** R2 FILES key of the file once ready. */
    key: text("key"),
    filename: text("filename"),
    bytes: integer("bytes"),
    contentType: text("content_type"),
    error: text("error", { mode: "json" }).$type<StoredError>(),
    createdAt: createdAt(),
    completedAt: ms("completed_at"),
    expiresAt: ms("expires_at"),
  },
  (t) => [
    index("exports_project_created_idx").on(t.projectId, t.createdAt),
    index("exports_user_created_idx").on(t.userId, t.createdAt),
    index("exports_job_idx").on(t.jobId),
    index("exports_expires_idx").on(t.expiresAt),
    check("exports_owner", sql`"project_id" IS NOT NULL OR "job_id" IS NOT NULL`),
  ],
);

/** Public share links of a project. Only the token hash is stored, with a display prefix. */
export const shares = sqliteTable(
  "shares",
  {
    ...ownedRow(), // shr_…
    projectId: parent("project_id", () => projects.id),
    tokenHash: text("token_hash").notNull(),
    tokenPrefix: text("token_prefix").notNull(),
    /** Optional password (same KDF string format as users.password_hash). */
    passwordHash: text("password_hash"),
    allowDownload: bool("allow_download").notNull().default(true),
    viewCount: integer("view_count").notNull().default(0),
    lastViewedAt: ms("last_viewed_at"),
    createdAt: createdAt(),
    expiresAt: ms("expires_at"),
    revokedAt: ms("revoked_at"),
  },
  (t) => [
    uniqueIndex("shares_token_hash_unique").on(t.tokenHash),
    index("shares_project_created_idx").on(t.projectId, t.createdAt),
    index("shares_user_idx").on(t.userId),
    index("shares_expires_idx").on(t.expiresAt),
  ],
);
