import type { GrayImage } from "./gray";

/** The extreme (max or min) over a (2r+1)-pixel window along rows, then along columns. */
function windowExtreme(img: GrayImage, r: number, max: boolean): GrayImage {
  const { width: w, height: h, data } = img;
  const rows = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      let v = data[row + x]!;
      const lo = Math.max(0, x - r);
      const hi = Math.min(w - 1, x + r);
      for (let k = lo; k <= hi; k++) {
        const u = data[row + k]!;
        if (max ? u > v : u < v) v = u;
      }
      rows[row + x] = v;
    }
  }
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const lo = Math.max(0, y - r);
    const hi = Math.min(h - 1, y + r);
    for (let x = 0; x < w; x++) {
      let v = rows[y * w + x]!;
      for (let k = lo; k <= hi; k++) {
        const u = rows[k * w + x]!;
        if (max ? u > v : u < v) v = u;
      }
      out[y * w + x] = v;
    }
  }
  return { width: w, height: h, data: out };
}

/** The brightest value within `r` pixels (a square window): dark marks narrower than the window vanish. */
export function maxFilter(img: GrayImage, r: number): GrayImage {
  return windowExtreme(img, r, true);
}

/**
 * Morphological closing of the light ground: dark marks narrower than the (2r+1)-pixel window
 * (print, rules) are filled with the ground around them, while the edges between large regions
 * (a page and the table it lies on) stay where they were.
 */
export function closeBright(img: GrayImage, r: number): GrayImage {
  return windowExtreme(windowExtreme(img, r, true), r, false);
}
