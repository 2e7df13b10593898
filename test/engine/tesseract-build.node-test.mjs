// The engine's tesseract WebAssembly modules, in Node (whose V8 runs relaxed SIMD as workerd's does):
// each int8 kernel against tesseract's generic loop, both modules reading the same text, and that
// text against native tesseract's (Debian's 5.3.0, the version the modules are built from) reading
// the same picture with the same model.
//   node_modules/.bin/node --import tsx --test test/engine/tesseract-build.node-test.mjs
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { gunzipSync } from "node:zlib";
import { modelFiles, root } from "../../scripts/models.mjs";
import { MODULE_FILES, relaxedSimdSupported, TesseractEngine, TESSERACT_VERSION } from "../../workers/engine/ocr/wasm/tesseract-module.ts";
import { renderRgba, TEXTS, textPageSvg } from "../bench/ocr-render.mjs";

const wasmDir = path.join(root, "workers/engine/ocr/wasm");
const work = path.join(os.tmpdir(), "lingoscan-tesseract-build-test");
mkdirSync(work, { recursive: true });

const modules = Object.fromEntries(
  await Promise.all(
    Object.entries(MODULE_FILES).map(async ([kernel, file]) => [kernel, await WebAssembly.compile(readFileSync(path.join(wasmDir, file)))]),
  ),
);
const engineFor = (kernel) => TesseractEngine.create({ module: modules[kernel], kernel });

function model(lang) {
  const m = modelFiles([lang]).find((f) => f.key.startsWith("tessdata/"));
  const bytes = gunzipSync(readFileSync(m.file));
  const dir = path.join(work, "tessdata");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${lang}.traineddata`), bytes);
  return { bytes, tessdata: dir };
}

/** A gray raster as the engine hands pages over (R = G = B, A = 255) and the same gray as a PGM file. */
function grayPage(width, height, gray) {
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < gray.length; i++) rgba.set([gray[i], gray[i], gray[i], 255], i * 4);
  const file = path.join(work, `page-${width}x${height}.pgm`);
  writeFileSync(file, Buffer.concat([Buffer.from(`P5\n${width} ${height}\n255\n`), Buffer.from(gray)]));
  return { image: { data: rgba, width, height }, file };
}

function native(file, lang, tessdata) {
  const r = spawnSync("tesseract", [file, "stdout", "-l", lang, "--tessdata-dir", tessdata], {
    encoding: "utf8",
    env: { ...process.env, OMP_THREAD_LIMIT: "1" },
  });
  assert.equal(r.status, 0, r.stderr);
  // The command line ends each page with a form feed (page_separator); GetUTF8Text has none.
  return r.stdout.replace(/\f$/, "");
}

/** An English page drawn in a real font, gray. */
function englishPage() {
  const { width, height, rgba } = renderRgba(textPageSvg(TEXTS.eng.slice(0, 8), { dpi: 300, pt: 11, height: 1200 }).svg);
  const gray = new Uint8Array(width * height);
  for (let i = 0; i < gray.length; i++) gray[i] = (rgba[i * 4] * 77 + rgba[i * 4 + 1] * 150 + rgba[i * 4 + 2] * 29) >> 8;
  return grayPage(width, height, gray);
}

test("Node validates relaxed SIMD, so both modules can be checked here", () => {
  assert.equal(relaxedSimdSupported(), true);
});

for (const kernel of Object.keys(MODULE_FILES)) {
  test(`${kernel}: the int8 kernel computes every output bit for bit as tesseract's generic loop`, async () => {
    const engine = await engineFor(kernel);
    assert.deepEqual(engine.build, { kernel, tesseract: TESSERACT_VERSION });
    for (const seed of [1, 7, 2024, 0xdeadbeef]) assert.equal(engine.kernelSelfTest(seed), 0, `seed ${seed}`);
    engine.destroy();
  });
}

test("both modules read an English page as native tesseract does, word for word", async () => {
  const { bytes, tessdata } = model("eng");
  const page = englishPage();
  const expected = native(page.file, "eng", tessdata);
  assert.match(expected, /\w{4,}/);
  for (const kernel of Object.keys(MODULE_FILES)) {
    const engine = await engineFor(kernel);
    engine.loadModel(bytes);
    engine.loadImage(page.image);
    assert.equal(engine.getText(), expected, kernel);
    const words = engine.getTextBoxes("word");
    assert.ok(words.length > 20 && words.every((w) => w.confidence > 0 && w.confidence <= 1), kernel);
    engine.destroy();
  }
});

test("both modules read a real Arabic page as native tesseract does, letter for letter", async () => {
  const { bytes, tessdata } = model("ara");
  const file = path.join(root, "test/fixtures/real/amiri_documentation-arabic-p2.png");
  // The fixture is an 8-bit gray PNG: decode it with the engine's decoder into the engine's raster;
  // native reads the same pixels from a PGM (no resolution in either, so both estimate it alike).
  const { decodeToGray } = await import("../../workers/engine/image/decode.ts");
  const gray = await decodeToGray(new Uint8Array(readFileSync(file)), "png");
  const page = grayPage(gray.width, gray.height, gray.data);
  const expected = native(page.file, "ara", tessdata);
  assert.match(expected, /[\u0600-\u06ff]{4,}/);
  for (const kernel of Object.keys(MODULE_FILES)) {
    const engine = await engineFor(kernel);
    engine.loadModel(bytes);
    engine.loadImage(page.image);
    // Before the build's patches (random padding as on 64-bit machines, a stable qsort) this page
    // read 0.0967 against native's 0.0960, and other pages of the document up to 5 % worse.
    assert.equal(engine.getText(), expected, kernel);
    engine.destroy();
  }
});
