// OCR benchmark: accuracy (CER/WER) and speed of the engine Worker against native tesseract on the
// same images, in the same run, with the same best_int models; the engine's wasm heap per page.
//   npm run bench:ocr            (needs Debian's tesseract-ocr: apt-get install tesseract-ocr)
//   OCR_BENCH=scripts npm run bench:ocr   only the scripts sections (other scripts, directions, auto)
//   OCR_BENCH_LANGS=kor,ara               only these languages' pages in the scripts sections
//   OCR_BENCH_TEXTS=DIR                   also save the engine's and native texts of the real pages there
// The corpus is generated here: public-domain text in 8 languages rendered at 300/200/150 dpi in
// several fonts, clean and degraded (blur, noise, JPEG artefacts, 1–3° skew), plus tables.
import { PhotonImage } from "@cf-wasm/photon";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { reportResult } from "./bench-result.mjs";
import { nativeTessdata, runNative } from "./native-ocr.mjs";
import { startEngine } from "./ocr-harness.mjs";
import {
  CJK_FONT,
  LATIN_FONTS,
  languagePageSvg,
  renderHtmlPng,
  renderPng,
  renderRgba,
  RESVG_LANGUAGES,
  ruledTableSvg,
  TEXTS,
  textPageSvg,
} from "./ocr-render.mjs";
import { errorRates, referenceLetters } from "./text-metrics.mjs";
import { fontFiles } from "../../scripts/models.mjs";
import { ocrModel } from "../../workers/shared/ocr-models.ts";

const DPIS = [300, 200, 150];
/** Languages measured in the scripts section (their own faces, right to left, columns, Devanagari) rather than in the Latin/CJK corpus. */
const SCRIPT_PAGES = ["ara", "heb", "rus", "hin", "kor", "jpn_vert", "chi_sim_vert", "kor_vert"];
/** Pages `auto` is measured on: one language per script it tells apart, and several Latin and CJK ones. */
const AUTO_PAGES = [
  "eng",
  "fra",
  "deu",
  "spa",
  "ita",
  "por",
  "rus",
  "ara",
  "heb",
  "hin",
  "kor",
  "jpn",
  "chi_sim",
  "jpn_vert",
  "chi_sim_vert",
  "kor_vert",
];
/** Real pages the tests read too (test/fixtures/real) and those only this benchmark reads (real-pages; origins in their READMEs). */
const testPages = path.join(import.meta.dirname, "../fixtures/real");
const benchPages = path.join(import.meta.dirname, "real-pages");
/**
 * Pages of real documents with their reference text: compared letters only (NFKC; zero-width
 * non-joiners, bidi marks and punctuation aside), as most references come from pdftotext, which
 * drops the former and moves punctuation across spaces.
 */
const REAL_PAGES = [
  { lang: "fas", dir: testPages, image: "texlive_lshort-persian-p3.png", text: "texlive_lshort-persian-p3.txt" },
  { lang: "ara", dir: testPages, image: "amiri_documentation-arabic-p2.png", text: "amiri_documentation-arabic-p2.txt" },
  { lang: "heb", dir: testPages, image: "hspell_niqqudless-p6.png", text: "hspell_niqqudless-p6.txt" },
  { lang: "rus", dir: benchPages, image: "texlive_mpman-ru-p79.png", text: "texlive_mpman-ru-p79.txt" },
  { lang: "kor", dir: benchPages, image: "texlive_lshort-korean-p15.png", text: "texlive_lshort-korean-p15.txt" },
  { lang: "hin", dir: benchPages, image: "mahaviri_aamukha.png", text: "mahaviri_aamukha.txt" },
  { lang: "chi_sim_vert", dir: testPages, image: "zhmetrics-uptex_fandol-test-p2.png", text: "zhmetrics-uptex_fandol-test-p2.txt" },
  { lang: "jpn_vert", dir: testPages, image: "uptex_aozora-utarticle-p1.png", text: "uptex_aozora-utarticle-p1.txt" },
  { lang: "jpn_vert", dir: testPages, image: "uptex_aozora-utarticle-p2.png", text: "uptex_aozora-utarticle-p2.txt" },
];
const SCRIPTS_ONLY = process.env.OCR_BENCH === "scripts";
const ONLY_LANGS = process.env.OCR_BENCH_LANGS?.split(",");
const measured = (lang) => !ONLY_LANGS || ONLY_LANGS.includes(lang);

