// Raw pixels of an image file for the benchmarks, decoded by ImageMagick.
import { spawnSync } from "node:child_process";

/** The raw 8-bit pixels of an image, set upright by its EXIF orientation: `gray` (1 byte a pixel) or `rgb` (3), and its size. */
export function pixels(file, format) {
  const size = spawnSync("convert", [`${file}[0]`, "-auto-orient", "-format", "%w %h", "info:"], { encoding: "utf8" });
  if (size.status !== 0) throw new Error(`convert ${file}: ${size.stderr}`);
  const [width, height] = size.stdout.trim().split(" ").map(Number);
  const r = spawnSync("convert", [`${file}[0]`, "-auto-orient", "-colorspace", "sRGB", "-depth", "8", `${format}:-`], {
    maxBuffer: 512 * 2 ** 20,
  });
  if (r.status !== 0) throw new Error(`convert ${file}: ${r.stderr}`);
  return { width, height, data: r.stdout };
}
