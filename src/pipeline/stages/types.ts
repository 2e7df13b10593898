import type { PageKind, PagePath, PreprocessResult } from "../../../workers/shared/engine-contract";
import type { DB } from "../../db/client";
import type { JobKind, JobStage, Tool } from "../../modules/jobs/tools";

/** What the workflow carries between steps: small and serialisable (ARCHITECTURE §2). */
export interface JobPlan {
  jobId: string;
  attempt: number;
  kind: JobKind;
  userId: string;
  projectId: string | null;
  tool: Tool;
  /** Pages of the job: the whole document, or the pages a re-render redraws. */
  pages: number;
  /** Pages this attempt runs: all of the job's at first, the ones not completed on a retry. */
  pagesToRun: number[];
  /** Pages the exports cover (minus pages that fail): the job's, or every ready page of a re-rendered project. */
  exportPages: number[];
  sourceKey: string | null;
  languages: string[];
  /** How PDF text layers are used (CreateJobRequest.ocr_mode). */
  ocrMode?: "auto" | "force" | "redo";
  /** How pages are read (CreateJobRequest.page_kind). */
  pageKind?: PageKind;
  targetLanguage: string | null;
  formats: string[];
  baseName: string;
  /** The owner's plan concurrency: how many of its jobs may run at once. */
  concurrency: number;
}

export interface StageContext {
  env: Env;
  db: DB;
  plan: JobPlan;
  page: number;
  /** Pages of the document being read at once as this page's stages run, this one included (1 when absent). */
  pagesInFlight?: number;
}

/** What a page stage reports: small counts, and warnings that do not fail the page. */
export interface StageResult {
  regions?: number;
  /** Preprocessing: how the page's text is obtained (`text_layer`: read from the PDF, no recognition). */
  path?: PagePath;
  /** Preprocessing of a text-layer page: the engine's detection and recognition answers, already stored. */
  read?: PreprocessResult["read"];
  warnings?: { code: string; message: string }[];
}

/**
 * One pipeline stage for one page. It reads its inputs from R2/D1 by keys derived from the job and
 * page, writes its outputs the same way (so a retried step overwrites, never duplicates), and
 * throws `[code] message` errors: NonRetryableError for failures a retry cannot fix.
 */
export type StageHandler = (ctx: StageContext) => Promise<StageResult>;

export type PageStage = Exclude<JobStage, "exporting">;
