// Many pages of Arabic-script documents typeset by others, read by the engine's tesseract build (in
// Node, fed as the engine feeds it: the page's gray in an RGBA raster; WASM=package: the
// tesseract-wasm 0.11 package the engine used before, test/bench/tesseract-build.mjs) and by
// native tesseract on the same PNG, same model: whether the one Arabic page of `bench:ocr` says
// how the two builds compare on Arabic in general. Native tesseract takes the page's resolution
// (200 dpi) from the PNG; the build is read twice: given the resolution the engine gives it (the
// one the PNG states, by the engine's own `declaredResolution` and `credibleResolution`: the same
// input as native's), and without one (tesseract estimates it from the letters, as it does for
// pages whose files state none). Last, the same PNG goes through the service's engine as an
// upload does (preprocess → recognize, under wrangler dev): the figure a user gets.
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
import { credibleDpi, credibleResolution, declaredResolution } from "../../workers/engine/image/resolution.ts";
import { sniffFormat } from "../../workers/engine/image/sniff.ts";
import { ocrRasterFromGray } from "../../workers/engine/ocr/page-raster.ts";
import { modelFiles, root } from "../../scripts/models.mjs";
import { reportResult } from "./bench-result.mjs";
import { nativeTessdata, runNative } from "./native-ocr.mjs";
import { startEngine } from "./ocr-harness.mjs";
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

/** The page's text as the service reads an upload of it in `lang`. */
async function serviceText(key, bytes, lang) {
  await service.files.put(key, bytes);
  const pre = await service.call("preprocess", { sourceKey: key, page: 0, outKey: `${key}.page.png`, languages: [lang] });
  const rec = await service.call("recognize", { pageKey: pre.key, languages: [lang], outKey: `${key}.json` });
  return (await (await service.files.get(rec.key)).json()).text;
}
const RESOLUTION = 200;
console.log(
  `| page | lang | native CER | wasm CER (resolution the PNG states, ${RESOLUTION} dpi) | wasm ÷ native | wasm CER (resolution estimated) | wasm ÷ native | service CER | service ÷ native |`,
);
console.log("|---|---|---|---|---|---|---|---|---|");
const service = await startEngine({ browser: false, languages: docs.map((name) => DOCS[name].lang) });
/** Per document: pages read and wasm errors ÷ native errors over all its pages. */
const figures = {};
for (const name of docs) {
  const d = DOCS[name];
  const pdf = pdfOf(d);
  nativeTessdata(tessdata, [d.lang]);
  // One engine per model: loading a second model into an engine gives wrong text.
  const engine = await createBenchEngine();
  engine.loadModel(gunzipSync(readFileSync(modelFiles([d.lang]).find((m) => m.key.startsWith("tessdata/")).file)));
  const errors = { native: 0, wasm: 0, estimated: 0, service: 0 };
  for (const p of d.pages) {
    const base = path.join(work, `${name}-${p}`);
    run("pdftoppm", ["-r", String(RESOLUTION), "-gray", "-png", "-singlefile", "-f", String(p), "-l", String(p), pdf, base]);
    run("pdftotext", ["-f", String(p), "-l", String(p), "-enc", "UTF-8", pdf, `${base}.txt`]);
    const ref = letters(readFileSync(`${base}.txt`, "utf8"));
    const n = errorRates(ref, letters(runNative(`${base}.png`, d.lang, tessdata).text), false).cer;
    errors.native += n * ref.length;
    const bytes = readFileSync(`${base}.png`);
    const format = sniffFormat(bytes);
    const gray = await decodeToGray(new Uint8Array(bytes), format);
    const stated = credibleResolution(declaredResolution(new Uint8Array(bytes), format), gray.width, gray.height);
    const [c, e] = [stated ?? 0, 0].map((dpi) => {
      const raster = ocrRasterFromGray(dpi ? { ...gray, dpi } : gray);
      engine.loadImage(raster.image);
      engine.setVariable("user_defined_dpi", String(credibleDpi(raster.dpi)));
      const cer = errorRates(ref, letters(engine.getText()), false).cer;
      engine.clearImage();
      return cer;
    });
    const s = errorRates(ref, letters(await serviceText(`arabic/${name}-${p}.png`, bytes, d.lang)), false).cer;
    errors.wasm += c * ref.length;
    errors.estimated += e * ref.length;
    errors.service += s * ref.length;
    const ratio = (x) => (x / n).toFixed(3);
    console.log(
      `| ${name} p. ${p} | ${d.lang} | ${pct(n)} | ${pct(c)} | ${ratio(c)} | ${pct(e)} | ${ratio(e)} | ${pct(s)} | ${ratio(s)} |`,
    );
  }
  const [wasm, estimated, read] = [errors.wasm, errors.estimated, errors.service].map((x) => x / errors.native);
  console.log(`| ${name}: all its pages, errors | ${d.lang} | | | ${wasm.toFixed(3)} | | ${estimated.toFixed(3)} | | ${read.toFixed(3)} |`);
  figures[name] = {
    language: d.lang,
    pages: d.pages.length,
    wasmOverNativeErrors: wasm,
    resolutionEstimatedOverNativeErrors: estimated,
    serviceOverNativeErrors: read,
  };
  engine.destroy();
}
service.dispose();
reportResult("arabic-script", figures);
