import type { ExportDocument, ExportRegion, LineText, PageText } from "../../shared/engine-contract";
import { engineError } from "../errors";
import { readJson } from "../storage/r2";
import { textDirection } from "../../shared/text-direction";

/** Which text a text format carries. */
export type ExportContent = "source" | "translation";

/** A region's text for the requested content: the translation when asked and present, else the source. */
export function regionText(r: ExportRegion, content: ExportContent): string {
  return content === "translation" && r.translation ? r.translation : r.text;
}

/** Recognition output (pages of `PageText`) seen as an export document without translations. */
export function documentOfPageTexts(pages: PageText[], title: string): ExportDocument {
  return {
    title,
    sourceLanguage: pages[0]?.languages.join("+") ?? null,
    pages: pages.map((p, i) => ({
      index: i,
      width: p.width,
      height: p.height,
      languages: p.languages,
      confidence: p.confidence,
      regions: p.regions.map((r) => ({ box: r.box, text: r.text, confidence: r.confidence, vertical: r.vertical, lines: r.lines })),
      tables: [],
    })),
  };
}

/** Reads the builder's input: an `ExportDocument` by key, or recognition output by page keys. */
export async function loadDocument(
  files: R2Bucket,
  input: { documentKey?: string; pageTextKeys?: string[] },
  title: string,
): Promise<ExportDocument> {
  if (input.documentKey) {
    const doc = await readJson<ExportDocument>(files, input.documentKey, "export document");
    if (!doc || !Array.isArray(doc.pages)) throw engineError("validation_error", "The export document has no pages.");
    return doc;
  }
  const pages: PageText[] = [];
  for (const key of input.pageTextKeys ?? []) pages.push(await readJson<PageText>(files, key, "page text"));
  return documentOfPageTexts(pages, title);
}

/**
 * A region's lines with words: the recognised ones, or (edited text, user regions) the text's
 * own lines spread evenly over the box with words apportioned by length, so layout formats
 * (hOCR, ALTO, the PDF text layer) always have positions.
 */
export function linesOf(r: ExportRegion, content: ExportContent): LineText[] {
  const text = regionText(r, content);
  const recognised = r.lines ?? [];
  const joined = recognised.map((l) => l.text).join("\n");
  if (
    recognised.length &&
    content === "source" &&
    joined.replace(/\s+/g, " ").trim() === text.replace(/\s+/g, " ").trim() &&
    recognised.every((l) => l.words?.length)
  )
    return recognised;
  const rows = text
    .split(/\n+/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (rows.length === 0) return [];
  const h = r.box.h / rows.length;
  return rows.map((row, i) => {
    const y = r.box.y + i * h;
    const words = row.split(/\s+/);
    const total = words.reduce((n, w) => n + w.length, 0) + (words.length - 1);
    // Right-to-left text is laid out from the box's right edge, words kept in reading order.
    const rtl = textDirection(row) === "rtl";
    let x = r.box.x;
    return {
      box: { x: r.box.x, y, w: r.box.w, h },
      text: row,
      confidence: r.confidence ?? 1,
      words: words.map((w) => {
        const ww = (r.box.w * w.length) / Math.max(1, total);
        const box = { x: rtl ? 2 * r.box.x + r.box.w - x - ww : x, y, w: ww, h };
        x += ww + r.box.w / Math.max(1, total);
        return { box, text: w, confidence: r.confidence ?? 1 };
      }),
    };
  });
}
