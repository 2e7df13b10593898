// The pages of the speed benchmarks: synthetic A4 pages at 300 dpi and real scans from other
// projects' test suites (../shared/corpus/real-scans) with their reference texts.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { root } from "../../scripts/models.mjs";
import { LATIN_FONTS, renderPng, TEXTS, textPageSvg } from "./ocr-render.mjs";

const corpus = path.join(root, "../shared/corpus/real-scans");

/** `{ name, a4, ext, bytes, text }` for each page; real scans missing from the corpus are left out. */
export function pages() {
  const out = [0, 1, 2].map((k) => {
    const lines = Array.from({ length: 46 }, (_, i) => TEXTS.eng[(i + k) % TEXTS.eng.length]);
    return {
      name: `A4 300 dpi ${LATIN_FONTS[k]}`,
      a4: true,
      ext: "png",
      bytes: renderPng(textPageSvg(lines, { font: LATIN_FONTS[k], dpi: 300, pt: 11, height: 3508 }).svg),
      text: lines.join("\n"),
    };
  });
  // Real scans with the reference text their projects ship.
  const real = [
    ["tess_8087_054.3B.tif", "tess_8087_054.3B.txt"],
    ["tess_8071_093.3B.tif", "tess_8071_093.3B.txt"],
    ["tess_phototest.tif", "tess_phototest.gold.txt"],
    ["tess_eurotext.tif", "tess_eurotext.txt"],
    ["ocrmypdf_linn.png", "ocrmypdf_linn.txt"],
  ];
  for (const [file, gt] of real) {
    const f = path.join(corpus, "files", file);
    if (!existsSync(f)) continue;
    out.push({
      name: file,
      a4: false,
      ext: path.extname(file).slice(1),
      bytes: readFileSync(f),
      text: readFileSync(path.join(corpus, "gt", gt), "utf8"),
    });
  }
  return out;
}

/** Real A4/Letter scans kept out of the speed pages: OCRmyPDF's test PDFs, [file, page]. */
const HELD_BACK = [
  ["ocrmypdf_skew.pdf", 1],
  ["ocrmypdf_ccitt.pdf", 1],
  ["ocrmypdf_jbig2.pdf", 1],
  ["ocrmypdf_cardinal.pdf", 1],
  ["ocrmypdf_cardinal.pdf", 3],
  ["ocrmypdf_epson.pdf", 1],
];

/**
 * The held-back scans rendered at 300 dpi (gray PNG, `pdftoppm`, in `dir`), as `pages()` gives
 * them; they ship no reference text, so `text` is `reference(file)` (native tesseract's reading).
 */
export function heldBackScans(dir, reference) {
  return HELD_BACK.flatMap(([file, page]) => {
    const pdf = path.join(corpus, "files", file);
    if (!existsSync(pdf)) return [];
    const out = path.join(dir, `${path.basename(file, ".pdf")}-${page}`);
    const r = spawnSync("pdftoppm", ["-r", "300", "-gray", "-png", "-singlefile", "-f", String(page), "-l", String(page), pdf, out]);
    if (r.status !== 0) throw new Error(`pdftoppm ${file}: ${r.stderr}`);
    return [{ name: `${file} p${page}`, a4: false, ext: "png", bytes: readFileSync(`${out}.png`), text: reference(`${out}.png`) }];
  });
}
