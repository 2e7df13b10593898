import type { JobRow } from "../../modules/jobs/jobs.repo";

const HEADER = ["file", "child_job_id", "status", "pages", "pages_succeeded", "pages_failed", "credits", "error_code", "error_message"];

/** RFC 4180 field: quoted when it holds a comma, quote or line break; leading =+-@ neutralised against spreadsheet formulas. */
function field(v: string | number | null | undefined): string {
  let s = v === null || v === undefined ? "" : String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** The batch report: one row per file, in upload order. */
export function batchReportCsv(children: JobRow[]): string {
  const rows = children.map((c) => [
    c.sourceName,
    c.id,
    c.status,
    c.pagesTotal,
    c.pagesDone,
    c.pagesFailed,
    c.creditsCharged,
    c.error?.code ?? "",
    c.error?.message ?? "",
  ]);
  return [HEADER, ...rows].map((r) => r.map(field).join(",")).join("\r\n") + "\r\n";
}

/** The ZIP folder of a child: its position and its file name, so two files with the same name stay apart. */
export function childFolder(child: JobRow): string {
  const base = (child.sourceName ?? "file").replace(/[^\w.-]+/g, "_").slice(0, 80) || "file";
  return `${String((child.batchIndex ?? 0) + 1).padStart(3, "0")}-${base}`;
}
