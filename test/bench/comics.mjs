// Comics and manga pages (../shared/corpus/comics), single panels cut out of them and phone photos
// of them (each summed apart): what a reader of the service's results sees, in one run:
//   npm run bench:comics        (needs Debian's tesseract-ocr with eng, jpn and jpn_vert, and ImageMagick)
// Per page, through the service (`npm run dev` in a scratch copy, scripts/local-service.mjs; or a running
// one given by BASE, with KEY or .wrangler/dev-api-key), one job at a time, timed from submission to the
// terminal state:
//  - `ocr` (source_language en or ja) → its txt export against the transcription beside this script
//    (comics/transcriptions.json, written by reading the pages): recall and precision of words
//    (English: lower case, split at spaces and punctuation, apostrophes dropped, line-end hyphens
//    joined; as multisets) or characters (Japanese: NFKC, letters and digits only, as multisets);
//    and in order: the pairs of neighbouring units of each balloon (a transcription's line) found
//    next to each other in one region of the reading (a paragraph of the export), which lines of two
//    balloons read interleaved, or a column read across, lose;
//  - native tesseract (Debian's models, one thread; `-l eng`, or the better of `-l jpn_vert` and
//    `-l jpn`) on the same page: the same measures, the floor;
//  - `translate` (English pages, en → es, png) and `erase` (every page, png): native tesseract on the
//    result, and the share of the source words (characters) native tesseract read on the input that it
//    reads again on the result (left); the mean chroma (max − min of R, G, B) of the result over the
//    input's; whether width and height are kept; seconds;
//  - where the translation is set (pages with a text mask of comic-text-detector beside them in the
//    corpus, `ctd-mask-<page>.png`, and photos of them, the mask photographed the same way): the
//    share of its lettering's pixels outside the balloons that mask lies in (balloon-placement.mjs),
//    with a picture of it in OUT (`<page>.placement.png`).
// Photos (entries with `of` and `capture`): the page set on a table and photographed by
// camera-captures.mjs (`makeCapture`, the phone-photo captures of bench:camera: "mild", "strong",
// "shading", "shadow": a hard shadow across it, or "nobg": taken close, no page edge in view, its
// light falling off), its long side PHOTO_LONG_SIDE pixels; read against the page's transcription.
// Small copies (entries with `of` and `scale`): the page as saved small for the web, `convert
// -resize <scale>% -quality 92` (letters of 7–9 px), read against the page's transcription.
// Pages scanned askew (entries with `of` and `turn`): the page turned by `turn` degrees (clockwise
// positive) on white, the whole of it kept, `convert -background white -rotate <turn> -quality 92`,
// read against the page's transcription; its text mask turned alike.
// Result images are kept in OUT (default /tmp/comics-results). CORPUS (default ../shared/corpus/comics),
// ONLY (comma-separated file name parts), JOB_TIMEOUT_S (default 600), PAGE_KIND (auto|document|picture;
// unset: the service's default, auto).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { balloonPlacement } from "./balloon-placement.mjs";
import { reportResult } from "./bench-result.mjs";
import { scratchCopy, startService } from "../../scripts/local-service.mjs";
import { jobDone } from "./job-done.mjs";
import { pixels } from "./image-pixels.mjs";
import { makeCapture } from "./camera-captures.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const corpus = path.resolve(root, process.env.CORPUS ?? "../shared/corpus/comics");
const OUT = path.resolve(process.env.OUT ?? "/tmp/comics-results");
const logDir = path.join(root, "test/bench/logs");
const JOB_TIMEOUT_S = Number(process.env.JOB_TIMEOUT_S ?? 600);
const PAGE_KIND = process.env.PAGE_KIND;
const transcriptions = JSON.parse(readFileSync(path.join(root, "test/bench/comics/transcriptions.json"), "utf8"));
const PAGES = Object.keys(transcriptions).filter((k) => !k.startsWith("_"));
/** A page's long side in a photo of it: a comic page photographed to fill most of a phone's frame, at 1:1 or more of its pixels. */
const PHOTO_LONG_SIDE = 2000;

/** A page's entry: a photo's, a small copy's or a turned copy's language and text are its page's. */
const entry = (name) => {
  const e = transcriptions[name];
  return e.capture || e.scale || e.turn ? { ...transcriptions[e.of], ...e } : e;
};

