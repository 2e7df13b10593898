// Real scans and PDFs: every document of the real-scans corpus (other projects' test files, see its
// manifest.json) through the service and through the tools a user would pick instead, in one run:
//   npm run bench:real        (needs Debian's tesseract-ocr and poppler-utils)
// Service: `npm run dev` in a scratch copy of the repository (scripts/local-service.mjs), warmed by a
// PDF and an image of the run sent twice at once, untimed; then one `ocr` job per file, one at a
// time, upload → terminal state (followed on its progress stream). Native, OCRmyPDF's way: a PDF page with a
// readable text layer is read by `pdftotext`, any other page is rendered by `pdftoppm -r 300` and read by
// `tesseract` (one thread, the engine's own best_int models); images go to `tesseract` directly.
// Figures per file: status, error code, seconds, CER against the reference texts the projects ship
// (gt/) where they exist, similarity to native elsewhere. Totals: pages with text natively but empty
// from the service, files where the service is clearly worse than native, median seconds per PDF
// page (born-digital vs scans). Written to test/bench/real-results.md.
// CORPUS (default ../shared/corpus/real-scans), ONLY (comma-separated name parts), JOB_TIMEOUT_S (default 300),
// RESUME=1 (continue an interrupted run from test/bench/logs/real-rows.jsonl).
import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { reportResult } from "./bench-result.mjs";
import { scratchCopy, startService } from "../../scripts/local-service.mjs";
import { nativeTessdata, runNativeWithWords } from "./native-ocr.mjs";
import { errorRates } from "./text-metrics.mjs";
import { jobDone } from "./job-done.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const corpus = path.resolve(root, process.env.CORPUS ?? "../shared/corpus/real-scans");
const logDir = path.join(root, "test/bench/logs");
const resultsFile = path.join(root, "test/bench/real-results.md");
/** One JSON line per file as it finishes; RESUME=1 keeps the rows of an interrupted run and measures the rest. */
const rowsFile = path.join(logDir, "real-rows.jsonl");
const JOB_TIMEOUT_S = Number(process.env.JOB_TIMEOUT_S ?? 300);
const DOCUMENT = /\.(pdf|png|jpe?g|tiff?|bmp|gif|webp|pbm|pgm|ppm)$/i;
/** Fewer visible characters than this and a page holds no text (as the engine's text-layer rule). */
const TEXT_MIN_CHARS = 8;
/** Per-page texts are compared up to this length (edit distance is quadratic). */
const COMPARE_MAX_CHARS = 6000;
/** "Clearly worse": CER more than this above native's against the reference, or this far from native's text. */
const WORSE_CER_MARGIN = 0.05;
const WORSE_SIMILARITY = 0.5;
/**
 * Native's confident words: tesseract's words of at least this confidence (every word of a
 * `pdftotext` page). Where texts differ in order or noise (a map's scattered names, a turned
 * table), the share of them the service also reads says what similarity cannot: a file is clearly
 * worse only when its similarity is low and it also misses more than 1 − WORSE_RECALL of them.
 */
const CONFIDENT = 80;
const WORSE_RECALL = 0.8;
/** Words compared: NFKC, lower case, letters and digits only, at least this long. */
const WORD_MIN_CHARS = 3;

const work = mkdtempSync(path.join(os.tmpdir(), "lingoscan-real-bench-"));
const tessdata = path.join(work, "tessdata");
const visible = (s) => s.replace(/\s+/gu, "").length;
const median = (xs) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] : null);
const pct = (x) => (x === null || x === undefined ? "–" : `${(100 * x).toFixed(1)} %`);
const secs = (x) => (x === null || x === undefined ? "–" : x.toFixed(2));