/**
 * Native tesseract's page segmentation for a page: a page of columns as one block of vertical
 * text (PSM 5; with automatic layout it loses Hangul columns altogether), Hangul lines as the
 * engine reads them (PSM 4: automatic layout drops most of them), else automatic layout.
 */
const nativeMode = (lang) => (ocrModel(lang)?.vertical ? ["--psm", "5"] : ocrModel(lang)?.script === "Hangul" ? ["--psm", "4"] : []);
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const work = path.join(os.tmpdir(), "lingoscan-ocr-bench");
const tessdata = path.join(work, "tessdata");
mkdirSync(tessdata, { recursive: true });

function gray(rgba, n) {
  const g = new Uint8Array(n);
  for (let i = 0; i < n; i++) g[i] = (rgba[i * 4] * 77 + rgba[i * 4 + 1] * 150 + rgba[i * 4 + 2] * 29) >> 8;
  return g;
}

/** Blur (two 3x3 box passes), Gaussian-ish noise (σ≈10, fixed seed), then JPEG at quality 55. */
function degrade({ width, height, rgba }, seed) {
  let g = gray(rgba, width * height);
  for (let pass = 0; pass < 2; pass++) {
    const out = new Uint8Array(g.length);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        let s = 0;
        let n = 0;
        for (let dy = -1; dy <= 1; dy++)
          for (let dx = -1; dx <= 1; dx++) {
            const xx = x + dx;
            const yy = y + dy;
            if (xx >= 0 && yy >= 0 && xx < width && yy < height) {
              s += g[yy * width + xx];
              n++;
            }
          }
        out[y * width + x] = s / n;
      }
    }
    g = out;
  }
  let state = seed >>> 0 || 1;
  const rand = () => (state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const px = new Uint8Array(width * height * 4);
  for (let i = 0; i < g.length; i++) {
    const noise = (rand() + rand() + rand() - 1.5) * 20;
    const v = Math.max(0, Math.min(255, Math.round(g[i] + noise)));
    px.set([v, v, v, 255], i * 4);
  }
  const img = new PhotonImage(px, width, height);
  try {
    return img.get_bytes_jpeg(55);
  } finally {
    img.free();
  }
}

function corpus() {
  const pages = [];
  let seed = 1;
  for (const [lang, lines] of Object.entries(TEXTS).filter(([l]) => !SCRIPT_PAGES.includes(l))) {
    const cjk = CJK.test(lines[0]);
    const text = [...lines, ...lines, ...lines];
    DPIS.forEach((dpi, i) => {
      const font = cjk ? CJK_FONT : LATIN_FONTS[i % LATIN_FONTS.length];
      const pt = cjk ? 14 : 11;
      const clean = textPageSvg(text, { font, dpi, pt });
      pages.push({ lang, dpi, font, kind: "clean", ext: "png", bytes: renderPng(clean.svg), text: text.join("\n"), cjk });
      const skew = 1 + (seed % 3);
      const skewed = textPageSvg(text, { font, dpi, pt, skew });
      pages.push({
        lang,
        dpi,
        font,
        kind: `degraded (skew ${skew}°)`,
        ext: "jpg",
        bytes: degrade(renderRgba(skewed.svg), seed++),
        text: text.join("\n"),
        cjk,
      });
    });
  }
  return pages;
}

