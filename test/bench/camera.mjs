// Phone photos of document pages ("captures"): how well the service reads a page photographed on a
// table, bent, shaded or shadowed, against the same page rendered flat and against native tesseract:
//   npm run bench:camera        (needs Debian's tesseract-ocr with eng, poppler-utils and ImageMagick)
// Pages, real documents nobody on the project made (../shared/corpus): the first pages of six
// born-digital ICDAR 2013 EU documents with mostly running text (pdftoppm; ground truth: the words
// of pdftotext on that page) and OCRmyPDF's `linn` page (ground truth: its gt/ocrmypdf_linn.txt).
// Pages alternate between two halves, "tune" and "held-out", summarised apart and together.
// Per page: the flat rendering (200 dpi, grey, PNG) and six captures made from a 300 dpi rendering by
// camera-captures.mjs (deterministic ImageMagick: mild and strong perspective on a table, shading, a
// hard shadow, a book-page curl, and a crude one with white around the page; JPEG, page long side
// about 2 400 px). Each one:
//  - an `ocr` job (source_language en, txt export) through the service (`npm run dev` in a scratch
//    copy, scripts/local-service.mjs; or a running one given by BASE, with KEY or .wrangler/dev-api-key),
//    one job at a time, timed from submission to the terminal state: recall and precision of words
//    against the ground truth (lower case, split at anything but letters and digits, apostrophes
//    dropped, line-end hyphens joined; as multisets);
//  - native tesseract (Debian's eng model, one thread) on the same image: the same measures, the floor.
// Per capture: ratio = the service's recall on the capture ÷ its recall on the flat page, and whether
// the service reads at least as much as native on the capture. The service's page image of each
// capture job (the image its boxes refer to: the straightened page, if it straightens) is kept.
// Per capture also: the milliseconds the photo steps of preprocess take on it alone, in Node
// (camera-steps.ts: outline and perspective, light, bent lines) and which of them changed the page.
// Everything is written to OUT (default /tmp/camera-results): <page>-flat.png, <page>-<capture>.jpg,
// <page>-<capture>-page.png, and the texts read (<page>-<capture>.service.txt / .native.txt).
// ONLY (comma-separated parts of page names, or capture names: ONLY=eu-013,curl), JOB_TIMEOUT_S
// (default 600).
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { reportResult } from "./bench-result.mjs";
import { CAPTURES, makeCapture, run } from "./camera-captures.mjs";
import { scratchCopy, startService } from "../../scripts/local-service.mjs";
import { jobDone } from "./job-done.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const corpus = path.resolve(root, "../shared/corpus");
const OUT = path.resolve(process.env.OUT ?? "/tmp/camera-results");
const logDir = path.join(root, "test/bench/logs");
const JOB_TIMEOUT_S = Number(process.env.JOB_TIMEOUT_S ?? 600);

/**
 * The pages, in the order that decides the halves (even places: tune, odd: held-out). EU pages with
 * mostly running text and at least 150 words in pdftotext; linn is a 300 dpi scan.
 */
const PAGES = [
  ...[
    ["eu-004", 1],
    ["eu-007", 1],
    ["eu-011", 1],
    ["eu-013", 1],
    ["eu-014", 1],
    ["eu-026", 1],
  ].map(([doc, page]) => ({ name: `${doc}-p${page}`, pdf: path.join(corpus, `icdar2013-eu/${doc}.pdf`), page })),
  {
    name: "linn",
    image: path.join(corpus, "real-scans/files/ocrmypdf_linn.png"),
    truth: path.join(corpus, "real-scans/gt/ocrmypdf_linn.txt"),
  },
].map((p, i) => ({ ...p, half: i % 2 === 0 ? "tune" : "held-out" }));
const HALVES = ["tune", "held-out"];

