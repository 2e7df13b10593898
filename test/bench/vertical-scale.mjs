// A vertical test page drawn at several resolutions, read upright in page segmentation mode 5 by
// tesseract-wasm (the build the engine ships, in Node) and by native tesseract, same model file:
// whether a difference between the two comes from the working scale or from the builds' arithmetic.
// "columns": the engine's own reading of the page (`readColumns`: upright at the model's column
// scale, turned when a column comes back split), also through tesseract-wasm in Node.
//   node_modules/.bin/tsx test/bench/vertical-scale.mjs            (kor_vert and chi_sim_vert)
//   LANGS=jpn_vert DPIS=300,200 node_modules/.bin/tsx test/bench/vertical-scale.mjs
//   LANGS=kor_vert DPIS=100,150,200,250,300,350,400,500,600 node_modules/.bin/tsx test/bench/vertical-scale.mjs
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { createOCREngine } from "../../node_modules/tesseract-wasm/dist/lib.js";
import { decodeToGray } from "../../workers/engine/image/decode.ts";
import { sniffFormat } from "../../workers/engine/image/sniff.ts";
import { parseHocr } from "../../workers/engine/ocr/hocr.ts";
import { ocrRasterFromGray } from "../../workers/engine/ocr/page-raster.ts";
import { readColumns } from "../../workers/engine/ocr/vertical.ts";
import { modelFiles, root } from "../../scripts/models.mjs";
import { reportResult } from "./bench-result.mjs";
import { nativeTessdata } from "./native-ocr.mjs";
import { languagePageSvg, renderPng, TEXTS } from "./ocr-render.mjs";
import { errorRates } from "./text-metrics.mjs";

const langs = (process.env.LANGS ?? "kor_vert,chi_sim_vert").split(",");
const dpis = (process.env.DPIS ?? "300,250,200,150").split(",").map(Number);
const work = path.join(os.tmpdir(), "lingoscan-vertical-scale");
const tessdata = path.join(work, "tessdata");
mkdirSync(work, { recursive: true });
nativeTessdata(tessdata, langs);
const wasm = readFileSync(path.join(root, "node_modules/tesseract-wasm/dist/tesseract-core.wasm"));
const pct = (x) => `${(x * 100).toFixed(2)} %`;

/** One row a model and resolution. */
const rows = [];
console.log("| model | dpi | wasm CER | native CER | wasm lines | native lines | columns CER, reading |");
console.log("|---|---|---|---|---|---|---|");
for (const lang of langs) {
  // One engine per model: loading a second model into an engine gives wrong text.
  const engine = await createOCREngine({ wasmBinary: wasm });
  engine.loadModel(gunzipSync(readFileSync(modelFiles([lang]).find((m) => m.key.startsWith("tessdata/")).file)));
  const expected = TEXTS[lang].join("\n");
  for (const dpi of dpis) {
    const bytes = renderPng(languagePageSvg(lang, TEXTS[lang], { dpi }).svg);
    const file = path.join(work, `${lang}-${dpi}.png`);
    writeFileSync(file, bytes);
    const raster = ocrRasterFromGray(await decodeToGray(new Uint8Array(bytes), sniffFormat(bytes)));
    engine.loadImage(raster.image);
    engine.setVariable("tessedit_pageseg_mode", "5");
    const text = engine.getText();
    engine.clearImage();
    let reading = "upright";
    const { blocks } = await readColumns(raster, lang, async (r, turned) => {
      if (turned) reading = "turned";
      engine.loadImage(r.image);
      engine.setVariable("tessedit_pageseg_mode", turned ? "4" : "5");
      const hocr = engine.getHOCR();
      engine.clearImage();
      return parseHocr(hocr);
    });
    const columns = blocks.flatMap((b) => b.lines.map((l) => l.words.map((w) => w.text).join(""))).join("\n");
    const r = spawnSync("tesseract", [file, "stdout", "-l", lang, "--tessdata-dir", tessdata, "--psm", "5"], {
      encoding: "utf8",
      env: { ...process.env, OMP_THREAD_LIMIT: "1" },
    });
    if (r.status !== 0) throw new Error(`tesseract failed: ${r.stderr}`);
    const lines = (t) => t.split("\n").filter((l) => l.trim()).length;
    rows.push({
      model: lang,
      dpi,
      wasmCer: errorRates(expected, text, true).cer,
      nativeCer: errorRates(expected, r.stdout, true).cer,
      columnsCer: errorRates(expected, columns, true).cer,
      reading,
    });
    console.log(
      `| ${lang} | ${dpi} | ${pct(errorRates(expected, text, true).cer)} | ${pct(errorRates(expected, r.stdout, true).cer)} | ${lines(text)} | ${lines(r.stdout)} | ${pct(errorRates(expected, columns, true).cer)}, ${reading} |`,
    );
  }
}
reportResult("vertical-scale", { rows });