async function runEngine(engine, id, bytes, lang) {
  await engine.files.put(`bench/${id}`, bytes);
  const t0 = performance.now();
  const pre = await engine.call("preprocess", { sourceKey: `bench/${id}`, page: 0, outKey: `bench/${id}.page.png`, languages: [lang] });
  const rec = await engine.call("recognize", { pageKey: pre.key, languages: [lang], outKey: `bench/${id}.json` });
  const ms = performance.now() - t0;
  const page = await (await engine.files.get(rec.key)).json();
  return { text: page.regions.map((r) => r.text).join("\n"), ms, heap: rec.heapBytes };
}

/** The words of `a` that `b` also has (as a multiset), in `a`'s order. */
function common(a, b) {
  const left = [...b];
  return a.filter((w) => {
    const k = left.indexOf(w);
    if (k >= 0) left.splice(k, 1);
    return k >= 0;
  });
}

/**
 * Reading order of right-to-left lines: line by line, the words read exactly (at least half of
 * them) come in the order written.
 */
function orderExact(expectedLines, actual) {
  const got = actual
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  if (got.length !== expectedLines.length) return false;
  return expectedLines.every((line, i) => {
    const [e, g] = [line.split(" "), got[i].split(" ")];
    const read = common(g, e);
    return read.length >= e.length / 2 && read.join(" ") === common(e, g).join(" ");
  });
}

/**
 * Word order of a reading against a reference without the same line breaks: the pairs of
 * neighbouring words of each line read that are neighbours in the reference too, in the order
 * written (`forward`) or the other way round (`reversed`). A right-to-left line read in the wrong
 * direction shows as reversed pairs.
 */
function pairOrder(reference, reading) {
  const words = (t) => t.split(/\s+/).filter((w) => [...w].length >= 2);
  const ref = reference.split("\n").flatMap((l) => words(l));
  const pairs = new Set(ref.slice(1).map((w, i) => `${ref[i]} ${w}`));
  let forward = 0;
  let reversed = 0;
  for (const line of reading.split("\n")) {
    const w = words(line);
    for (let i = 1; i < w.length; i++) {
      if (pairs.has(`${w[i - 1]} ${w[i]}`)) forward++;
      else if (pairs.has(`${w[i]} ${w[i - 1]}`)) reversed++;
    }
  }
  return { forward, reversed };
}

/** Lines of words, punctuation aside (pdftotext moves punctuation at the edge of right-to-left words across the space, for both engines' PDFs). */
const wordLines = (text) =>
  text
    .replace(/[\u202a-\u202e]/g, "")
    .split("\n")
    .map((l) => l.replace(/\p{P}/gu, " ").replace(/\s+/g, " ").trim())
    .filter(Boolean);

/** The text layer of a PDF, as pdftotext extracts it. */
function pdfText(file) {
  const r = spawnSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`pdftotext failed: ${r.stderr}`);
  return r.stdout;
}

/** The engine's searchable PDF of a page read before (`id` as given to runEngine), written to `file`. */
async function enginePdf(engine, id, file) {
  const [built] = await engine.call("buildExports", {
    pageTextKeys: [`bench/${id}.json`],
    formats: ["searchable_pdf"],
    outPrefix: `bench/${id}-pdf/`,
    baseName: "page",
  });
  writeFileSync(file, new Uint8Array(await (await engine.files.get(built.key)).arrayBuffer()));
}

/** Native tesseract's searchable PDF of the same page (its `pdf` output config, same model), written to `<base>.pdf`. */
function nativePdf(image, lang, base) {
  const r = spawnSync("tesseract", [image, base, "-l", lang, "--tessdata-dir", tessdata, "pdf"], {
    encoding: "utf8",
    env: { ...process.env, OMP_THREAD_LIMIT: "1" },
  });
  if (r.status !== 0) throw new Error(`tesseract pdf failed: ${r.stderr}`);
  return `${base}.pdf`;
}