/** The reference text a project ships for a file, by the naming of the corpus. */
function referenceFor(name) {
  const gt = path.join(corpus, "gt");
  const base = name.replace(/\.[^.]+$/, "");
  const candidates = [];
  if (name.startsWith("tess_phototest")) candidates.push("tess_phototest.gold.txt");
  if (name.startsWith("ocrmypdf_linn")) candidates.push("ocrmypdf_linn.txt");
  if (name.startsWith("tjs_simple")) candidates.push("tjs_SIMPLE_TEXT.txt");
  if (name.startsWith("tjs_testocr")) candidates.push("tjs_TESTOCR_TEXT.txt");
  if (name.startsWith("tjs_cosmic")) candidates.push("tjs_COMSIC_TEXT.txt");
  if (name.startsWith("tjs_chinese")) candidates.push("tjs_CHINESE_TEXT.txt");
  if (name.startsWith("tjs_bill")) candidates.push("tjs_BILL_SPACED_TEXT.txt");
  candidates.push(`${base}.txt`);
  for (const c of candidates) {
    try {
      return { file: c, text: readFileSync(path.join(gt, c), "utf8") };
    } catch {
      // not shipped for this file
    }
  }
  return null;
}

// tesseract.js's chinese.png reads 繁體中文測試 ("Traditional Chinese test"): traditional characters.
const languageOf = (name) => (/chinese/i.test(name) ? "chi_tra" : /francais/i.test(name) ? "fra" : "eng");

/** Byte-swapped UTF-16 of printable ASCII ("M" read as U+4D00), a replacement or private-use character: no character of the text. */
const garbled = (c) => {
  const n = c.codePointAt(0);
  return ((n & 0xff) === 0 && n >> 8 >= 0x21 && n >> 8 <= 0x7e) || /[\uFFFD\p{Co}]/u.test(c);
};

/**
 * Whether `pdftotext`'s text of a page is text a reader could use: at most half of its characters
 * garbled. A layer decoded with the wrong byte order (OCRmyPDF's cmyk.pdf: CJK mojibake over Latin
 * lettering) is no reading of the page; a user would render the page and OCR it, as native does then.
 */
function readableLayer(text) {
  const chars = [...text.replace(/\s+/gu, "")];
  return chars.filter(garbled).length <= chars.length / 2;
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 256 * 2 ** 20, env: { ...process.env, OMP_THREAD_LIMIT: "1" } });
  return { ok: r.status === 0, out: r.stdout ?? "", err: (r.stderr ?? "").trim() };
}

const wordsOf = (text) =>
  text
    .normalize("NFKC")
    .toLowerCase()
    // Bidi and other format characters (pdftotext wraps right-to-left runs in them) separate words too.
    .split(/[\s\p{Cf}]+/u)
    .map((w) => w.replace(/[^\p{L}\p{N}]/gu, ""))
    .filter((w) => [...w].length >= WORD_MIN_CHARS);

/** Native tesseract's reading of an image: its text and its confident words. */
function nativeOcr(file, lang) {
  const { text, words } = runNativeWithWords(file, lang, tessdata, path.join(work, "native"));
  return {
    text,
    confident: wordsOf(
      words
        .filter((w) => w.conf >= CONFIDENT)
        .map((w) => w.text)
        .join(" "),
    ),
  };
}

/** Share of the `expected` words (a multiset) found among the `actual` ones; null without any. */
function wordRecall(expected, actual) {
  if (expected.length === 0) return null;
  const left = new Map();
  for (const w of actual) left.set(w, (left.get(w) ?? 0) + 1);
  let found = 0;
  for (const w of expected)
    if (left.get(w)) {
      found++;
      left.set(w, left.get(w) - 1);
    }
  return found / expected.length;
}

