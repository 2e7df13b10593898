import type { ExportDocument, ExportTable } from "../../shared/engine-contract";
import { type ExportContent, regionText } from "./document";

/** Plain text: regions in reading order separated by a blank line, pages by a form feed. */
export function renderTxt(doc: ExportDocument, content: ExportContent): string {
  return doc.pages.map((p) => p.regions.map((r) => regionText(r, content)).join("\n\n")).join("\n\f") + "\n";
}

/** Structured JSON: pages, regions (box, confidence, lines and words, text and translation), tables. */
export function renderJson(doc: ExportDocument): string {
  return JSON.stringify({
    version: 1,
    title: doc.title,
    source_language: doc.sourceLanguage ?? null,
    target_language: doc.targetLanguage ?? null,
    pages: doc.pages.map((p) => ({
      page: p.index + 1,
      width: p.width,
      height: p.height,
      languages: p.languages ?? [],
      confidence: p.confidence ?? null,
      text: p.regions.map((r) => r.text).join("\n\n"),
      regions: p.regions.map((r, i) => ({
        order: i,
        kind: r.kind ?? "text",
        box: r.box,
        text: r.text,
        translation: r.translation ?? null,
        confidence: r.confidence ?? null,
        vertical: !!r.vertical,
        lines: r.lines ?? [],
      })),
      tables: (p.tables ?? []).map((t) => ({ box: t.box, rows: t.rows, columns: t.cols, cells: t.cells })),
    })),
  });
}

/** A table as a grid of texts (merged cells: text at the top-left position, covered positions empty). */
export function tableGrid(t: ExportTable): string[][] {
  const grid = Array.from({ length: t.rows }, () => Array.from({ length: t.cols }, () => ""));
  for (const c of t.cells) if (c.row < t.rows && c.col < t.cols) grid[c.row]![c.col] = c.text;
  return grid;
}

const mdCell = (s: string) =>
  s
    .replace(/\|/g, "\\|")
    .replace(/\s*\n\s*/g, "<br>")
    .trim();

function mdTable(t: ExportTable): string {
  const grid = tableGrid(t);
  if (grid.length === 0) return "";
  const [head, ...rows] = grid;
  const line = (r: string[]) => `| ${r.map(mdCell).join(" | ")} |`;
  return [line(head!), `|${head!.map(() => " --- ").join("|")}|`, ...rows.map(line)].join("\n");
}

const HEADING_KINDS = new Set(["heading"]);

/**
 * Markdown: headings (regions of kind `heading`, or a page's short first region in a larger
 * type), paragraphs in reading order, and tables as pipe tables placed where they sit on the page.
 * Regions inside a table's box are left to the table.
 */
export function renderMarkdown(doc: ExportDocument, content: ExportContent): string {
  const out: string[] = [`# ${doc.title}`];
  for (const p of doc.pages) {
    if (doc.pages.length > 1) out.push(`## Page ${p.index + 1}`);
    const tables = p.tables ?? [];
    const inside = (b: { x: number; y: number; w: number; h: number }) =>
      tables.some(
        (t) =>
          b.x + b.w / 2 >= t.box.x && b.x + b.w / 2 <= t.box.x + t.box.w && b.y + b.h / 2 >= t.box.y && b.y + b.h / 2 <= t.box.y + t.box.h,
      );
    const items: { y: number; md: string }[] = [];
    const tableItems = tables.map((t) => ({ y: t.box.y, md: mdTable(t) })).sort((a, b) => a.y - b.y);
    const heights = p.regions.flatMap((r) => (r.lines ?? []).map((l) => l.box.h)).sort((a, b) => a - b);
    const typical = heights.length ? heights[heights.length >> 1]! : 0;
    for (const r of p.regions) {
      if (inside(r.box)) continue;
      const text = regionText(r, content).trim();
      if (!text) continue;
      const lineH = r.lines?.length ? r.lines.reduce((s, l) => s + l.box.h, 0) / r.lines.length : 0;
      const heading =
        HEADING_KINDS.has(r.kind ?? "") || (typical > 0 && lineH > typical * 1.35 && text.length < 120 && !text.includes("\n"));
      items.push({
        y: r.box.y,
        md: heading
          ? `${doc.pages.length > 1 ? "###" : "##"} ${text.replace(/\s+/g, " ")}`
          : text.replace(/\n(?!\n)/g, " ").replace(/([\\`*_#])/g, "\\$1"),
      });
    }
    // Regions keep reading order; each table goes before the first region that starts below it.
    for (const r of items) {
      while (tableItems.length && tableItems[0]!.y < r.y) out.push(tableItems.shift()!.md);
      out.push(r.md);
    }
    for (const t of tableItems) out.push(t.md);
  }
  return out.join("\n\n") + "\n";
}

/** CSV (RFC 4180): fields quoted when they hold a comma, quote or line break; CRLF line ends. */
export function renderCsv(t: ExportTable): string {
  const field = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  return (
    tableGrid(t)
      .map((r) => r.map(field).join(","))
      .join("\r\n") + "\r\n"
  );
}
