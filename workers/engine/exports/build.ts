import { zipSync } from "fflate";
import { EXPORT_FORMATS, type BuiltExport, type ExportDocument, type ExportFormat } from "../../shared/engine-contract";
import { engineError } from "../errors";
import { IMAGE_CONTENT_TYPES, type ImageEncoding } from "../inpaint/rgba";
import { writeObject } from "../storage/r2";
import type { ExportContent } from "./document";
import { renderAlto, renderHocr } from "./layout-formats";
import { renderDocx, renderXlsx, sheetsOf } from "./ooxml";
import { pageImageFile } from "./page-image";
import { renderPdf } from "./pdf-export";
import { renderCsv, renderJson, renderMarkdown, renderTxt } from "./text-formats";

/** One file of an export. */
interface ExportFile {
  name: string;
  body: Uint8Array | string;
}

const SINGLE: Record<Exclude<ExportFormat, "csv" | "png" | "jpg" | "webp" | "zip">, { ext: string; contentType: string }> = {
  txt: { ext: "txt", contentType: "text/plain; charset=utf-8" },
  json: { ext: "json", contentType: "application/json" },
  md: { ext: "md", contentType: "text/markdown; charset=utf-8" },
  hocr: { ext: "hocr", contentType: "application/xhtml+xml; charset=utf-8" },
  alto: { ext: "alto.xml", contentType: "application/xml; charset=utf-8" },
  docx: { ext: "docx", contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" },
  xlsx: { ext: "xlsx", contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" },
  searchable_pdf: { ext: "pdf", contentType: "application/pdf" },
  pdf: { ext: "pdf", contentType: "application/pdf" },
};

export function isExportFormat(f: string): f is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(f);
}

/** What `zip` alone bundles: every format that applies to the document. */
function applicable(doc: ExportDocument): ExportFormat[] {
  const rendered = doc.pages.some((p) => p.renderKey);
  const tables = doc.pages.some((p) => (p.tables ?? []).length);
  return [
    "txt",
    "json",
    "md",
    "searchable_pdf",
    "docx",
    ...(tables ? (["xlsx", "csv"] as const) : []),
    ...(rendered ? (["pdf", "png"] as const) : []),
  ];
}

/** The files of one format: most formats are one file; CSV is one per table, images one per page. */
async function filesOf(
  files: R2Bucket,
  doc: ExportDocument,
  format: Exclude<ExportFormat, "zip">,
  content: ExportContent,
  base: string,
): Promise<ExportFile[]> {
  switch (format) {
    case "txt":
      return [{ name: `${base}.txt`, body: renderTxt(doc, content) }];
    case "json":
      return [{ name: `${base}.json`, body: renderJson(doc) }];
    case "md":
      return [{ name: `${base}.md`, body: renderMarkdown(doc, content) }];
    case "hocr":
      return [{ name: `${base}.hocr`, body: renderHocr(doc, "source") }];
    case "alto":
      return [{ name: `${base}.alto.xml`, body: renderAlto(doc, "source") }];
    case "docx":
      return [{ name: `${base}.docx`, body: renderDocx(doc, content) }];
    case "xlsx":
      return [{ name: `${base}.xlsx`, body: renderXlsx(doc) }];
    case "searchable_pdf":
      return [{ name: `${base}.pdf`, body: await renderPdf(files, doc, format) }];
    case "pdf":
      return [{ name: `${base}-rendered.pdf`, body: await renderPdf(files, doc, format) }];
    case "csv": {
      const sheets = sheetsOf(doc);
      if (sheets.length === 1 && !sheets[0]!.table) {
        const field = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
        return [{ name: `${base}.csv`, body: sheets[0]!.grid.map((r) => r.map(field).join(",")).join("\r\n") + "\r\n" }];
      }
      return sheets.map((s, i) => ({
        name: sheets.length === 1 ? `${base}.csv` : `${base}-table-${i + 1}.csv`,
        body: renderCsv(s.table!),
      }));
    }
    case "png":
    case "jpg":
    case "webp": {
      const out: ExportFile[] = [];
      for (const p of doc.pages) {
        const key = p.renderKey ?? p.imageKey;
        if (!key) continue;
        const name = doc.pages.length === 1 ? `${base}.${format}` : `${base}-page-${String(p.index + 1).padStart(3, "0")}.${format}`;
        out.push({ name, body: await pageImageFile(files, p, key, format as ImageEncoding) });
      }
      if (out.length === 0) throw engineError("validation_error", `No page has an image to export as ${format}.`);
      return out;
    }
  }
}

const enc = new TextEncoder();
const bytesOf = (b: Uint8Array | string) => (typeof b === "string" ? enc.encode(b) : b);

/**
 * Builds each requested format into R2 under `outPrefix`. A format that makes several files
 * (CSV of several tables, images of several pages) is delivered as `<base>-<format>.zip`;
 * `zip` bundles the other requested formats (all applicable ones when asked alone).
 */
export async function buildAll(
  files: R2Bucket,
  doc: ExportDocument,
  formats: ExportFormat[],
  content: ExportContent,
  outPrefix: string,
  base: string,
): Promise<BuiltExport[]> {
  const built: BuiltExport[] = [];
  const made = new Map<ExportFormat, ExportFile[]>();
  const wanted = [...new Set(formats)];
  for (const format of wanted) {
    if (format === "zip") continue;
    const parts = await filesOf(files, doc, format, content, base);
    made.set(format, parts);
    const single = parts.length === 1;
    const name = single ? parts[0]!.name : `${base}-${format}.zip`;
    const body = single ? bytesOf(parts[0]!.body) : zipSync(Object.fromEntries(parts.map((f) => [f.name, bytesOf(f.body)])), { level: 6 });
    const contentType = !single
      ? "application/zip"
      : format === "csv"
        ? "text/csv; charset=utf-8"
        : format in IMAGE_CONTENT_TYPES
          ? IMAGE_CONTENT_TYPES[format as ImageEncoding]
          : SINGLE[format as keyof typeof SINGLE].contentType;
    const key = `${outPrefix}${name}`;
    built.push({ format, key, bytes: await writeObject(files, key, body, contentType), contentType, filename: name });
  }
  if (wanted.includes("zip")) {
    const inner = wanted.length > 1 ? wanted.filter((f) => f !== "zip") : applicable(doc);
    const entries: Record<string, Uint8Array> = {};
    for (const f of inner) {
      const parts = made.get(f) ?? (await filesOf(files, doc, f as Exclude<ExportFormat, "zip">, content, base));
      for (const p of parts) entries[p.name] = bytesOf(p.body);
    }
    const name = `${base}.zip`;
    const key = `${outPrefix}${name}`;
    built.push({
      format: "zip",
      key,
      bytes: await writeObject(files, key, zipSync(entries, { level: 6 }), "application/zip"),
      contentType: "application/zip",
      filename: name,
    });
  }
  return built;
}
