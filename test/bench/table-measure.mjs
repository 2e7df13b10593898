// The ICDAR 2013 Table Competition's structure measure (see ../shared/corpus/README.md): adjacency
// relations between non-empty cells, contents normalised, matched as multisets per document.
import { readFileSync } from "node:fs";

/** NFKC, lower case, letters and digits only. */
export const normalise = (s) =>
  s
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, "");

const attr = (tag, name) => tag.match(new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`))?.[1];
const unescape = (s) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");

/** Ground-truth tables of `eu-NNN-str.xml`: per table region its page (1-based), box (PDF points, origin bottom-left) and cells. */
export function groundTruth(strXml, regXml) {
  const boxes = [...regXml.matchAll(/<region\b([^>]*)>[\s\S]*?<bounding-box\b([^>]*)\/>/g)].map((m) => ({
    page: Number(attr(m[1], "page")),
    box: ["x1", "y1", "x2", "y2"].map((k) => Number(attr(m[2], k))),
  }));
  const regions = [];
  for (const table of strXml.matchAll(/<table\b[^>]*>([\s\S]*?)<\/table>/g)) {
    for (const region of table[1].matchAll(/<region\b([^>]*)>([\s\S]*?)<\/region>/g)) {
      const cells = [...region[2].matchAll(/<cell\b([^>]*)>([\s\S]*?)<\/cell>/g)].map((c) => {
        const row = Number(attr(c[1], "start-row"));
        const col = Number(attr(c[1], "start-col"));
        const endRow = attr(c[1], "end-row");
        const endCol = attr(c[1], "end-col");
        return {
          row,
          col,
          rowSpan: (endRow === undefined ? row : Number(endRow)) - row + 1,
          colSpan: (endCol === undefined ? col : Number(endCol)) - col + 1,
          text: unescape(c[2].match(/<content>([\s\S]*?)<\/content>/)?.[1] ?? ""),
        };
      });
      regions.push({ page: Number(attr(region[1], "page")), cells });
    }
  }
  // Region boxes come from the -reg file in the same order as the -str file's regions.
  regions.forEach((r, i) => (r.box = boxes[i]?.box ?? null));
  return regions;
}

export function loadDocument(dir, name) {
  return groundTruth(readFileSync(`${dir}/${name}-str.xml`, "utf8"), readFileSync(`${dir}/${name}-reg.xml`, "utf8"));
}

/** Adjacency relations of one table (cells: row, col, rowSpan, colSpan, text) as "dir\tA\tB" keys. */
export function relations(cells) {
  const at = new Map();
  const norm = cells.map((c) => normalise(c.text));
  cells.forEach((c, i) => {
    if (!norm[i]) return;
    for (let r = c.row; r < c.row + c.rowSpan; r++) for (let k = c.col; k < c.col + c.colSpan; k++) at.set(`${r},${k}`, i);
  });
  const rows = Math.max(0, ...cells.map((c) => c.row + c.rowSpan));
  const cols = Math.max(0, ...cells.map((c) => c.col + c.colSpan));
  const out = [];
  cells.forEach((c, i) => {
    if (!norm[i]) return;
    const seen = new Set();
    for (let r = c.row; r < c.row + c.rowSpan; r++) {
      for (let k = c.col + c.colSpan; k < cols; k++) {
        const j = at.get(`${r},${k}`);
        if (j === undefined || j === i) continue;
        if (!seen.has(`h${j}`)) (out.push(`h\t${norm[i]}\t${norm[j]}`), seen.add(`h${j}`));
        break;
      }
    }
    for (let k = c.col; k < c.col + c.colSpan; k++) {
      for (let r = c.row + c.rowSpan; r < rows; r++) {
        const j = at.get(`${r},${k}`);
        if (j === undefined || j === i) continue;
        if (!seen.has(`v${j}`)) (out.push(`v\t${norm[i]}\t${norm[j]}`), seen.add(`v${j}`));
        break;
      }
    }
  });
  return out;
}

/** Multiset match of predicted against ground-truth relations: { matched, predicted, truth }. */
export function matchRelations(predicted, truth) {
  const counts = new Map();
  for (const t of truth) counts.set(t, (counts.get(t) ?? 0) + 1);
  let matched = 0;
  for (const p of predicted) {
    const n = counts.get(p) ?? 0;
    if (n > 0) {
      matched++;
      counts.set(p, n - 1);
    }
  }
  return { matched, predicted: predicted.length, truth: truth.length };
}

const area = (b) => Math.max(0, b[2] - b[0]) * Math.max(0, b[3] - b[1]);
const intersection = (a, b) => area([Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])]);

/**
 * Detection: a ground-truth region is found when a predicted table on its page covers at least half
 * of it; a predicted table is false when no ground-truth region on its page covers half of it.
 * Boxes are [x1, y1, x2, y2] in PDF points (origin bottom-left).
 */
export function detection(truth, predicted) {
  const found = truth.filter(
    (t) => t.box && predicted.some((p) => p.page === t.page && intersection(p.box, t.box) >= 0.5 * area(t.box)),
  ).length;
  const isFalse = predicted.map((p) => !truth.some((t) => t.box && t.page === p.page && intersection(p.box, t.box) >= 0.5 * area(p.box)));
  return { expected: truth.length, found, tables: predicted.length, falseTables: isFalse.filter(Boolean).length, isFalse };
}