/** Native reading of a file: page texts, how each page was read, its confident words, seconds. */
function native(file, lang) {
  const t0 = performance.now();
  if (!/\.pdf$/i.test(file)) {
    try {
      const { text, confident } = nativeOcr(file, lang);
      const pages = text.split("\f").filter((p, i, all) => i < all.length - 1 || p.trim() || all.length === 1);
      return { ok: true, pages, kinds: pages.map(() => "ocr"), confident, seconds: (performance.now() - t0) / 1000 };
    } catch (err) {
      return { ok: false, error: String(err.message).split("\n")[0], pages: [], kinds: [], seconds: (performance.now() - t0) / 1000 };
    }
  }
  const info = run("pdfinfo", [file]);
  const count = Number(/^Pages:\s+(\d+)/m.exec(info.out)?.[1] ?? 0);
  if (!info.ok || count === 0)
    return {
      ok: false,
      error: info.err.split("\n")[0] || "pdfinfo failed",
      pages: [],
      kinds: [],
      seconds: (performance.now() - t0) / 1000,
    };
  const pages = [];
  const kinds = [];
  const confident = [];
  for (let p = 1; p <= count; p++) {
    const layer = run("pdftotext", ["-f", String(p), "-l", String(p), file, "-"]);
    if (layer.ok && visible(layer.out) >= TEXT_MIN_CHARS && readableLayer(layer.out)) {
      pages.push(layer.out);
      kinds.push("text");
      confident.push(...wordsOf(layer.out));
      continue;
    }
    const prefix = path.join(work, "page");
    const render = run("pdftoppm", ["-r", "300", "-gray", "-png", "-singlefile", "-f", String(p), "-l", String(p), file, prefix]);
    if (!render.ok)
      return { ok: false, error: render.err.split("\n")[0] || "pdftoppm failed", pages, kinds, seconds: (performance.now() - t0) / 1000 };
    try {
      const read = nativeOcr(`${prefix}.png`, lang);
      pages.push(read.text);
      confident.push(...read.confident);
    } catch (err) {
      return {
        ok: false,
        error:
          String(err.message)
            .split("\n")
            .find((l) => l.startsWith("Error")) ?? "tesseract failed",
        pages,
        kinds,
        seconds: (performance.now() - t0) / 1000,
      };
    }
    kinds.push("ocr");
  }
  return { ok: true, pages, kinds, confident, seconds: (performance.now() - t0) / 1000 };
}

