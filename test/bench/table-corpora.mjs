// The documents the tables benchmark scores, with where each came from and the split it belongs to.
//
// Split, fixed before any tuning: ICDAR 2013 EU documents with an odd number (eu-001, eu-003, …,
// eu-009a/b, …, eu-027) are the tuning part; those with an even number (eu-002, …, eu-026) are held
// out, and so are all the documents of other projects (camelot's). Only the tuning part may be
// looked at when changing the detector.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
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

/** Every document of the benchmark: ICDAR EU (`icdar` folder) and camelot's (`realScans` folder). */
export function tableDocuments({ icdar, realScans }) {
  return [...icdarDocuments(icdar), ...camelotDocuments(realScans)];
}
