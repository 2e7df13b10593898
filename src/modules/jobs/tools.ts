import { CREDITS_PER_PAGE } from "../billing/pricing";
import { JOB_STATUSES, TERMINAL_JOB_STATUSES, type JobKind, type JobStage, type JobStatus, type Tool } from "../../db/schema/enums";

export { JOB_STATUSES, TERMINAL_JOB_STATUSES, type JobKind, type JobStage, type JobStatus, type Tool };

export const INPUT_FORMATS = ["png", "jpeg", "webp", "gif", "bmp", "tiff", "pnm", "pdf"] as const;

/** A tool a job can run: its pipeline stages after `queued`, inputs, exports and price. */
export interface ToolSpec {
  id: Tool;
  name: string;
  description: string;
  stages: JobStage[];
  inputs: readonly string[];
  export_formats: string[];
  default_exports: string[];
  credits_per_page: number;
  needs_target_language: boolean;
}

export const TOOLS: Record<Tool, ToolSpec> = {
  ocr: {
    id: "ocr",
    name: "Text recognition",
    description: "Text out of images and PDFs, with positions and confidences.",
    stages: ["preprocessing", "detecting", "recognizing", "exporting"],
    inputs: INPUT_FORMATS,
    export_formats: ["txt", "json", "md", "hocr", "alto", "searchable_pdf", "docx", "zip"],
    default_exports: ["txt", "json"],
    credits_per_page: CREDITS_PER_PAGE.ocr,
    needs_target_language: false,
  },
  translate: {
    id: "translate",
    name: "Image translation",
    description: "The page with its text translated in place, plus bilingual text.",
    stages: ["preprocessing", "detecting", "recognizing", "translating", "inpainting", "rendering", "exporting"],
    inputs: INPUT_FORMATS,
    export_formats: ["png", "jpg", "webp", "pdf", "txt", "json", "md", "docx", "searchable_pdf", "hocr", "alto", "zip"],
    default_exports: ["png", "json"],
    credits_per_page: CREDITS_PER_PAGE.translate,
    needs_target_language: true,
  },
  tables: {
    id: "tables",
    name: "Table extraction",
    description: "Tables out of images and PDFs, cell by cell.",
    stages: ["preprocessing", "detecting", "recognizing", "exporting"],
    inputs: INPUT_FORMATS,
    export_formats: ["xlsx", "csv", "json", "md", "docx", "zip"],
    default_exports: ["xlsx", "json"],
    credits_per_page: CREDITS_PER_PAGE.tables,
    needs_target_language: false,
  },
  erase: {
    id: "erase",
    name: "Text removal",
    description: "The image with its text removed (clean plates).",
    stages: ["preprocessing", "detecting", "inpainting", "rendering", "exporting"],
    inputs: INPUT_FORMATS,
    export_formats: ["png", "jpg", "webp", "pdf", "json", "zip"],
    default_exports: ["png"],
    credits_per_page: CREDITS_PER_PAGE.erase,
    needs_target_language: false,
  },
};

export const TOOL_IDS = Object.keys(TOOLS) as [Tool, ...Tool[]];
