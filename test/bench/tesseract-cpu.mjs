// The engine's tesseract build (test/bench/tesseract-build.mjs: WASM=package reads with the
// tesseract-wasm 0.11 package instead) against native tesseract on the engine's working image of each speed page, in
// process CPU time (a loaded machine inflates wall time, not CPU time): layout analysis and
// recognition of the wasm build the engine ships (warm, in Node's V8), native tesseract on one
// thread (less its start-up and model loading, measured on a blank image), and the CER of both.
//   node_modules/.bin/tsx test/bench/tesseract-cpu.mjs [page name filter]
// VARS="name=value,…" sets tesseract variables in both; DOTPRODUCT=generic|sse|… overrides the
// wasm build's choice of dot-product code (its loader picks `sse` when SIMD validates).
// SIDES=2500,2100,1800 reads each page scaled to those longest sides (working resolution against
// CER); HELD=1 adds the held-back real A4 scans (OCRmyPDF's test PDFs rendered at 300 dpi, which
// ship no reference text: their CER is taken against native tesseract's reading at 300 dpi).
// REPEAT=n (3 unless set) reads each page n times each way, one after the other, and keeps the
// median CPU times (one reading's CPU time moves by up to ±15 % between readings on the shared
// machine, native tesseract's by up to a third between runs).
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { decodeToGray } from "../../workers/engine/image/decode.ts";
import { encodeGrayPng } from "../../workers/engine/image/png.ts";
import { downscaleGray } from "../../workers/engine/image/gray.ts";
import { fitScale } from "../../workers/engine/image/limits.ts";
import { sniffFormat } from "../../workers/engine/image/sniff.ts";
import { ocrRasterFromGray } from "../../workers/engine/ocr/page-raster.ts";
import { modelFiles, root } from "../../scripts/models.mjs";
import { nativeTessdata } from "./native-ocr.mjs";
import { heldBackScans, pages } from "./speed-pages.mjs";
import { reportResult } from "./bench-result.mjs";
import { benchBuild, createBenchEngine } from "./tesseract-build.mjs";
import { errorRates } from "./text-metrics.mjs";

const work = path.join(os.tmpdir(), "lingoscan-tesseract-cpu");
const tessdata = path.join(work, "tessdata");
mkdirSync(work, { recursive: true });
nativeTessdata(tessdata, ["eng"]);
const vars = (process.env.VARS ?? "")
  .split(",")
  .filter(Boolean)
  .map((kv) => kv.split("="));

/** CPU milliseconds of this process so far. */
const cpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

/** Native tesseract on `file`: its text and the CPU milliseconds of the child (bash `times`). */
function native(file) {
  const r = spawnSync(
    "bash",
    [
      "-c",
      'tesseract "$@" 2>/dev/null; times >&2',
      "tesseract",
      file,
      "stdout",
      "-l",
      "eng",
      "--tessdata-dir",
      tessdata,
      ...vars.flatMap(([k, v]) => ["-c", `${k}=${v}`]),
    ],
    {
      encoding: "utf8",
      env: { ...process.env, OMP_THREAD_LIMIT: "1" },
    },
  );
  const [user, sys] = r.stderr.trim().split("\n").pop().split(/\s+/);
  const ms = (t) => {
    const m = /(\d+)m([\d.]+)s/.exec(t);
    return (Number(m[1]) * 60 + Number(m[2])) * 1000;
  };
  return { text: r.stdout, ms: ms(user) + ms(sys) };
}

/** The wasm build, with DOTPRODUCT set through the module's environment imports when asked. */
async function wasmEngine() {
  const dot = process.env.DOTPRODUCT;
  const original = WebAssembly.instantiate;
  if (dot) {
    WebAssembly.instantiate = async (source, imports) => {
      const env = ["PATH=/", `DOTPRODUCT=${dot}`];
      let memory;
      const bytes = () => new DataView(memory.buffer);
      // Emscripten's minified import names for environ_sizes_get (E) and environ_get (D) in 0.11.
      imports.a.E = (count, size) => {
        bytes().setUint32(count, env.length, true);
        bytes().setUint32(
          size,
          env.reduce((n, s) => n + s.length + 1, 0),
          true,
        );
        return 0;
      };
      imports.a.D = (list, buf) => {
        let at = buf;
        env.forEach((s, i) => {
          bytes().setUint32(list + 4 * i, at, true);
          new Uint8Array(memory.buffer).set(new TextEncoder().encode(`${s}\0`), at);
          at += s.length + 1;
        });
        return 0;
      };
      const out = await original(source, imports);
      memory = Object.values(out.instance.exports).find((e) => e instanceof WebAssembly.Memory);
      return out;
    };
  }
  try {
    const engine = await createBenchEngine();
    const model = modelFiles(["eng"]).find((m) => m.key.startsWith("tessdata/"));
    engine.loadModel(gunzipSync(readFileSync(model.file)));
    return engine;
  } finally {
    WebAssembly.instantiate = original;
  }
}

