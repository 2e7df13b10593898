/**
 * The engine's memory budget, in one place. A Worker isolate has 128 MB; tesseract's and photon's
 * wasm heaps never shrink, and page rasters live in JS memory beside them. Every limit below is
 * sized against that budget, and every cache that holds a heap registers here so that a large
 * decode or fill can make room first.
 */

/** Decompression-bomb guard, checked from the headers before any decoding. */
export const MAX_IMAGE_PIXELS = 40_000_000;
export const MAX_IMAGE_SIDE = 20_000;

/**
 * JPEG, WebP, GIF and BMP go through photon, which holds the RGBA pixels in its wasm heap
 * (4 B/px, and that heap never shrinks), copies them out (4 B/px) and then converts them to gray
 * (1 B/px): ~9 bytes a pixel at the peak. 9 MP (an A4 page at 300 dpi is 8.7 MP) peaks near
 * 80 MB, so cached OCR engines are dropped before such a decode (`makeRoomFor`). PNG and TIFF
 * are decoded by the engine's own streaming decoders straight to gray (1 B/px) and keep the
 * general limit.
 */
export const MAX_PHOTON_PIXELS = 9_000_000;

/**
 * JPEGs above MAX_PHOTON_PIXELS (a 12 MP phone photo) are decoded by the engine itself straight to
 * the largest N/8 of their size within MAX_PHOTON_PIXELS (image/jpeg-scaled.ts), holding only that;
 * a progressive one also holds its coefficients until its last scan (2 bytes each), at most this.
 */
export const MAX_JPEG_HOLD_BYTES = 48 * 1024 * 1024;

/** Longest side of the normalised page image written by preprocess. */
export const MAX_PAGE_SIDE = 3508;

/**
 * Working resolution for tesseract: its wasm heap never shrinks and an A4 page at 300 dpi
 * (2480x3508) costs ~112 MB with best_int models, against a 128 MB isolate. Pages are OCR'd at
 * most this large (~210 dpi for A4) and the boxes scaled back to page coordinates.
 */
export const MAX_OCR_SIDE = 2500;
export const MAX_OCR_PIXELS = 4_500_000;

/**
 * OCR engines (tesseract-wasm): each has its own heap, ~28 MB with the eng model loaded, ~62 MB
 * after an A4 page at the working resolution. Engines stay cached while their heaps, plus room
 * for one page's growth in the engine about to run, fit OCR_HEAP_BUDGET (ocr/tesseract.ts).
 */
export const OCR_HEAP_BUDGET = 80 * 1024 * 1024;
export const OCR_PAGE_HEAP_ESTIMATE = 64 * 1024 * 1024;
export const MAX_OCR_ENGINES = 2;

/** Above this many pixels, a decode or fill drops the cached heaps first. */
const ROOMY_PIXELS = 4_000_000;

const caches = new Set<() => void>();

/** A cache holding wasm heaps (the OCR engines) registers how to drop them. */
export function registerCache(release: () => void): void {
  caches.add(release);
}

/** Drops every registered cache when an image of `pixels` is about to be held. */
export function makeRoomFor(pixels: number): void {
  if (pixels <= ROOMY_PIXELS) return;
  for (const release of caches) release();
}