/** A scripts page: resvg with the language's face, Chromium for Devanagari (resvg cannot shape it). */
async function scriptPage(lang, dpi) {
  if (RESVG_LANGUAGES.includes(lang)) return renderPng(languagePageSvg(lang, TEXTS[lang], { dpi }).svg);
  const fontFile = fontFiles().find((f) => f.key === "fonts/NotoSansDevanagari-Regular.ttf").file;
  return renderHtmlPng(TEXTS[lang], { fontFile, dpi, pt: 14 });
}

const pct = (x) => `${(x * 100).toFixed(2)} %`;
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

async function main() {
  if (spawnSync("tesseract", ["--version"]).status !== 0) throw new Error("native tesseract is missing: apt-get install tesseract-ocr");
  nativeTessdata(tessdata, [...Object.keys(TEXTS), ...REAL_PAGES.map((p) => p.lang)]);
  // tesseract's pdf output wants its glyph-less font and output configs in the tessdata directory.
  for (const f of ["pdf.ttf", "configs"])
    cpSync(path.join("/usr/share/tesseract-ocr/5/tessdata", f), path.join(tessdata, f), { recursive: true });
  // The corpus is rendered before the engine starts: idle connections to wrangler dev time out.
  const pages = SCRIPTS_ONLY ? [] : corpus();
  const scriptPages = [];
  for (const lang of SCRIPT_PAGES.filter(measured))
    for (const dpi of [300, 200]) scriptPages.push({ lang, dpi, bytes: await scriptPage(lang, dpi) });
  const autoPages = [];
  for (const lang of AUTO_PAGES.filter(measured)) autoPages.push({ lang, bytes: await scriptPage(lang, 300) });
  const engine = await startEngine({ languages: REAL_PAGES.map((p) => p.lang) });
  try {
    console.log("\n## Scripts: first use of each model, then accuracy against native tesseract (same model file)\n");
    console.log(
      "| lang | dpi | engine CER | native CER | CER ratio | reading order (engine / native) | PDF layer order (engine / native) | first use s | warm s | heap MB |",
    );
    console.log("|---|---|---|---|---|---|---|---|---|---|");
    const scripts = [];
    for (const [i, p] of scriptPages.entries()) {
      const file = path.join(work, `s${i}.png`);
      writeFileSync(file, p.bytes);
      const first = await runEngine(engine, `s${i}-first.png`, p.bytes, p.lang);
      const e = await runEngine(engine, `s${i}.png`, p.bytes, p.lang);
      const n = runNative(file, p.lang, tessdata, nativeMode(p.lang));
      const cjk = CJK.test(TEXTS[p.lang][0]) || !!ocrModel(p.lang)?.vertical;
      const expected = TEXTS[p.lang].join("\n");
      const er = errorRates(expected, e.text, cjk);
      const nr = errorRates(expected, n.text, cjk);
      const rtl = ocrModel(p.lang)?.direction === "rtl";
      const order = rtl
        ? `${orderExact(TEXTS[p.lang], e.text) ? "exact" : "wrong"} / ${orderExact(TEXTS[p.lang], n.text) ? "exact" : "wrong"}`
        : "–";
      let pdfOrder = "–";
      if (rtl) {
        await enginePdf(engine, `s${i}.png`, path.join(work, `s${i}-engine.pdf`));
        const ok = (pdf, text) => JSON.stringify(wordLines(pdfText(pdf))) === JSON.stringify(wordLines(text));
        pdfOrder = `${ok(path.join(work, `s${i}-engine.pdf`), e.text) ? "exact" : "wrong"} / ${ok(nativePdf(file, p.lang, path.join(work, `s${i}-native`)), n.text) ? "exact" : "wrong"}`;
      }
      const ratio = nr.cer > 0 ? er.cer / nr.cer : er.cer === 0 ? 1 : Infinity;
      scripts.push({
        lang: p.lang,
        dpi: p.dpi,
        engineCer: er.cer,
        nativeCer: nr.cer,
        ratio,
        order,
        pdfOrder,
        firstMs: first.ms,
        warmMs: e.ms,
        heapMB: e.heap / 2 ** 20,
      });
      console.log(
        `| ${p.lang} | ${p.dpi} | ${pct(er.cer)} | ${pct(nr.cer)} | ${ratio.toFixed(2)} | ${order} | ${pdfOrder} | ${(first.ms / 1000).toFixed(2)} | ${(e.ms / 1000).toFixed(2)} | ${(e.heap / 2 ** 20).toFixed(1)} |`,
      );
    }

    console.log("\n## Real pages: engine and native tesseract (same model), letters against the reference\n");
    console.log(
      "| page | lang | engine CER | native CER | CER ratio | word pairs in order, reversed (engine / native) | first use s | warm s | heap MB |",
    );
    console.log("|---|---|---|---|---|---|---|---|---|");
    const real = [];
    for (const p of REAL_PAGES.filter((x) => measured(x.lang))) {
      const file = path.join(p.dir, p.image);
      const bytes = readFileSync(file);
      const first = await runEngine(engine, `real-${p.image}-first`, bytes, p.lang);
      const e = await runEngine(engine, `real-${p.image}`, bytes, p.lang);
      const n = runNative(file, p.lang, tessdata, nativeMode(p.lang));
      if (process.env.OCR_BENCH_TEXTS) {
        mkdirSync(process.env.OCR_BENCH_TEXTS, { recursive: true });
        writeFileSync(path.join(process.env.OCR_BENCH_TEXTS, `${p.image}.engine.txt`), e.text);
        writeFileSync(path.join(process.env.OCR_BENCH_TEXTS, `${p.image}.native.txt`), n.text);
      }
      const expected = referenceLetters(readFileSync(path.join(p.dir, p.text), "utf8"));
      const cjk = !!ocrModel(p.lang)?.vertical;
      const [er, nr] = [errorRates(expected, referenceLetters(e.text), cjk), errorRates(expected, referenceLetters(n.text), cjk)];
      const ratio = nr.cer > 0 ? er.cer / nr.cer : er.cer === 0 ? 1 : Infinity;
      const [eo, no] = [pairOrder(expected, referenceLetters(e.text)), pairOrder(expected, referenceLetters(n.text))];
      // Words are what the order counts; CJK columns have none (their order shows in the CER).
      const order = cjk ? "–" : `${eo.forward}, ${eo.reversed} / ${no.forward}, ${no.reversed}`;
      real.push({
        page: p.image,
        lang: p.lang,
        engineCer: er.cer,
        nativeCer: nr.cer,
        ratio,
        order,
        firstMs: first.ms,
        warmMs: e.ms,
        heapMB: e.heap / 2 ** 20,
      });
      console.log(
        `| ${p.image} | ${p.lang} | ${pct(er.cer)} | ${pct(nr.cer)} | ${ratio.toFixed(2)} | ${order} | ${(first.ms / 1000).toFixed(2)} | ${(e.ms / 1000).toFixed(2)} | ${(e.heap / 2 ** 20).toFixed(1)} |`,
      );
    }

    console.log("\n## auto: the language chosen for a page (300 dpi) from every model seeded here\n");
    console.log("| page | chosen | right | s |");
    console.log("|---|---|---|---|");
    const auto = [];
    for (const [i, p] of autoPages.entries()) {
      const id = `auto${i}.png`;
      await engine.files.put(`bench/${id}`, p.bytes);
      const t0 = performance.now();
      const pre = await engine.call("preprocess", {
        sourceKey: `bench/${id}`,
        page: 0,
        outKey: `bench/${id}.page.png`,
        languages: ["auto"],
      });
      const rec = await engine.call("recognize", { pageKey: pre.key, languages: ["auto"], outKey: `bench/${id}.json` });
      const ms = performance.now() - t0;
      const chosen = rec.languages.join("+");
      auto.push({ lang: p.lang, chosen, right: chosen === p.lang, ms });
      console.log(`| ${p.lang} | ${chosen} | ${chosen === p.lang ? "yes" : "no"} | ${(ms / 1000).toFixed(2)} |`);
    }
    console.log(
      `\nauto chose the page's language on ${auto.filter((a) => a.right).length} of ${auto.length} pages; mean ${(mean(auto.map((a) => a.ms)) / 1000).toFixed(2)} s a page`,
    );
    if (SCRIPTS_ONLY) return;

    // Warm both engines' models once (first-use model loading is not what the speed figures measure).
    const warm = pages.filter((p) => p.kind === "clean" && p.dpi === 150);
    for (const p of warm) await runEngine(engine, `warm-${p.lang}`, p.bytes, p.lang);

    console.log("\n## Accuracy: CER / WER, engine vs native tesseract (same best_int models)\n");
    console.log("| lang | dpi | font | input | engine CER | native CER | engine WER | native WER |");
    console.log("|---|---|---|---|---|---|---|---|");
    const rows = [];
    for (const [i, p] of pages.entries()) {
      const file = path.join(work, `p${i}.${p.ext}`);
      writeFileSync(file, p.bytes);
      const e = await runEngine(engine, `p${i}.${p.ext}`, p.bytes, p.lang);
      const n = runNative(file, p.lang, tessdata);
      const er = errorRates(p.text, e.text, p.cjk);
      const nr = errorRates(p.text, n.text, p.cjk);
      rows.push({ ...p, er, nr });
      console.log(`| ${p.lang} | ${p.dpi} | ${p.font} | ${p.kind} | ${pct(er.cer)} | ${pct(nr.cer)} | ${pct(er.wer)} | ${pct(nr.wer)} |`);
    }
    const subsets = [];
    const summary = (label, sel) => {
      const r = rows.filter(sel);
      subsets.push({
        label,
        pages: r.length,
        engineCer: mean(r.map((x) => x.er.cer)),
        nativeCer: mean(r.map((x) => x.nr.cer)),
        engineWer: mean(r.map((x) => x.er.wer)),
        nativeWer: mean(r.map((x) => x.nr.wer)),
      });
      console.log(
        `| ${label} | ${r.length} | ${pct(mean(r.map((x) => x.er.cer)))} | ${pct(mean(r.map((x) => x.nr.cer)))} | ${pct(mean(r.map((x) => x.er.wer)))} | ${pct(mean(r.map((x) => x.nr.wer)))} |`,
      );
    };
    console.log("\n| subset | pages | engine CER | native CER | engine WER | native WER |");
    console.log("|---|---|---|---|---|---|");
    summary("clean 300 dpi", (r) => r.kind === "clean" && r.dpi === 300);
    summary("clean 200 dpi", (r) => r.kind === "clean" && r.dpi === 200);
    summary("clean 150 dpi", (r) => r.kind === "clean" && r.dpi === 150);
    summary("degraded, all dpi", (r) => r.kind !== "clean");
    summary("Latin scripts, all", (r) => !r.cjk);
    summary("CJK, all", (r) => r.cjk);
    summary("all pages", () => true);

    console.log("\n## Tables (engine; cells compared exactly, whitespace trimmed)\n");
    const tables = [
      {
        name: "ruled with spans",
        svg: ruledTableSvg(
          [
            ["Region", "Q1 sales", ""],
            ["North", "120", "130"],
            ["South", "95", "101"],
            ["Total", "215", ""],
          ],
          {
            spans: [
              { row: 0, col: 1, rowSpan: 1, colSpan: 2 },
              { row: 3, col: 1, rowSpan: 1, colSpan: 2 },
            ],
          },
        ).svg,
        cells: ["Region", "Q1 sales", "North", "120", "130", "South", "95", "101", "Total", "215"],
      },
      {
        name: "ruled 5x4 numbers",
        svg: ruledTableSvg(
          [
            ["Year", "Apples", "Pears", "Plums"],
            ["2019", "1,204", "877", "342"],
            ["2020", "1,310", "902", "355"],
            ["2021", "1,188", "951", "401"],
            ["2022", "1,402", "1,020", "388"],
          ],
          { colWidth: 360 },
        ).svg,
        cells: [
          "Year",
          "Apples",
          "Pears",
          "Plums",
          "2019",
          "1,204",
          "877",
          "342",
          "2020",
          "1,310",
          "902",
          "355",
          "2021",
          "1,188",
          "951",
          "401",
          "2022",
          "1,402",
          "1,020",
          "388",
        ],
      },
      {
        name: "borderless",
        svg: ruledTableSvg(
          [
            ["Item", "Qty", "Price"],
            ["Apples", "12", "3.40"],
            ["Pears", "7", "2.10"],
            ["Plums", "30", "5.75"],
          ],
          { rules: false, colWidth: 480 },
        ).svg,
        cells: ["Item", "Qty", "Price", "Apples", "12", "3.40", "Pears", "7", "2.10", "Plums", "30", "5.75"],
      },
    ];
    const tableResults = [];
    console.log("| table | cells expected | cells found | exact cells | structure |");
    console.log("|---|---|---|---|---|");
    for (const [i, t] of tables.entries()) {
      await engine.files.put(`bench/table${i}.png`, renderPng(t.svg));
      const pre = await engine.call("preprocess", { sourceKey: `bench/table${i}.png`, page: 0, outKey: `bench/table${i}.page.png` });
      const res = await engine.call("extractTables", { pageKey: pre.key, languages: ["eng"], outKey: `bench/table${i}.json` });
      const found = (await (await engine.files.get(res.key)).json()).tables[0];
      const got = (found?.cells ?? []).map((c) => c.text.trim());
      const exact = t.cells.filter((c, k) => got[k] === c).length;
      tableResults.push({ name: t.name, cells: t.cells.length, exact });
      console.log(
        `| ${t.name} | ${t.cells.length} | ${got.length} | ${exact}/${t.cells.length} | ${found ? `${found.kind} ${found.rows}x${found.cols}` : "none"} |`,
      );
    }

    console.log("\n## Speed and memory: full A4 pages at 300 dpi (2480x3508), English, warm\n");
    const sentences = TEXTS.eng;
    const a4 = [0, 1, 2].map((k) => {
      const lines = Array.from({ length: 46 }, (_, i) => sentences[(i + k) % sentences.length]);
      return { bytes: renderPng(textPageSvg(lines, { font: LATIN_FONTS[k], dpi: 300, pt: 11, height: 3508 }).svg), text: lines.join("\n") };
    });
    const eTimes = [];
    const nTimes = [];
    let heap = 0;
    for (const [k, p] of a4.entries()) {
      const file = path.join(work, `a4-${k}.png`);
      writeFileSync(file, p.bytes);
      const e = await runEngine(engine, `a4-${k}.png`, p.bytes, "eng");
      const n = runNative(file, "eng", tessdata);
      eTimes.push(e.ms);
      nTimes.push(n.ms);
      heap = Math.max(heap, e.heap);
      console.log(
        `page ${k + 1}: engine ${(e.ms / 1000).toFixed(2)} s (CER ${pct(errorRates(p.text, e.text, false).cer)}), native ${(n.ms / 1000).toFixed(2)} s (CER ${pct(errorRates(p.text, n.text, false).cer)})`,
      );
    }
    const ePps = 1000 / mean(eTimes);
    const nPps = 1000 / mean(nTimes);
    console.log(
      `\nengine ${ePps.toFixed(3)} pages/s (preprocess + recognize), native tesseract ${nPps.toFixed(3)} pages/s: ratio ${(ePps / nPps).toFixed(2)}x`,
    );
    console.log(`peak tesseract wasm heap after an A4 300 dpi page: ${(heap / 2 ** 20).toFixed(1)} MB`);
    reportResult("ocr", {
      subsets,
      scripts,
      real,
      auto,
      tables: tableResults,
      enginePagesPerSecond: ePps,
      nativePagesPerSecond: nPps,
      heapMB: heap / 2 ** 20,
    });
  } finally {
    await engine.dispose();
  }
}

await main();
