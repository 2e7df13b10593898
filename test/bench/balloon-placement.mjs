// Where a translated page's lettering lands, measured against a text detector's mask of the source
// page (comic-text-detector's `ctd-mask-<page>.png` in the comics corpus: white where it found text):
//  - the balloons and captions are the light parts of the source page (luma at least LIGHT) reached
//    from the detector's text without crossing a dark line: a flood fill from the light pixels within
//    SEED pixels of its mask, 4-connected. Balloon outlines and caption borders stop it; a balloon
//    drawn open onto a light panel or the page's margin lets it in there, which then counts as
//    inside (the measure is lenient there);
//  - the lettering drawn by `translate` is where its result and the `erase` result of the same page
//    differ (any channel by more than DRAWN): both remove the page's text, and where their clean
//    plates differ (text one of them leaves) counts as drawn too, so the figure errs high;
//  - inside: the balloons, and the source's own text strokes (the mask grown by SEED pixels, where
//    a translated letter may cover an erased one).
// Figures: drawn pixels, and the share of them outside every balloon; with `picture`, the translated
// page with the lettering outside painted magenta and the balloons' ground tinted, to look at.
import { spawnSync } from "node:child_process";
import { pixels } from "./image-pixels.mjs";

/** Luma (0–255) from which a pixel of the source page is balloon or caption ground (white, cream, yellow). */
const LIGHT = 150;
/** Pixels by which the source's dark lines are grown before the fill: gaps in a balloon's outline close. */
const SEAL = 1;
/** Pixels around the detector's text strokes that seed the balloons and count as text. */
const SEED = 2;
/** A channel step (0–255) between the translated and the erased result that is lettering drawn. */
const DRAWN = 64;

/** `on` grown by `by` pixels (a square window), as a new mask. */
function grown(on, width, height, by) {
  const rows = new Uint8Array(on.length);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (on[y * width + x]) for (let dx = Math.max(0, x - by); dx <= Math.min(width - 1, x + by); dx++) rows[y * width + dx] = 1;
  const out = new Uint8Array(on.length);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (rows[y * width + x]) for (let dy = Math.max(0, y - by); dy <= Math.min(height - 1, y + by); dy++) out[dy * width + x] = 1;
  return out;
}

/**
 * The lettering `translated` draws on `source`, against the balloons its text mask `mask` lies in:
 * `{ drawn, outside }` (pixels; `outside` of them beyond every balloon), or null when the images'
 * sizes differ. With `picture`, writes the translated page there with the lettering outside in
 * magenta and the balloons' ground tinted cyan.
 */
export function balloonPlacement(source, mask, translated, erased, picture) {
  const src = pixels(source, "gray");
  const { width, height } = src;
  const text = pixels(mask, "gray");
  const t = pixels(translated, "rgb");
  const e = pixels(erased, "rgb");
  if ([text, t, e].some((im) => im.width !== width || im.height !== height)) return null;
  const n = width * height;
  const strokes = grown(
    Uint8Array.from(text.data, (v) => (v >= 128 ? 1 : 0)),
    width,
    height,
    SEED,
  );
  // Dark lines grown by SEAL pixels: a balloon's outline, thinned by the scan or the halftone, has gaps.
  const sealed = grown(
    Uint8Array.from(src.data, (v) => (v < LIGHT ? 1 : 0)),
    width,
    height,
    SEAL,
  );
  const inside = new Uint8Array(n);
  const stack = [];
  for (let i = 0; i < n; i++)
    if (strokes[i] && !sealed[i]) {
      inside[i] = 1;
      stack.push(i);
    }
  while (stack.length) {
    const i = stack.pop();
    const x = i % width;
    for (const j of [x > 0 ? i - 1 : -1, x + 1 < width ? i + 1 : -1, i - width, i + width])
      if (j >= 0 && j < n && !inside[j] && !sealed[j]) {
        inside[j] = 1;
        stack.push(j);
      }
  }
  let drawn = 0;
  let outside = 0;
  const shown = picture ? Buffer.from(t.data) : null;
  for (let i = 0; i < n; i++) {
    if (shown && (inside[i] || strokes[i]))
      shown.set([shown[3 * i] >> 1, (shown[3 * i + 1] >> 1) + 128, (shown[3 * i + 2] >> 1) + 128], 3 * i);
    let d = 0;
    for (let c = 0; c < 3; c++) d = Math.max(d, Math.abs(t.data[3 * i + c] - e.data[3 * i + c]));
    if (d <= DRAWN) continue;
    drawn++;
    if (inside[i] || strokes[i]) continue;
    outside++;
    if (shown) shown.set([255, 0, 255], 3 * i);
  }
  if (shown) {
    const r = spawnSync("convert", ["-size", `${width}x${height}`, "-depth", "8", "rgb:-", picture], { input: shown });
    if (r.status !== 0) throw new Error(`convert ${picture}: ${r.stderr}`);
  }
  return { drawn, outside };
}