const engine = await wasmEngine();
const blank = path.join(work, "blank.pgm");
writeFileSync(blank, Buffer.concat([Buffer.from("P5\n40 20\n255\n"), Buffer.alloc(800, 255)]));
const startup = Math.min(...[0, 1, 2].map(() => native(blank).ms));
const filter = process.argv[2];
const s = (ms) => (ms / 1000).toFixed(2);
console.log(`wasm: ${benchBuild}\nnative start-up and model loading: ${s(startup)} s CPU (subtracted)\n`);
console.log(
  "| page | working image | wasm layout s | wasm recognition s | wasm total s | native s | wasm ÷ native speed | wasm CER | native CER |",
);
console.log("|---|---|---|---|---|---|---|---|---|");
let warm = false;
const repeat = Number(process.env.REPEAT ?? 3);
/** One row a page and working size. */
const rows = [];
const sides = (process.env.SIDES ?? "").split(",").filter(Boolean).map(Number);
const list = [...pages(), ...(process.env.HELD ? heldBackScans(work, (file) => native(file).text) : [])];
for (const p of list.filter((p) => !filter || p.name.includes(filter))) {
  const page = await decodeToGray(new Uint8Array(p.bytes), sniffFormat(p.bytes));
  const read = new Set(); // a page smaller than several sides is read once
  for (const side of sides.length ? sides : [0]) {
    const gray = side ? downscaleGray(page, fitScale(page.width, page.height, side)) : page;
    if (read.has(gray.width)) continue;
    read.add(gray.width);
    await readPage(p, gray);
  }
}

async function readPage(p, gray) {
  const raster = ocrRasterFromGray(gray);
  const read = () => {
    engine.loadImage(raster.image);
    engine.setVariable("tessedit_pageseg_mode", "3");
    for (const [k, v] of vars) engine.setVariable(k, v);
    const c0 = cpu();
    engine.getBoundingBoxes("line");
    const c1 = cpu();
    const text = engine.getText();
    const c2 = cpu();
    engine.clearImage();
    return { text, layout: c1 - c0, recognition: c2 - c1 };
  };
  // V8 tiers the wasm up on first use: the first page is read twice, the second reading kept.
  if (!warm) read();
  warm = true;
  const file = path.join(work, `${p.name.replace(/\W+/g, "_")}.png`);
  const { data, width, height } = raster.image;
  writeFileSync(file, await encodeGrayPng({ width, height, data: Uint8Array.from({ length: width * height }, (_, i) => data[i * 4]) }));
  const readings = [];
  for (let i = 0; i < repeat; i++) readings.push({ w: read(), n: native(file) });
  const median = (f) => readings.map(f).sort((a, b) => a - b)[Math.floor((readings.length - 1) / 2)];
  const w = { text: readings[0].w.text, layout: median((r) => r.w.layout), recognition: median((r) => r.w.recognition) };
  const n = { text: readings[0].n.text };
  const nativeMs = median((r) => r.n.ms) - startup;
  const total = w.layout + w.recognition;
  const cer = (t) => `${(errorRates(p.text, t, false).cer * 100).toFixed(2)} %`;
  rows.push({
    page: p.name,
    size: `${width}x${height}`,
    wasmLayoutSeconds: w.layout / 1000,
    wasmRecognitionSeconds: w.recognition / 1000,
    nativeSeconds: nativeMs / 1000,
    wasmSpeedOverNative: nativeMs / total,
    wasmCer: errorRates(p.text, w.text, false).cer,
    nativeCer: errorRates(p.text, n.text, false).cer,
  });
  console.log(
    `| ${p.name} | ${width}x${height} | ${s(w.layout)} | ${s(w.recognition)} | ${s(total)} | ${s(nativeMs)} | ${(nativeMs / total).toFixed(2)}x | ${cer(w.text)} | ${cer(n.text)} |`,
  );
}
engine.destroy();
const sum = (f) => rows.reduce((n, r) => n + f(r), 0);
const cpuRatio = sum((r) => r.wasmLayoutSeconds + r.wasmRecognitionSeconds) / sum((r) => r.nativeSeconds);
console.log(`\nwasm CPU ÷ native CPU over these pages: ${cpuRatio.toFixed(2)}x`);
reportResult("tesseract-cpu", { build: benchBuild, repeat, startupSeconds: startup / 1000, wasmCpuOverNative: cpuRatio, rows });
