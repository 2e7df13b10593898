// JPEGs above 9 MP decoded at N/8 of their size (workers/engine/image/jpeg-scaled.ts), against
// ImageMagick's full decode averaged down to the same size (`convert … -scale`):
//   node_modules/.bin/tsx test/bench/jpeg-scaled.ts [file.jpg …]   (needs ImageMagick)
// Default: ../shared/corpus/comics/manga-4koma.jpg (10.6 MP, progressive) and the 12.8 MP baseline
// photo of the tests (test/fixtures/pictures/photo-12mp.jpg). Prints per file the size decoded at,
// the milliseconds of the decode (median of 3) and the mean absolute difference of R, G, B (0–255).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { decodeJpegScaled, jpegScaleFor, scalableJpeg } from "../../workers/engine/image/jpeg-scaled";
import { MAX_PHOTON_PIXELS } from "../../workers/engine/memory";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const files = process.argv.slice(2).length
  ? process.argv.slice(2)
  : [path.resolve(root, "../shared/corpus/comics/manga-4koma.jpg"), path.join(root, "test/fixtures/pictures/photo-12mp.jpg")];

for (const file of files) {
  const bytes = new Uint8Array(readFileSync(file));
  const [width, height] = execFileSync("identify", ["-format", "%w %h", file]).toString().split(" ").map(Number) as [number, number];
  const n = jpegScaleFor(width, height, MAX_PHOTON_PIXELS);
  const times: number[] = [];
  let img = decodeJpegScaled(bytes, n);
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    img = decodeJpegScaled(bytes, n);
    times.push(performance.now() - t);
  }
  const reference = execFileSync("convert", [file, "-scale", `${img.width}x${img.height}!`, "-depth", "8", "rgba:-"], {
    maxBuffer: 1 << 30,
  });
  let diff = 0;
  for (let i = 0; i < img.data.length; i++) if (i % 4 !== 3) diff += Math.abs(img.data[i]! - reference[i]!);
  const kind = scalableJpeg(bytes)?.progressive ? "progressive" : "baseline";
  console.log(
    `${path.basename(file)}: ${width}×${height} (${((width * height) / 1e6).toFixed(1)} MP, ${kind}) decoded at ${n}/8, ${img.width}×${img.height}, ` +
      `${times.sort((a, b) => a - b)[1]!.toFixed(0)} ms, mean difference ${(diff / (img.width * img.height * 3)).toFixed(2)}`,
  );
}
