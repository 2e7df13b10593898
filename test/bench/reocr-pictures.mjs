// Re-OCR on pictures: every region the engine reads on a comic or manga page of the corpus
// (../shared/corpus/comics) and on phone photos of them is read again through `reocr` with its own
// box, as the editor's "read again" does; and native tesseract reads the same rectangle cut from
// the image (`--psm 6`, Debian's models, one thread), the floor. Both are scored by the share of
// the page reading's letters and digits (as multisets) they give back, pooled over the regions:
//   node test/bench/reocr-pictures.mjs      (needs Debian's tesseract-ocr with eng, jpn and jpn_vert, and ImageMagick)
// Photos are camera-captures.mjs's "mild", "strong" and "shading" captures, as bench:comics makes them.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { makeCapture } from "./camera-captures.mjs";
import { startEngine } from "./ocr-harness.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const corpus = path.resolve(root, process.env.CORPUS ?? "../shared/corpus/comics");
const PAGES = ["006013.jpg", "006014.jpg", "manga-alice.jpg", "manga-4koma.jpg"];
const CAPTURES = ["mild", "strong", "shading"];
const work = mkdtempSync(path.join(os.tmpdir(), "lingoscan-reocr-bench-"));

const letters = (s) => [...s.normalize("NFKC")].filter((c) => /[\p{L}\p{N}]/u.test(c));

/** Letters of `expected` found in `text` (multisets), and how many `expected` has. */
function found(expected, text) {
  const pool = new Map();
  for (const c of letters(text)) pool.set(c, (pool.get(c) ?? 0) + 1);
  let hit = 0;
  for (const c of letters(expected)) {
    const left = pool.get(c) ?? 0;
    if (left > 0) (hit++, pool.set(c, left - 1));
  }
  return [hit, letters(expected).length];
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 * 2 ** 20, env: { ...process.env, OMP_THREAD_LIMIT: "1" } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")}: ${String(r.stderr).trim().split("\n")[0]}`);
  return r.stdout;
}

/** Native tesseract on the rectangle `box` of `file`: the reading that gives back the most of `expected`. */
function native(file, box, langs, expected) {
  const crop = path.join(work, "crop.png");
  run("convert", [file, "-auto-orient", "-crop", `${box.w}x${box.h}+${box.x}+${box.y}`, "+repage", crop]);
  const readings = langs.map((l) => run("tesseract", [crop, "stdout", "-l", l, "--psm", "6"]));
  return readings.map((t) => found(expected, t)).sort((a, b) => b[0] - a[0])[0];
}

const files = PAGES.flatMap((name) => [
  { name, file: path.join(corpus, name) },
  ...CAPTURES.map((capture) => {
    const out = path.join(work, `${name.replace(/\.[^.]+$/, "")}-photo-${capture}.jpg`);
    makeCapture(path.join(corpus, name), capture, out, { work, seedName: name.replace(/\.[^.]+$/, ""), longSide: 2000 });
    return { name: path.basename(out), file: out };
  }),
]);

const engine = await startEngine({ browser: false, languages: ["eng", "jpn", "jpn_vert"] });
const total = { ours: [0, 0], native: [0, 0], seconds: 0, regions: 0 };
console.log("| image | path | regions | re-OCR gives back | native on the rectangle | s a region |\n|---|---|---|---|---|---|");
try {
  for (const { name, file } of files) {
    const langs = name.startsWith("manga") ? ["jpn", "jpn_vert"] : ["eng"];
    const key = `reocr-bench/${name}`;
    await engine.files.put(key, readFileSync(file));
    const pre = await engine.call("preprocess", { sourceKey: key, page: 0, outKey: `${key}.page.png`, languages: langs });
    const rec = await engine.call("recognize", { pageKey: pre.key, languages: langs, outKey: `${key}.json` });
    const page = await (await engine.files.get(rec.key)).json();
    // Page image pixels to the upload's: pictures are kept at the upload's size, or scaled alike.
    const s = pre.transform.scale;
    const ours = [0, 0];
    const floor = [0, 0];
    let seconds = 0;
    for (const r of page.regions) {
      const t0 = performance.now();
      const again = await engine.call("reocr", { sourceKey: key, page: 0, box: r.box, languages: langs, pageKey: pre.key });
      seconds += (performance.now() - t0) / 1000;
      const [h, n] = found(r.text, again.text);
      ours[0] += h;
      ours[1] += n;
      if (page.path === "picture") {
        const box = { x: Math.round(r.box.x / s), y: Math.round(r.box.y / s), w: Math.round(r.box.w / s), h: Math.round(r.box.h / s) };
        const [nh] = native(file, box, langs, r.text);
        floor[0] += nh;
        floor[1] += n;
      }
    }
    const pct = ([h, n]) => (n ? `${((100 * h) / n).toFixed(1)} %` : "–");
    const kind = `${page.path}${pre.transform.lying ? " (photographed)" : ""}`;
    console.log(
      `| ${name} | ${kind} | ${page.regions.length} | ${pct(ours)} | ${pct(floor)} | ${(seconds / Math.max(1, page.regions.length)).toFixed(2)} |`,
    );
    if (page.path !== "picture") continue;
    total.ours = total.ours.map((v, i) => v + ours[i]);
    total.native = total.native.map((v, i) => v + floor[i]);
    total.seconds += seconds;
    total.regions += page.regions.length;
  }
  const pct = ([h, n]) => `${((100 * h) / n).toFixed(1)} %`;
  console.log(
    `| **pictures, pooled** | | ${total.regions} | ${pct(total.ours)} | ${pct(total.native)} | ${(total.seconds / total.regions).toFixed(2)} |`,
  );
} finally {
  engine.dispose();
}
