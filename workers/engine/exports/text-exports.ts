import type { BuiltExport, ExportFormat, PageText } from "../contract";
import { writeObject } from "../storage/r2";

/** Plain text: regions separated by a blank line, pages by a form feed. */
export function renderTxt(pages: PageText[]): string {
  return pages.map((p) => p.regions.map((r) => r.text).join("\n\n")).join("\n\f") + "\n";
}

/** Structured JSON: every page with its regions, lines and words, boxes and confidences. */
export function renderJson(pages: PageText[]): string {
  return JSON.stringify({
    version: 1,
    pages: pages.map((p, i) => ({
      page: i + 1,
      width: p.width,
      height: p.height,
      languages: p.languages,
      confidence: p.confidence,
      text: p.text,
      regions: p.regions,
    })),
  });
}

const RENDERERS: Record<ExportFormat, { ext: string; contentType: string; render: (pages: PageText[]) => string }> = {
  txt: { ext: "txt", contentType: "text/plain; charset=utf-8", render: renderTxt },
  json: { ext: "json", contentType: "application/json", render: renderJson },
};

export function isTextExportFormat(f: string): f is ExportFormat {
  return Object.hasOwn(RENDERERS, f);
}

export async function writeTextExport(files: R2Bucket, pages: PageText[], format: ExportFormat, outPrefix: string, baseName: string): Promise<BuiltExport> {
  const r = RENDERERS[format];
  const key = `${outPrefix}${baseName}.${r.ext}`;
  const bytes = await writeObject(files, key, r.render(pages), r.contentType);
  return { format, key, bytes, contentType: r.contentType };
}