const work = mkdtempSync(path.join(os.tmpdir(), "lingoscan-camera-bench-"));
const pct = (x) => (x === null || x === undefined ? "–" : `${(100 * x).toFixed(1)} %`);
const secs = (x) => (x === null || x === undefined ? "–" : x.toFixed(1));
const times = (x) => (x === null || x === undefined ? "–" : `${x.toFixed(2)}×`);

/** English words: lower case, split at anything but letters and digits, apostrophes dropped, line-end hyphens joined. */
function units(text) {
  return text
    .normalize("NFKC")
    .replace(/(\p{L})-[ \t]*\r?\n\s*(\p{L})/gu, "$1$2")
    .toLowerCase()
    .replace(/['’‘`]/g, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Recall and precision of `actual` units against `expected` ones (multisets). */
function score(expected, actual) {
  const left = new Map();
  for (const x of actual) left.set(x, (left.get(x) ?? 0) + 1);
  let hit = 0;
  for (const x of expected)
    if (left.get(x)) {
      hit++;
      left.set(x, left.get(x) - 1);
    }
  return { recall: expected.length ? hit / expected.length : null, precision: actual.length ? hit / actual.length : null, hit };
}

/** Native tesseract (Debian's eng model, one thread) on an image: its text, scored, and its seconds. */
function native(file, truth, textOut) {
  const t0 = performance.now();
  const text = run("tesseract", [file, "-", "-l", "eng"], { encoding: "utf8" });
  const seconds = (performance.now() - t0) / 1000;
  writeFileSync(textOut, text);
  const { recall, precision } = score(truth, units(text));
  return { recall, precision, seconds };
}

/** A page's flat rendering (200 dpi, grey PNG, in OUT), its 300 dpi source for the captures, and its ground-truth words. */
function preparePage(p) {
  const flat = path.join(OUT, `${p.name}-flat.png`);
  const source = path.join(work, `${p.name}-300.png`);
  let text;
  if (p.pdf) {
    const stem = (f) => f.replace(/\.png$/, "");
    run("pdftoppm", ["-r", "200", "-gray", "-png", "-singlefile", "-f", String(p.page), "-l", String(p.page), p.pdf, stem(flat)]);
    run("pdftoppm", ["-r", "300", "-png", "-singlefile", "-f", String(p.page), "-l", String(p.page), p.pdf, stem(source)]);
    text = run("pdftotext", ["-f", String(p.page), "-l", String(p.page), p.pdf, "-"], { encoding: "utf8" });
  } else {
    // A 300 dpi scan: itself is the source; the flat page is it at 200 dpi, grey, like the PDF pages.
    copyFileSync(p.image, source);
    run("convert", [p.image, "-colorspace", "Gray", "-resize", "66.667%", "-units", "PixelsPerInch", "-density", "200", flat]);
    text = readFileSync(p.truth, "utf8");
  }
  return { flat, source, truth: units(text) };
}

/**
 * One `ocr` job on the service: status, error code, seconds from submission to its end, its txt
 * export and its page image (GET the job's project: pages[0].image_url). A dropped connection is
 * tried once more; what fails twice is reported as an error.
 */
async function job(base, auth, file) {
  const once = () => jobOnce(base, auth, file);
  return once()
    .catch(once)
    .catch((err) => ({ status: "error", code: String(err.cause?.code ?? err.message), seconds: null }));
}

async function jobOnce(base, auth, file) {
  const form = new FormData();
  form.append("file", new File([readFileSync(file)], path.basename(file)));
  form.append("options", JSON.stringify({ tool: "ocr", source_language: "en", export_formats: ["txt"] }));
  const t0 = performance.now();
  const res = await fetch(`${base}/api/v1/process`, { method: "POST", headers: auth, body: form });
  const created = await res.json();
  if (res.status !== 202)
    return { status: `refused ${res.status}`, code: created.error?.code, message: created.error?.message, seconds: null };
  const deadline = performance.now() + JOB_TIMEOUT_S * 1000;
  await jobDone(base, auth, created.id, deadline);
  let state;
  for (;;) {
    state = await (await fetch(`${base}/api/v1/jobs/${created.id}`, { headers: auth })).json();
    if (["completed", "partially_completed", "failed", "cancelled"].includes(state.status)) break;
    if (performance.now() > deadline) {
      await fetch(`${base}/api/v1/jobs/${created.id}/cancel`, { method: "POST", headers: auth });
      return { status: `timeout (${JOB_TIMEOUT_S} s)`, seconds: null };
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const seconds = (performance.now() - t0) / 1000;
  let txt;
  const exp = (state.output?.exports ?? []).find((e) => e.format === "txt");
  if (exp) {
    const link = await (await fetch(`${base}${exp.download}`, { headers: auth })).json();
    txt = await (await fetch(link.url)).text();
  }
  let pageImage;
  if (state.project_id) {
    const project = await (await fetch(`${base}/api/v1/projects/${state.project_id}`, { headers: auth })).json();
    const url = project.pages?.[0]?.image_url;
    if (url) {
      const r = await fetch(url);
      if (r.ok) pageImage = Buffer.from(await r.arrayBuffer());
    }
  }
  return { status: state.status, code: state.error?.code, message: state.error?.message, seconds, txt, pageImage };
}

let stepsModule = null;
/**
 * What the photo steps of preprocess cost on one capture, in Node (test/bench/camera-steps.ts,
 * bundled with esbuild): milliseconds for the outline and perspective, the light, the bent lines.
 */
async function photoSteps(file) {
  if (!stepsModule) {
    const out = path.join(work, "camera-steps.mjs");
    const r = spawnSync(path.join(root, "node_modules/.bin/esbuild"), [
      path.join(root, "test/bench/camera-steps.ts"),
      "--bundle",
      "--format=esm",
      "--platform=node",
      `--outfile=${out}`,
    ]);
    if (r.status !== 0) throw new Error(`esbuild: ${r.stderr}`);
    stepsModule = await import(out);
  }
  const [width, height] = run("identify", ["-format", "%w %h", file], { encoding: "utf8" }).trim().split(" ").map(Number);
  const data = new Uint8Array(run("convert", [file, "-colorspace", "Gray", "-depth", "8", "gray:-"]));
  return stepsModule.timePhotoSteps({ width, height, data });
}

/** The service's reading of one image, scored; its text (and page image, when asked) kept in OUT. */
async function serviceReading(base, auth, file, truth, stem, keepPage) {
  const r = await job(base, auth, file);
  const out = { status: r.status, code: r.code, message: r.message, seconds: r.seconds, recall: 0, precision: null };
  if (r.txt !== undefined) {
    writeFileSync(path.join(OUT, `${stem}.service.txt`), r.txt);
    Object.assign(out, score(truth, units(r.txt)));
    delete out.hit;
  }
  if (keepPage && r.pageImage) {
    out.pageImage = `${stem}-page.png`;
    writeFileSync(path.join(OUT, out.pageImage), r.pageImage);
  }
  return out;
}

const mean = (xs) => {
  const v = xs.filter((x) => typeof x === "number");
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
};

function summary(rows) {
  const ratios = rows.map((r) => r.ratio).filter((x) => typeof x === "number");
  const worst = rows.filter((r) => typeof r.ratio === "number").reduce((a, b) => (b.ratio < a.ratio ? b : a), { ratio: Infinity });
  return {
    captures: rows.length,
    minRatio: ratios.length ? Math.min(...ratios) : null,
    minRatioAt: ratios.length ? `${worst.page} ${worst.capture}` : null,
    meanRatio: mean(ratios),
    belowNative: rows.filter((r) => !r.atLeastNative).length,
    serviceRecall: mean(rows.map((r) => r.service.recall)),
    nativeRecall: mean(rows.map((r) => r.native.recall)),
    meanSeconds: mean(rows.map((r) => r.service.seconds)),
    meanStepsMs: mean(rows.map((r) => r.steps && r.steps.outlineMs + r.steps.lightMs + r.steps.linesMs)),
    maxStepsMs: Math.max(...rows.map((r) => (r.steps ? r.steps.outlineMs + r.steps.lightMs + r.steps.linesMs : 0))),
  };
}

const ms = (x) => (typeof x === "number" && Number.isFinite(x) ? String(Math.round(x)) : "–");
/** The steps' milliseconds and which of them changed the page (f: made flat, l: light evened, c: lines straightened). */
function stepsCell(s) {
  if (!s) return "–";
  const done = [s.flat && "f", s.shading && "l", s.dewarp && "c"].filter(Boolean).join("");
  return `${ms(s.outlineMs + s.lightMs + s.linesMs)} (${ms(s.outlineMs)} + ${ms(s.lightMs)} + ${ms(s.linesMs)}) ${done || "–"}`;
}

function render(rows, sums) {
  const lines = [
    "| page | half | capture | flat (service) R / P | capture (service) R / P | ratio | native capture R / P | native flat R / P | ≥ native | s | photo steps ms (outline + light + lines) |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const r of rows) {
    const rp = (m) => `${pct(m.recall)} / ${pct(m.precision)}`;
    lines.push(
      `| ${r.page} | ${r.half} | ${r.capture} | ${rp(r.flat)} | ${rp(r.service)} | ${times(r.ratio)} | ${rp(r.native)} | ${rp(r.nativeFlat)} | ${r.atLeastNative ? "yes" : "**no**"} | ${secs(r.service.seconds)} | ${stepsCell(r.steps)} |`,
    );
    const bad = [
      ["flat", r.flat],
      ["capture", r.service],
    ]
      .filter(([, m]) => m.status !== "completed")
      .map(([k, m]) => `${k}: ${m.status}${m.code ? ` ${m.code}` : ""}${m.message ? ` (${m.message})` : ""}`);
    if (bad.length) lines.push(`|  ↳ ${bad.join("; ")} | | | | | | | | | | |`);
  }
  const line = (label, s) =>
    `- ${label}: ${s.captures} captures; ratio min ${times(s.minRatio)}${s.minRatioAt ? ` (${s.minRatioAt})` : ""}, mean ${times(s.meanRatio)}; ` +
    `service < native on ${s.belowNative}; mean recall service ${pct(s.serviceRecall)}, native ${pct(s.nativeRecall)}; mean ${secs(s.meanSeconds)} s a job; ` +
    `photo steps ${ms(s.meanStepsMs)} ms mean, ${ms(s.maxStepsMs)} ms at most`;
  lines.push("");
  for (const h of HALVES) if (sums.halves[h]) lines.push(line(h, sums.halves[h]));
  lines.push(line("**overall**", sums.overall));
  lines.push("", "By capture (all pages):");
  for (const [c, s] of Object.entries(sums.captures)) lines.push(line(c, s));
  return lines.join("\n");
}

/** ONLY: parts of page names, and capture names; either kind left out means all of it. */
function selection() {
  const only = (process.env.ONLY ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const caps = only.filter((o) => CAPTURES.includes(o));
  const names = only.filter((o) => !CAPTURES.includes(o));
  for (const n of names) if (!PAGES.some((p) => p.name.includes(n))) throw new Error(`ONLY: ${n} is no page or capture name`);
  return {
    pages: names.length ? PAGES.filter((p) => names.some((n) => p.name.includes(n))) : PAGES,
    captures: caps.length ? caps : CAPTURES,
  };
}

async function main() {
  for (const [tool, args] of [
    ["tesseract", ["--version"]],
    ["convert", ["-version"]],
    ["pdftoppm", ["-v"]],
  ])
    if (spawnSync(tool, args).error) throw new Error(`${tool} is missing: apt-get install tesseract-ocr imagemagick poppler-utils`);
  if (!spawnSync("tesseract", ["--list-langs"], { encoding: "utf8" }).stdout.split("\n").includes("eng"))
    throw new Error("tesseract has no eng model");
  mkdirSync(OUT, { recursive: true });
  mkdirSync(logDir, { recursive: true });
  const { pages, captures } = selection();

  // First what needs no service: the flat pages, the captures, and native tesseract on each (so the
  // service's jobs are timed on a machine doing nothing else).
  const items = [];
  for (const p of pages) {
    const prep = preparePage(p);
    const nativeFlat = native(prep.flat, prep.truth, path.join(OUT, `${p.name}-flat.native.txt`));
    const caps = [];
    for (const c of captures) {
      const stem = `${p.name}-${c}`;
      const cap = makeCapture(prep.source, c, path.join(OUT, `${stem}.jpg`), { work, seedName: p.name });
      caps.push({ capture: c, stem, ...cap, native: native(cap.file, prep.truth, path.join(OUT, `${stem}.native.txt`)) });
    }
    for (const c of caps) c.steps = await photoSteps(c.file);
    items.push({ page: p, ...prep, nativeFlat, caps });
    console.log(`bench: ${p.name}: ${prep.truth.length} words; flat and ${caps.length} captures made and read natively`);
  }

  let svc;
  let dir;
  const rows = [];
  try {
    if (process.env.BASE) {
      const key = process.env.KEY ?? readFileSync(path.join(root, ".wrangler/dev-api-key"), "utf8").trim();
      svc = { base: process.env.BASE, key, stop: async () => {} };
    } else {
      dir = scratchCopy("lingoscan-bench-camera-", ["test/bench/logs"]);
      svc = await startService(dir, { logFile: path.join(logDir, "camera-service.log") });
    }
    const auth = { Authorization: `Bearer ${svc.key}` };
    console.log(`bench: service at ${svc.base}`);
    // First use in each engine process (models, wasm) is not what a running service pays: one flat
    // page and one capture are read once, untimed.
    if (items[0]) {
      await job(svc.base, auth, items[0].flat).catch(() => null);
      if (items[0].caps[0]) await job(svc.base, auth, items[0].caps[0].file).catch(() => null);
    }
    for (const it of items) {
      const { page: p, truth } = it;
      const flat = await serviceReading(svc.base, auth, it.flat, truth, `${p.name}-flat`, false);
      for (const c of it.caps) {
        const service = await serviceReading(svc.base, auth, c.file, truth, c.stem, true);
        const row = {
          page: p.name,
          half: p.half,
          capture: c.capture,
          words: truth.length,
          photo: `${c.width}×${c.height}`,
          flat,
          service,
          ratio: flat.recall ? service.recall / flat.recall : null,
          native: c.native,
          nativeFlat: it.nativeFlat,
          atLeastNative: service.recall >= c.native.recall,
          steps: c.steps,
        };
        rows.push(row);
        console.log(JSON.stringify(row));
      }
    }
  } finally {
    await svc?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  }

  const sums = { halves: {}, overall: summary(rows), captures: {} };
  for (const h of HALVES) {
    const rs = rows.filter((r) => r.half === h);
    if (rs.length) sums.halves[h] = summary(rs);
  }
  for (const c of captures) {
    const rs = rows.filter((r) => r.capture === c);
    if (rs.length) sums.captures[c] = summary(rs);
  }
  console.log(
    `\nPhone photos of document pages: the service on each capture against itself on the flat page (ratio of word recall)` +
      ` and against native tesseract (Debian's eng model, one thread) on the same image. R / P = word recall / precision.\n`,
  );
  console.log(render(rows, sums));
  console.log(`\ncaptures, flat pages, the service's page images and the texts read: ${OUT}`);
  reportResult("camera", { summary: sums, rows });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