/** One `ocr` job on the service: status, error codes (job and failed pages), page texts, seconds. */
async function service(base, auth, file, lang) {
  const form = new FormData();
  form.append("file", new File([readFileSync(file)], path.basename(file)));
  form.append("options", JSON.stringify({ tool: "ocr", source_language: lang, export_formats: ["json"] }));
  const t0 = performance.now();
  const res = await fetch(`${base}/api/v1/process`, { method: "POST", headers: auth, body: form });
  const created = await res.json();
  if (res.status !== 202)
    return {
      status: `refused ${res.status}`,
      codes: [created.error?.code ?? "?"],
      pages: new Map(),
      seconds: (performance.now() - t0) / 1000,
    };
  const deadline = performance.now() + JOB_TIMEOUT_S * 1000;
  await jobDone(base, auth, created.id, deadline);
  let job;
  for (;;) {
    job = await (await fetch(`${base}/api/v1/jobs/${created.id}`, { headers: auth })).json();
    if (["completed", "partially_completed", "failed", "cancelled"].includes(job.status)) break;
    if (performance.now() > deadline) {
      await fetch(`${base}/api/v1/jobs/${created.id}/cancel`, { method: "POST", headers: auth });
      return {
        status: `timeout (${JOB_TIMEOUT_S} s)`,
        codes: [],
        pages: new Map(),
        seconds: (performance.now() - t0) / 1000,
        total: job.pages?.total,
      };
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const seconds = (performance.now() - t0) / 1000;
  const timeline = await (await fetch(`${base}/api/v1/jobs/${created.id}/timeline`, { headers: auth })).json();
  const codes = new Set([job.error?.code, ...(timeline.events ?? []).map((e) => e.data?.error?.code)].filter(Boolean));
  // Where the job's time went: seconds in each status (queued, preprocessing, recognizing, …).
  const stages = {};
  for (const st of timeline.stages ?? []) stages[st.status] = Math.round(((stages[st.status] ?? 0) + st.duration_ms / 1000) * 100) / 100;
  const pages = new Map();
  const exp = job.output?.exports?.find((e) => e.format === "json");
  if (exp) {
    const link = await (await fetch(`${base}${exp.download}`, { headers: auth })).json();
    const doc = await (await fetch(link.url)).json();
    for (const p of doc.pages ?? []) pages.set(p.page - 1, p.text ?? "");
  }
  return { status: job.status, codes: [...codes], pages, seconds, total: job.pages?.total, stages };
}

/** Sum of per-page edit distances over the reference's length: 1 - that is the similarity. */
function pageDistance(reference, actual, cjk) {
  let dist = 0;
  let len = 0;
  reference.forEach((ref, i) => {
    const r = ref.slice(0, COMPARE_MAX_CHARS);
    const a = (actual[i] ?? "").slice(0, COMPARE_MAX_CHARS);
    const n = Math.max(1, [...(cjk ? r.replace(/\s+/gu, "") : r.replace(/\s+/gu, " ").trim())].length);
    dist += errorRates(r, a, cjk).cer * n;
    len += n;
  });
  return len ? dist / len : 0;
}

function measure(name, nat, svc) {
  const cjk = languageOf(name).startsWith("chi_");
  const ref = referenceFor(name);
  const pageCount = Math.max(nat.pages.length, svc.total ?? 0, svc.pages.size);
  const servicePages = Array.from({ length: pageCount }, (_, i) => svc.pages.get(i) ?? "");
  const serviceText = servicePages.join("\n");
  const nativeText = nat.pages.join("\n");
  const cerService = ref ? errorRates(ref.text.slice(0, COMPARE_MAX_CHARS), serviceText.slice(0, COMPARE_MAX_CHARS), cjk).cer : null;
  const cerNative =
    ref && nat.ok ? errorRates(ref.text.slice(0, COMPARE_MAX_CHARS), nativeText.slice(0, COMPARE_MAX_CHARS), cjk).cer : null;
  const nativeHasText = nat.ok && visible(nativeText) >= TEXT_MIN_CHARS;
  const similarity = !ref && nativeHasText ? Math.max(0, 1 - pageDistance(nat.pages, servicePages, cjk)) : null;
  const recall = !ref && nativeHasText && !cjk ? wordRecall(nat.confident ?? [], wordsOf(serviceText)) : null;
  const emptyPages = nat.pages.filter((p, i) => visible(p) >= TEXT_MIN_CHARS && visible(servicePages[i] ?? "") === 0).length;
  const worse =
    ref && cerNative !== null
      ? cerService > cerNative + WORSE_CER_MARGIN
      : nativeHasText && (similarity ?? 0) < WORSE_SIMILARITY && (recall === null || recall < WORSE_RECALL);
  const pdf = /\.pdf$/i.test(name);
  const kind = !pdf
    ? "image"
    : !nat.ok
      ? "pdf (unread)"
      : nat.kinds.every((k) => k === "text")
        ? "born-digital"
        : nat.kinds.every((k) => k === "ocr")
          ? "scan"
          : "mixed";
  return {
    name,
    kind,
    pages: pageCount,
    ref: ref?.file ?? null,
    cerService,
    cerNative,
    similarity,
    recall,
    emptyPages,
    worse,
    nativeHasText,
  };
}

/** Median seconds per page in each job status over `rows` (those that recorded their timeline), with how many rows. */
function stageProfile(rows) {
  const names = [...new Set(rows.flatMap((r) => Object.keys(r.stages)))];
  const per = Object.fromEntries(names.map((n) => [n, median(rows.map((r) => (r.stages[n] ?? 0) / r.pages))]));
  return { rows: rows.length, perPage: per };
}

/** The results table and totals of the rows measured so far (`complete` false while the run goes on). */
function summarise(rows, { started, skipped, total, complete }) {
  rows = [...rows].sort((a, b) => a.name.localeCompare(b.name));
  const perPage = (kind, key) =>
    median(rows.filter((r) => r.kind === kind && r.pages > 0 && /completed/.test(r.status)).map((r) => r[key] / r.pages));
  const statuses = {};
  for (const r of rows) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  const totals = {
    files: rows.length,
    pages: rows.reduce((n, r) => n + r.pages, 0),
    statuses,
    emptyPages: rows.reduce((n, r) => n + r.emptyPages, 0),
    emptyFiles: rows.filter((r) => r.emptyPages > 0).map((r) => r.name),
    worseFiles: rows.filter((r) => r.worse).map((r) => r.name),
    bornDigitalSecondsPerPage: perPage("born-digital", "seconds"),
    bornDigitalNativeSecondsPerPage: perPage("born-digital", "nativeSeconds"),
    scanSecondsPerPage: perPage("scan", "seconds"),
    scanNativeSecondsPerPage: perPage("scan", "nativeSeconds"),
    scanStages: stageProfile(rows.filter((r) => r.kind === "scan" && r.pages > 0 && /completed/.test(r.status) && r.stages)),
    meanCerService: rows
      .filter((r) => r.cerService !== null && r.cerNative !== null)
      .reduce((s, r, _, a) => s + r.cerService / a.length, 0),
    meanCerNative: rows.filter((r) => r.cerService !== null && r.cerNative !== null).reduce((s, r, _, a) => s + r.cerNative / a.length, 0),
    withReference: rows.filter((r) => r.cerService !== null && r.cerNative !== null).length,
  };

  const md = [
    `# Real scans and PDFs: service vs native`,
    "",
    `Run ${started.toISOString()} with \`npm run bench:real\` on ${os.cpus().length} cores (load average ${os.loadavg()[0].toFixed(1)} at the end), corpus \`${path.relative(root, corpus)}\` (${rows.length} documents; not documents: ${skipped.join(", ") || "none"}).`,
    "Native: `pdftotext` for PDF pages with a readable text layer (at most half of its characters byte-swapped UTF-16, replacement or private-use), else `pdftoppm -r 300` + `tesseract` (1 thread, the engine's best_int models); images straight to `tesseract`.",
    `CER against the reference text the corpus ships (gt/); elsewhere similarity = 1 − CER of the service's page texts against native's. Recall = share of native's confident words (tesseract confidence ≥ ${CONFIDENT}, every word of a \`pdftotext\` page; NFKC, lower case, letters and digits, ${WORD_MIN_CHARS}+ characters) that the service also reads, in any order. Worse = CER more than ${WORSE_CER_MARGIN * 100} points above native's, or, where native reads text, similarity below ${WORSE_SIMILARITY * 100} % and recall below ${WORSE_RECALL * 100} % (rows measured before recall was recorded: similarity alone).`,
    "",
    "| file | kind | pages | service | error codes | service s | native s | CER service | CER native | similarity | recall | empty pages | worse |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.kind} | ${r.pages} | ${r.status} | ${r.codes.join(", ")} | ${secs(r.seconds)} | ${secs(r.nativeSeconds)}${r.nativeStatus === "ok" ? "" : ` (${r.nativeStatus})`} | ${pct(r.cerService)} | ${pct(r.cerNative)} | ${pct(r.similarity)} | ${pct(r.recall)} | ${r.emptyPages || ""} | ${r.worse ? "yes" : ""} |`,
    ),
    "",
    "| total | value |",
    "|---|---|",
    `| documents / pages | ${totals.files} / ${totals.pages} |`,
    `| service outcomes | ${Object.entries(statuses)
      .map(([k, v]) => `${k}: ${v}`)
      .join(", ")} |`,
    `| pages with text natively but empty from the service (target 0) | ${totals.emptyPages}${totals.emptyFiles.length ? ` (${totals.emptyFiles.join(", ")})` : ""} |`,
    `| files where the service is clearly worse than native (target 0) | ${totals.worseFiles.length}${totals.worseFiles.length ? ` (${totals.worseFiles.join(", ")})` : ""} |`,
    `| mean CER on the ${totals.withReference} files with a reference: service vs native | ${pct(totals.meanCerService)} vs ${pct(totals.meanCerNative)} |`,
    `| median seconds per PDF page, born-digital: service vs native | ${secs(totals.bornDigitalSecondsPerPage)} vs ${secs(totals.bornDigitalNativeSecondsPerPage)} |`,
    `| median seconds per PDF page, scans: service vs native | ${secs(totals.scanSecondsPerPage)} vs ${secs(totals.scanNativeSecondsPerPage)} |`,
    `| scans: median seconds per page in each job status (${totals.scanStages.rows} documents with their timeline) | ${
      Object.entries(totals.scanStages.perPage)
        .map(([k, v]) => `${k} ${secs(v)}`)
        .join(", ") || "–"
    } |`,
    "",
  ].join("\n");
  return { md: complete ? md : md.replace("\n\n", `\n\n**Partial: ${rows.length} of ${total} documents measured so far.**\n\n`), totals };
}

async function main() {
  for (const tool of ["tesseract", "pdftoppm", "pdftotext"])
    if (spawnSync(tool, ["-v"]).error) throw new Error(`${tool} is missing: apt-get install tesseract-ocr poppler-utils`);
  mkdirSync(logDir, { recursive: true });
  nativeTessdata(tessdata);
  const all = readdirSync(path.join(corpus, "files")).sort();
  const only = process.env.ONLY?.split(",");
  const files = all.filter((f) => DOCUMENT.test(f) && (!only || only.some((o) => f.includes(o))));
  const skipped = all.filter((f) => !DOCUMENT.test(f));

  const dir = scratchCopy("lingoscan-bench-real-", ["test/bench/logs"]);
  const started = new Date();
  const rows =
    process.env.RESUME && existsSync(rowsFile)
      ? readFileSync(rowsFile, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l))
      : [];
  if (!process.env.RESUME) writeFileSync(rowsFile, "");
  const done = new Set(rows.map((r) => r.name));
  let svc;
  try {
    svc = await startService(dir, { logFile: path.join(logDir, "real-service.log") });
    const auth = { Authorization: `Bearer ${svc.key}` };
    // First use in each engine process (models, wasm, the PDF renderer) is not what a running
    // service pays: a PDF and an image of the run, twice at once, go through untimed first.
    const warm = [files.find((f) => /\.pdf$/i.test(f)), files.find((f) => !/\.pdf$/i.test(f))].filter(Boolean);
    await Promise.all(
      [...warm, ...warm].map((f) => service(svc.base, auth, path.join(corpus, "files", f), languageOf(f)).catch(() => null)),
    );
    for (const name of files.filter((f) => !done.has(f))) {
      const file = path.join(corpus, "files", name);
      const lang = languageOf(name);
      // A dropped connection (the local service under load) is tried once more; what fails twice is reported.
      const once = () => service(svc.base, auth, file, lang);
      const s = await once()
        .catch(once)
        .catch((err) => ({ status: "error", codes: [String(err.message)], pages: new Map(), seconds: 0 }));
      const n = native(file, lang);
      const m = measure(name, n, s);
      const row = {
        ...m,
        status: s.status,
        codes: s.codes,
        seconds: s.seconds,
        nativeSeconds: n.seconds,
        nativeStatus: n.ok ? "ok" : `error: ${n.error}`,
        stages: s.stages ?? {},
      };
      rows.push(row);
      appendFileSync(rowsFile, `${JSON.stringify(row)}\n`);
      writeFileSync(resultsFile, summarise(rows, { started, skipped, total: files.length, complete: false }).md);
      console.log(
        `${name.padEnd(44)} ${row.kind.padEnd(12)} ${String(row.pages).padStart(3)} p  ${row.status.padEnd(19)} ${(row.codes.join(",") || "").padEnd(18)} ${secs(row.seconds).padStart(7)} s  native ${secs(row.nativeSeconds).padStart(6)} s  CER ${pct(row.cerService)} vs ${pct(row.cerNative)}  sim ${pct(row.similarity)}  recall ${pct(row.recall)}${row.emptyPages ? `  EMPTY ${row.emptyPages}` : ""}${row.worse ? "  WORSE" : ""}  ${JSON.stringify(row.stages)}`,
      );
    }
  } finally {
    await svc?.stop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  }

  rows.sort((a, b) => a.name.localeCompare(b.name));
  const { md, totals } = summarise(rows, { started, skipped, total: files.length, complete: true });
  writeFileSync(resultsFile, md);
  console.log(`\n${md}`);
  console.log(`bench: written to ${path.relative(root, resultsFile)}`);
  reportResult("real", totals);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