const work = mkdtempSync(path.join(os.tmpdir(), "lingoscan-comics-bench-"));
const pct = (x) => (x === null || x === undefined ? "–" : `${(100 * x).toFixed(1)} %`);
const secs = (x) => (x === null || x === undefined ? "–" : x.toFixed(1));
const ratio = (a, b) => (a === null || a === undefined || !b ? "–" : `${(a / b).toFixed(2)}×`);

/**
 * The units a text is compared by: English words (lower case; split at whitespace and at any
 * punctuation but apostrophes, which are dropped; a hyphen ending a line joins its word), Japanese
 * characters (NFKC, letters and digits only).
 */
function units(text, language) {
  const t = text.normalize("NFKC");
  if (language === "ja") return [...t].filter((c) => /[\p{L}\p{N}]/u.test(c));
  return t
    .replace(/(\p{L})-[ \t]*\r?\n\s*(\p{L})/gu, "$1$2")
    .toLowerCase()
    .replace(/['’‘`]/g, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** A transcription's balloons and captions (one a line), a reading's regions (one a paragraph, its lines joined). */
const BALLOONS = /\n/;
const PARAGRAPHS = /\n[ \t]*\n/;

/**
 * Units next to each other in one balloon or caption, in their order (as "a b"): what recall does
 * not see. Lines of two balloons read interleaved, or a column read across as rows, keep every unit
 * and lose their pairs; balloons read in another order than the transcription's keep theirs.
 */
function pairs(text, language, parts) {
  return text.split(parts).flatMap((part) => {
    const u = units(part, language);
    return u.slice(1).map((b, i) => `${u[i]} ${b}`);
  });
}

const bag = (xs) => {
  const m = new Map();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
};

/** The multiset intersection of two unit lists, as a list. */
function common(a, b) {
  const left = bag(b);
  const out = [];
  for (const x of a)
    if (left.get(x)) {
      out.push(x);
      left.set(x, left.get(x) - 1);
    }
  return out;
}

/** Recall and precision of `actual` units against `expected` ones (multisets). */
function score(expected, actual) {
  const hit = common(expected, actual).length;
  return { recall: expected.length ? hit / expected.length : null, precision: actual.length ? hit / actual.length : null, hit };
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { maxBuffer: 512 * 2 ** 20, env: { ...process.env, OMP_THREAD_LIMIT: "1" }, ...opts });
  if (r.status !== 0)
    throw new Error(
      `${cmd} ${args.join(" ")}: ${
        String(r.stderr ?? r.error)
          .trim()
          .split("\n")[0]
      }`,
    );
  return r.stdout;
}

/** Native tesseract (Debian's models, one thread) on an image: its text. */
const tesseract = (file, lang) => run("tesseract", [file, "stdout", "-l", lang], { encoding: "utf8" });

/** Native readings of an image in the page's language(s): `[{ lang, text, units }]`. */
const nativeLangs = (language) => (language === "ja" ? ["jpn_vert", "jpn"] : ["eng"]);
function nativeReadings(file, language) {
  return nativeLangs(language).map((lang) => {
    const t0 = performance.now();
    const text = tesseract(file, lang);
    return { lang, text, units: units(text, language), seconds: (performance.now() - t0) / 1000 };
  });
}

/** Width, height and mean chroma (max − min of R, G, B over every pixel, 0..255) of an image. */
function imageStats(file) {
  const { width, height, data: rgb } = pixels(file, "rgb");
  let sum = 0;
  for (let i = 0; i + 2 < rgb.length; i += 3) sum += Math.max(rgb[i], rgb[i + 1], rgb[i + 2]) - Math.min(rgb[i], rgb[i + 1], rgb[i + 2]);
  return { width, height, chroma: sum / Math.max(1, rgb.length / 3) };
}

/**
 * One job on the service: status, error code, seconds from submission to its end, and its exports'
 * bytes by format. A dropped connection (the local service under load) is tried once more; what
 * fails twice is reported as an error.
 */
async function job(base, auth, file, options) {
  const once = () => jobOnce(base, auth, file, options);
  return once()
    .catch(once)
    .catch((err) => ({ status: "error", code: String(err.cause?.code ?? err.message), seconds: null, exports: {} }));
}

async function jobOnce(base, auth, file, options) {
  const form = new FormData();
  form.append("file", new File([readFileSync(file)], path.basename(file)));
  form.append("options", JSON.stringify({ ...options, ...(PAGE_KIND ? { page_kind: PAGE_KIND } : {}) }));
  const t0 = performance.now();
  const res = await fetch(`${base}/api/v1/process`, { method: "POST", headers: auth, body: form });
  const created = await res.json();
  if (res.status !== 202)
    return { status: `refused ${res.status}`, code: created.error?.code, message: created.error?.message, seconds: null, exports: {} };
  const deadline = performance.now() + JOB_TIMEOUT_S * 1000;
  await jobDone(base, auth, created.id, deadline);
  let state;
  for (;;) {
    state = await (await fetch(`${base}/api/v1/jobs/${created.id}`, { headers: auth })).json();
    if (["completed", "partially_completed", "failed", "cancelled"].includes(state.status)) break;
    if (performance.now() > deadline) {
      await fetch(`${base}/api/v1/jobs/${created.id}/cancel`, { method: "POST", headers: auth });
      return { status: `timeout (${JOB_TIMEOUT_S} s)`, seconds: null, exports: {} };
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const seconds = (performance.now() - t0) / 1000;
  // Seconds in each state of the pipeline (a state entered twice, on a retry, counts both times).
  const timeline = await (await fetch(`${base}/api/v1/jobs/${created.id}/timeline`, { headers: auth })).json();
  const stages = {};
  for (const s of timeline.stages ?? []) stages[s.status] = (stages[s.status] ?? 0) + s.duration_ms / 1000;
  const exports = {};
  for (const exp of state.output?.exports ?? []) {
    const link = await (await fetch(`${base}${exp.download}`, { headers: auth })).json();
    exports[exp.format] = Buffer.from(await (await fetch(link.url)).arrayBuffer());
  }
  return { status: state.status, code: state.error?.code, seconds, stages, exports };
}

/** Native readings of a result image against the source units native read on the input: the share read again. */
function leftover(resultFile, language, inputReadable, translation) {
  const readings = nativeReadings(resultFile, language);
  // Japanese: the reading (jpn_vert or jpn) that finds the most of them again.
  const found = Math.max(...readings.map((r) => common(inputReadable, r.units).length));
  const out = { left: inputReadable.length ? found / inputReadable.length : null, leftUnits: found };
  if (translation !== undefined) {
    // Names and words both languages share (Tim, Judy, no, a) are in the translation itself: left aside.
    const target = new Set(units(translation, language));
    const own = inputReadable.filter((u) => !target.has(u));
    const ownFound = Math.max(...readings.map((r) => common(own, r.units).length));
    out.leftNotInTranslation = own.length ? ownFound / own.length : null;
  }
  return out;
}

/**
 * A copy of a page the service refused as too large (`image_too_large`), scaled to the limits its
 * message names, as a user would send it next; null when the message names none.
 */
function scaledToLimit(file, message, stem) {
  const m = /limit is (\d+) pixels a side and ([\d.]+) megapixels/.exec(message ?? "");
  if (!m) return null;
  const { width, height } = imageStats(file);
  const scale = Math.min(1, Number(m[1]) / Math.max(width, height), Math.sqrt((Number(m[2]) * 1e6) / (width * height))) * 0.99;
  const out = path.join(work, `${stem}.scaled.png`);
  run("convert", [file, "-resize", `${Math.floor(width * scale)}x${Math.floor(height * scale)}`, out]);
  return out;
}

/**
 * A page of the corpus; a panel cut out of one (`of`, `crop`) as a PNG, a photo of one (`of`,
 * `capture`), a small copy of one (`of`, `scale`) or one scanned askew (`of`, `turn`) as a JPEG, in
 * the work folder.
 */
function pageFile(name) {
  const { of, crop, capture, scale, turn } = entry(name);
  if (!of) return path.join(corpus, name);
  const out = path.join(work, name);
  if (capture) {
    const seedName = of.replace(/\.[^.]+$/, "");
    makeCapture(path.join(corpus, of), capture, out, { work, seedName, longSide: PHOTO_LONG_SIDE });
  } else if (scale) run("convert", [path.join(corpus, of), "-resize", `${scale}%`, "-quality", "92", out]);
  else if (turn) run("convert", [path.join(corpus, of), "-background", "white", "-rotate", String(turn), "-quality", "92", out]);
  else run("convert", [path.join(corpus, of), "-crop", crop, "+repage", out]);
  return out;
}

async function measurePage(base, auth, name) {
  const { language, text, crop, capture, scale, turn } = entry(name);
  let file = pageFile(name);
  const stem = name.replace(/\.[^.]+$/, "");
  const truth = units(text, language);
  const truthPairs = pairs(text, language, BALLOONS);
  const row = {
    name,
    language,
    units: truth.length,
    pairs: truthPairs.length,
    ...(crop ? { panel: true } : {}),
    ...(capture ? { photo: true } : {}),
    ...(scale ? { small: true } : {}),
    ...(turn ? { askew: true } : {}),
  };

  // A page the service refuses for its pixel size is measured again scaled to the limit; native reads the same copy.
  const first = await job(base, auth, file, { tool: "ocr", source_language: language, export_formats: ["txt"] });
  let ocr = first;
  if (first.code === "image_too_large") {
    const scaled = scaledToLimit(file, first.message, stem);
    if (scaled) {
      row.refused = { code: first.code, message: first.message };
      row.nativeOriginalRecall = Math.max(...nativeReadings(file, language).map((r) => score(truth, r.units).recall));
      file = scaled;
      const s = imageStats(file);
      row.scaledTo = `${s.width}×${s.height}`;
      ocr = await job(base, auth, file, { tool: "ocr", source_language: language, export_formats: ["txt"] });
    }
  }
  const input = imageStats(file);

  // Native on the input: the floor, and what it can read there (the source units a result should lose).
  const natives = nativeReadings(file, language).map((r) => ({ ...r, ...score(truth, r.units) }));
  const best = natives.reduce((a, b) => (b.recall > a.recall ? b : a));
  row.native = {
    lang: best.lang,
    recall: best.recall,
    precision: best.precision,
    pairRecall: score(truthPairs, pairs(best.text, language, PARAGRAPHS)).recall,
    seconds: best.seconds,
  };
  const inputReadable = common(truth, best.units);
  row.nativeReadable = inputReadable.length;

  // The service's reading.
  const ours = ocr.exports.txt ? score(truth, units(ocr.exports.txt.toString("utf8"), language)) : { recall: null, precision: null };
  if (ocr.exports.txt) writeFileSync(path.join(OUT, `${stem}.ocr.txt`), ocr.exports.txt);
  row.ocr = {
    status: ocr.status,
    code: ocr.code,
    seconds: ocr.seconds,
    stages: ocr.stages,
    recall: ours.recall,
    precision: ours.precision,
    pairRecall: ocr.exports.txt ? score(truthPairs, pairs(ocr.exports.txt.toString("utf8"), language, PARAGRAPHS)).recall : null,
  };

  for (const tool of language === "en" ? ["translate", "erase"] : ["erase"]) {
    const options =
      tool === "translate"
        ? { tool, source_language: language, target_language: "es", export_formats: ["png", "txt"] }
        : { tool, source_language: language, export_formats: ["png"] };
    const r = await job(base, auth, file, options);
    const m = { status: r.status, code: r.code, seconds: r.seconds, stages: r.stages };
    if (r.exports.png) {
      const out = path.join(OUT, `${stem}.${tool}.png`);
      writeFileSync(out, r.exports.png);
      if (r.exports.txt) writeFileSync(path.join(OUT, `${stem}.${tool}.txt`), r.exports.txt);
      const s = imageStats(out);
      Object.assign(m, {
        width: s.width,
        height: s.height,
        sizeKept: s.width === input.width && s.height === input.height,
        chromaRatio: input.chroma ? s.chroma / input.chroma : null,
        ...leftover(out, language, inputReadable, r.exports.txt?.toString("utf8")),
      });
    }
    row[tool] = m;
  }
  // Where the translation's lettering lands: inside the balloons the detector's text mask lies in.
  const drawnOn = (tool) => path.join(OUT, `${stem}.${tool}.png`);
  const against = !row.refused && row.translate?.status === "completed" && row.erase?.status === "completed" && placementInputs(name, file);
  if (against) {
    const placed = balloonPlacement(
      against.source,
      against.mask,
      drawnOn("translate"),
      drawnOn("erase"),
      path.join(OUT, `${stem}.placement.png`),
    );
    if (placed) row.translate.placement = placed;
  }
  return row;
}

/**
 * The page and text mask a translation's placement is measured against (`balloonPlacement`), or
 * null where the corpus has no mask: a page's own; for a photo of a page, the mask photographed
 * as the page was (the same capture: its geometry comes from the seed alone, so it lies on the
 * photo's text) with no light, noise or blur, and the page so photographed in even light, whose
 * balloons are light where the photo's fell dim.
 */
function placementInputs(name, file) {
  const { of, capture, scale, turn } = entry(name);
  const stem = (of ?? name).replace(/\.[^.]+$/, "");
  const mask = path.join(corpus, `ctd-mask-${stem}.png`);
  if (!existsSync(mask)) return null;
  if (scale) {
    const small = path.join(work, `${name.replace(/\.[^.]+$/, "")}.mask.png`);
    run("convert", [mask, "-resize", `${scale}%`, small]);
    return { source: file, mask: small };
  }
  if (turn) {
    const turned = path.join(work, `${name.replace(/\.[^.]+$/, "")}.mask.png`);
    run("convert", [mask, "-background", "black", "-rotate", String(turn), turned]);
    return { source: file, mask: turned };
  }
  if (!capture) return of ? null : { source: file, mask };
  const shot = (src, out, tweaks) => makeCapture(src, capture, out, { work, seedName: stem, longSide: PHOTO_LONG_SIDE, tweaks }).file;
  const base = path.join(work, name.replace(/\.[^.]+$/, ""));
  return {
    source: shot(path.join(corpus, of), `${base}.even.png`, { light: 0, shadow: 0 }),
    mask: shot(mask, `${base}.mask.png`, { light: 0, shadow: 0, noise: 0, blur: 0 }),
  };
}

const mean = (xs) => {
  const v = xs.filter((x) => typeof x === "number");
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
};

/** Pooled and mean figures over a set of rows (the whole pages, or the panels). */
function overallOf(rows) {
  const sumOf = (f) => rows.reduce((n, r) => n + f(r), 0);
  const pooled = (key) => {
    // Recall over every unit of every page (pages weighted by their text), and the mean of the pages.
    const hit = sumOf((r) => (r[key]?.recall ?? 0) * r.units);
    return {
      pooled:
        hit /
        Math.max(
          1,
          sumOf((r) => r.units),
        ),
      mean: mean(rows.map((r) => r[key]?.recall)),
    };
  };
  const inOrder = (key) =>
    sumOf((r) => (r[key].pairRecall ?? 0) * r.pairs) /
    Math.max(
      1,
      sumOf((r) => r.pairs),
    );
  const overall = {
    pages: rows.length,
    units: sumOf((r) => r.units),
    oursRecall: pooled("ocr").pooled,
    nativeRecall: pooled("native").pooled,
    oursMeanRecall: mean(rows.map((r) => r.ocr.recall ?? 0)),
    nativeMeanRecall: pooled("native").mean,
    oursPrecision: mean(rows.map((r) => r.ocr.precision)),
    nativePrecision: mean(rows.map((r) => r.native.precision)),
    // Neighbouring units of a balloon read next to each other, over every pair of every page.
    pairs: sumOf((r) => r.pairs),
    oursPairRecall: inOrder("ocr"),
    nativePairRecall: inOrder("native"),
  };
  for (const tool of ["translate", "erase"]) {
    const rs = rows.filter((r) => r[tool]);
    const readable = sumOf((r) => (r[tool] ? r.nativeReadable : 0));
    overall[tool] = {
      pages: rs.length,
      completed: rs.filter((r) => r[tool].status === "completed").length,
      left: readable ? sumOf((r) => r[tool]?.leftUnits ?? 0) / readable : null,
      leftNotInTranslation: mean(rs.map((r) => r[tool].leftNotInTranslation)),
      chromaRatio: mean(rs.map((r) => r[tool].chromaRatio)),
      sizeKept: rs.filter((r) => r[tool].sizeKept).length,
      meanSeconds: mean(rs.map((r) => r[tool].seconds)),
    };
  }
  const placed = rows.map((r) => r.translate?.placement).filter(Boolean);
  if (placed.length) {
    const drawn = placed.reduce((n, p) => n + p.drawn, 0);
    overall.translate.placement = { pages: placed.length, drawn, outside: placed.reduce((n, p) => n + p.outside, 0) / Math.max(1, drawn) };
  }
  overall.ocr = {
    completed: rows.filter((r) => r.ocr.status === "completed").length,
    meanSeconds: mean(rows.map((r) => r.ocr.seconds)),
    nativeMeanSeconds: mean(rows.map((r) => r.native.seconds)),
  };
  return overall;
}

function summarise(rows) {
  const tools = ["ocr", "translate", "erase"];
  const overall = overallOf(rows.filter((r) => !r.panel && !r.photo && !r.small && !r.askew));
  const panelRows = rows.filter((r) => r.panel);
  const panels = panelRows.length ? overallOf(panelRows) : null;
  const photoRows = rows.filter((r) => r.photo);
  const photos = photoRows.length ? overallOf(photoRows) : null;
  const smallRows = rows.filter((r) => r.small);
  const small = smallRows.length ? overallOf(smallRows) : null;
  const askewRows = rows.filter((r) => r.askew);
  const askew = askewRows.length ? overallOf(askewRows) : null;

  const lines = [
    "| page | lang | units | recall ours | recall native | ratio | in order ours / native | precision ours / native | left after translate | left after erase | translation outside balloons | chroma translate / erase | size kept | s ocr / translate / erase (native s) |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const r of rows) {
    const t = r.translate;
    const e = r.erase;
    lines.push(
      `| ${r.name}${r.scaledTo ? ` (refused; sent scaled to ${r.scaledTo})` : ""} | ${r.language} (${r.native.lang}) | ${r.units} | ${pct(r.ocr.recall)} | ${pct(r.native.recall)} | ${ratio(r.ocr.recall, r.native.recall)} | ${pct(r.ocr.pairRecall)} / ${pct(r.native.pairRecall)} | ${pct(r.ocr.precision)} / ${pct(r.native.precision)} | ${t ? `${pct(t.left)} (${t.leftUnits ?? "–"}/${r.nativeReadable}; ${pct(t.leftNotInTranslation)} not in the translation)` : "n/a"} | ${e ? `${pct(e.left)} (${e.leftUnits ?? "–"}/${r.nativeReadable})` : "–"} | ${t?.placement ? `${pct(t.placement.outside / Math.max(1, t.placement.drawn))} of ${t.placement.drawn} px` : "–"} | ${t ? ratio(t.chromaRatio, 1) : "n/a"} / ${ratio(e?.chromaRatio, 1)} | ${[
        t,
        e,
      ]
        .filter(Boolean)
        .map((x) => (x.sizeKept ? "yes" : x.width ? `no (${x.width}×${x.height})` : "–"))
        .join(" / ")} | ${secs(r.ocr.seconds)} / ${t ? secs(t.seconds) : "n/a"} / ${secs(e?.seconds)} (${secs(r.native.seconds)}) |`,
    );
    const bad = tools
      .filter((k) => r[k] && r[k].status !== "completed")
      .map((k) => `${k} ${r[k].status}${r[k].code ? ` ${r[k].code}` : ""}`);
    if (r.refused) bad.unshift(`the page as it is: ${r.refused.code} (${r.refused.message}); native on it ${pct(r.nativeOriginalRecall)}`);
    if (bad.length) lines.push(`|  ↳ ${bad.join("; ")} | | | | | | | | | | | | | |`);
  }
  for (const [label, o] of [
    ["**overall**, whole pages", overall],
    ["**panels**", panels],
    ["**photos**", photos],
    ["**small copies**", small],
    ["**scanned askew**", askew],
  ].filter(([, o]) => o))
    lines.push(
      `| ${label} (pooled over ${o.units} units) | | ${o.units} | ${pct(o.oursRecall)} | ${pct(o.nativeRecall)} | ${ratio(o.oursRecall, o.nativeRecall)} | ${pct(o.oursPairRecall)} / ${pct(o.nativePairRecall)} | ${pct(o.oursPrecision)} / ${pct(o.nativePrecision)} | ${pct(o.translate.left)} (${pct(o.translate.leftNotInTranslation)} not in the translation) | ${pct(o.erase.left)} | ${o.translate.placement ? `${pct(o.translate.placement.outside)} of ${o.translate.placement.drawn} px` : "–"} | ${ratio(o.translate.chromaRatio, 1)} / ${ratio(o.erase.chromaRatio, 1)} | ${o.translate.sizeKept}/${o.translate.pages} / ${o.erase.sizeKept}/${o.erase.pages} | ${secs(o.ocr.meanSeconds)} / ${secs(o.translate.meanSeconds)} / ${secs(o.erase.meanSeconds)} (${secs(o.ocr.nativeMeanSeconds)}) |`,
    );
  lines.push("", "| page | job | seconds in each state |", "|---|---|---|");
  for (const r of rows)
    for (const k of tools)
      if (r[k]?.stages)
        lines.push(
          `| ${r.name} | ${k} | ${Object.entries(r[k].stages)
            .map(([state, s]) => `${state} ${s.toFixed(1)}`)
            .join(", ")} |`,
        );
  return { table: lines.join("\n"), overall, panels, photos, small, askew };
}

/** What the comparison with native tesseract needs on the machine. */
const NATIVE_INSTALL = "apt-get install tesseract-ocr tesseract-ocr-jpn tesseract-ocr-jpn-vert imagemagick";

async function main() {
  for (const [tool, args] of [
    ["tesseract", ["--version"]],
    ["convert", ["-version"]],
  ])
    if (spawnSync(tool, args).error) throw new Error(`${tool} is missing: ${NATIVE_INSTALL}`);
  const langs = spawnSync("tesseract", ["--list-langs"], { encoding: "utf8" }).stdout;
  for (const l of ["eng", "jpn", "jpn_vert"])
    if (!langs.split("\n").includes(l)) throw new Error(`tesseract has no ${l} model: ${NATIVE_INSTALL}`);
  mkdirSync(OUT, { recursive: true });
  mkdirSync(logDir, { recursive: true });
  const only = process.env.ONLY?.split(",");
  const pages = PAGES.filter((p) => !only || only.some((o) => p.includes(o)));

  let svc;
  let dir;
  const rows = [];
  try {
    if (process.env.BASE) {
      const key = process.env.KEY ?? readFileSync(path.join(root, ".wrangler/dev-api-key"), "utf8").trim();
      svc = { base: process.env.BASE, key, stop: async () => {} };
    } else {
      dir = scratchCopy("lingoscan-bench-comics-", ["test/bench/logs"]);
      svc = await startService(dir, { logFile: path.join(logDir, "comics-service.log") });
    }
    const auth = { Authorization: `Bearer ${svc.key}` };
    console.log(`bench: service at ${svc.base}`);
    // First use in each engine process (models, wasm) is not what a running service pays: one
    // English and one Japanese page are read once, untimed.
    const warm = [pages.find((p) => entry(p).language === "en"), pages.find((p) => entry(p).language === "ja")];
    for (const p of warm.filter(Boolean))
      await job(svc.base, auth, pageFile(p), {
        tool: "ocr",
        source_language: entry(p).language,
        export_formats: ["txt"],
      }).catch(() => null);
    for (const name of pages) {
      const row = await measurePage(svc.base, auth, name);
      rows.push(row);
      console.log(JSON.stringify(row));
    }
  } finally {
    await svc?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  }
  const { table, overall, panels, photos, small, askew } = summarise(rows);
  console.log(
    `\nComics and manga pages: the service against native tesseract (Debian's models, one thread). Units: words (en), characters (ja).` +
      `\nLeft = share of the source units native tesseract reads on the input that it reads again on the result. Chroma = mean max−min of RGB, result ÷ input.\n`,
  );
  console.log(table);
  console.log(`\nresult images: ${OUT}`);
  if (!existsSync(OUT)) console.log("(none written)");
  reportResult("comics", {
    overall,
    ...(panels ? { panels } : {}),
    ...(photos ? { photos } : {}),
    ...(small ? { small } : {}),
    ...(askew ? { askew } : {}),
    pages: rows,
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
