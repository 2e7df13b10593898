// Writes a PNG of known English text, for trying the API by hand (README walk-through).
//   npm run sample-image -- sample.png
import { writeFileSync } from "node:fs";
import { PhotonImage, Rgba, draw_text_with_color } from "@cf-wasm/photon/node";

export const SAMPLE_LINES = [
  "The quick brown fox jumps over the lazy dog.",
  "Invoice number 4821 is due on 12 March 2026.",
  "Please pay the total amount of 1,250 euros.",
];

const out = process.argv[2] ?? "sample.png";
const size = 32;
const margin = 48;
const step = Math.round(size * 1.6);
const width = Math.ceil(Math.max(...SAMPLE_LINES.map((l) => l.length)) * size * 0.6) + 2 * margin;
const height = SAMPLE_LINES.length * step + 2 * margin;
const img = new PhotonImage(new Uint8Array(width * height * 4).fill(255), width, height);
SAMPLE_LINES.forEach((line, i) => draw_text_with_color(img, line, margin, margin + i * step, size, new Rgba(0, 0, 0, 255)));
writeFileSync(out, img.get_bytes());
img.free();
console.log(`wrote ${out} (${width}x${height}):\n${SAMPLE_LINES.join("\n")}`);
