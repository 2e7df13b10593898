// Many pages of Arabic-script documents typeset by others, read by the engine's tesseract build (in
// Node, fed as the engine feeds it: the page's gray in an RGBA raster; WASM=package: the
// tesseract-wasm 0.11 package the engine used before, test/bench/tesseract-build.mjs) and by
// native tesseract on the same PNG, same model: whether the one Arabic page of `bench:ocr` says
// how the two builds compare on Arabic in general. Native tesseract takes the page's resolution
// (200 dpi) from the PNG; the build is read twice: given the same resolution (the same input as
// native's) and without it (tesseract estimates it from the letters, as for the pages the engine
// hands over, which carry no resolution).
// The documents come from Debian packages (`apt-get download`, unpacked in a scratch directory):
// Khaled Hosny's Arabic documentation of Amiri (`fonts-hosny-amiri`, ara) and the Persian
// translation of "The Not So Short Introduction to LaTeX" (`texlive-lang-arabic`, fas), each page
// rasterised with `pdftoppm -r 200 -gray`; reference: `pdftotext` of the page, compared as
// `bench:ocr` compares its real pages (letters, NFKC, punctuation and bidi marks aside).
//   node_modules/.bin/tsx test/bench/arabic-script-pages.mjs        (DOCS=amiri,lshort: the default)
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { decodeToGray } from "../../workers/engine/image/decode.ts";
import { sniffFormat } from "../../workers/engine/image/sniff.ts";
import { ocrRasterFromGray } from "../../workers/engine/ocr/page-raster.ts";
import { modelFiles, root } from "../../scripts/models.mjs";
import { reportResult } from "./bench-result.mjs";
import { nativeTessdata, runNative } from "./native-ocr.mjs";
import { benchBuild, createBenchEngine } from "./tesseract-build.mjs";
import { errorRates, referenceLetters as letters } from "./text-metrics.mjs";

const work = path.join(os.tmpdir(), "lingoscan-arabic-script-pages");
const tessdata = path.join(work, "tessdata");
const doc = path.join(work, "deb/usr/share/doc");
const DOCS = {
  amiri: { lang: "ara", deb: "fonts-hosny-amiri", pdf: "fonts-hosny-amiri/Documentation-Arabic.pdf", pages: [2, 3, 4, 5, 6, 7] },
  lshort: { lang: "fas", deb: "texlive-lang-arabic", pdf: "texlive-doc/latex/lshort-persian/lshort.pdf", pages: [3, 25, 40, 60, 90] },
};
const docs = (process.env.DOCS ?? "amiri,lshort").split(",");
const pct = (x) => `${(x * 100).toFixed(2)} %`;

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")}: ${r.error?.message ?? r.stderr}`);
}

/** The document's PDF, from its Debian package (downloaded and unpacked once). */
function pdfOf({ deb, pdf }) {
  const file = path.join(doc, pdf);
  if (existsSync(file)) return file;
  mkdirSync(path.join(work, "deb"), { recursive: true });
  run("apt-get", ["download", deb], work);
  const pkg = readdirSync(work).find((f) => f.startsWith(`${deb}_`) && f.endsWith(".deb"));
  run("dpkg-deb", ["-x", pkg, "deb"], work);
  if (!existsSync(file) && existsSync(`${file}.gz`)) run("gunzip", ["-k", `${file}.gz`]);
  return file;
}

console.log(`wasm: ${benchBuild}\n`);
const RESOLUTION = 200;
console.log(
  `| page | lang | native CER | wasm CER (${RESOLUTION} dpi given) | wasm ÷ native | wasm CER (resolution estimated) | wasm ÷ native |`,
);
console.log("|---|---|---|---|---|---|---|");
/** Per document: pages read and wasm errors ÷ native errors over all its pages. */
const figures = {};
for (const name of docs) {
  const d = DOCS[name];
  const pdf = pdfOf(d);
  nativeTessdata(tessdata, [d.lang]);
  // One engine per model: loading a second model into an engine gives wrong text.
  const engine = await createBenchEngine();
  engine.loadModel(gunzipSync(readFileSync(modelFiles([d.lang]).find((m) => m.key.startsWith("tessdata/")).file)));
  const errors = { native: 0, wasm: 0, estimated: 0 };
  for (const p of d.pages) {
    const base = path.join(work, `${name}-${p}`);
    run("pdftoppm", ["-r", String(RESOLUTION), "-gray", "-png", "-singlefile", "-f", String(p), "-l", String(p), pdf, base]);
    run("pdftotext", ["-f", String(p), "-l", String(p), "-enc", "UTF-8", pdf, `${base}.txt`]);
    const ref = letters(readFileSync(`${base}.txt`, "utf8"));
    const n = errorRates(ref, letters(runNative(`${base}.png`, d.lang, tessdata).text), false).cer;
    errors.native += n * ref.length;
    const bytes = readFileSync(`${base}.png`);
    const gray = await decodeToGray(new Uint8Array(bytes), sniffFormat(bytes));
    const [c, e] = [String(RESOLUTION), "0"].map((dpi) => {
      engine.loadImage(ocrRasterFromGray(gray).image);
      engine.setVariable("user_defined_dpi", dpi);
      const cer = errorRates(ref, letters(engine.getText()), false).cer;
      engine.clearImage();
      return cer;
    });
    errors.wasm += c * ref.length;
    errors.estimated += e * ref.length;
    console.log(`| ${name} p. ${p} | ${d.lang} | ${pct(n)} | ${pct(c)} | ${(c / n).toFixed(3)} | ${pct(e)} | ${(e / n).toFixed(3)} |`);
  }
  const [wasm, estimated] = [errors.wasm / errors.native, errors.estimated / errors.native];
  console.log(`| ${name}: all its pages, errors | ${d.lang} | | | ${wasm.toFixed(3)} | | ${estimated.toFixed(3)} |`);
  figures[name] = { language: d.lang, pages: d.pages.length, wasmOverNativeErrors: wasm, resolutionEstimatedOverNativeErrors: estimated };
  engine.destroy();
}
reportResult("arabic-script", figures);
