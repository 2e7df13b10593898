import type { GrayImage } from "./gray";

/**
 * The running extreme (max or min) over a (2r+1)-pixel window along each row, with van Herk /
 * Gil-Werman's block prefixes and suffixes: a few comparisons a pixel whatever the window.
 */
function rowExtreme(src: Uint8Array, w: number, h: number, r: number, max: boolean): Uint8Array {
  const out = new Uint8Array(src.length);
  const k = 2 * r + 1;
  const left = new Uint8Array(w);
  const right = new Uint8Array(w);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      const v = src[row + x]!;
      left[x] = x % k === 0 ? v : max ? (v > left[x - 1]! ? v : left[x - 1]!) : v < left[x - 1]! ? v : left[x - 1]!;
    }
    for (let x = w - 1; x >= 0; x--) {
      const v = src[row + x]!;
      right[x] =
        x === w - 1 || (x + 1) % k === 0 ? v : max ? (v > right[x + 1]! ? v : right[x + 1]!) : v < right[x + 1]! ? v : right[x + 1]!;
    }
    for (let x = 0; x < w; x++) {
      const lo = x - r;
      const hi = x + r;
      if (lo >= 0 && hi < w) {
        const a = right[lo]!;
        const b = left[hi]!;
        out[row + x] = max ? (a > b ? a : b) : a < b ? a : b;
        continue;
      }
      // A window cut by the row's ends: taken directly.
      let e = src[row + x]!;
      for (let i = Math.max(0, lo); i <= Math.min(w - 1, hi); i++) {
        const v = src[row + i]!;
        if (max ? v > e : v < e) e = v;
      }
      out[row + x] = e;
    }
  }
  return out;
}

function transpose(src: Uint8Array, w: number, h: number): Uint8Array {
  const out = new Uint8Array(src.length);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) out[x * h + y] = src[y * w + x]!;
  return out;
}

/** The extreme over a (2r+1)-pixel square window: along rows, then along columns. */
function windowExtreme(img: GrayImage, r: number, max: boolean): GrayImage {
  const { width: w, height: h } = img;
  const rows = rowExtreme(img.data, w, h, r, max);
  const cols = rowExtreme(transpose(rows, w, h), h, w, r, max);
  return { width: w, height: h, data: transpose(cols, h, w) };
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
