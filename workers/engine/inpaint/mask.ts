import type { Box, InpaintRegion, TextStyle } from "../contract";
import type { RgbaImage } from "./rgba";

/** An integer pixel rectangle [x0, x1) × [y0, y1). */
export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export function rectOf(b: Box, pad: number, width: number, height: number): Rect {
  return {
    x0: Math.max(0, Math.floor(b.x - pad)),
    y0: Math.max(0, Math.floor(b.y - pad)),
    x1: Math.min(width, Math.ceil(b.x + b.w + pad)),
    y1: Math.min(height, Math.ceil(b.y + b.h + pad)),
  };
}

function inRects(rects: Rect[], x: number, y: number): boolean {
  for (const r of rects) if (x >= r.x0 && x < r.x1 && y >= r.y0 && y < r.y1) return true;
  return false;
}

/** A region's mask and what was learnt about its text on the way. */
export interface RegionMask {
  /** Where the fill works: the region plus a margin of background. */
  area: Rect;
  /** Text zones (line boxes, padded): glyph pixels are looked for only inside them. */
  zones: Rect[];
  /** Glyph pixels (before dilation), count. */
  core: number;
  style: TextStyle;
}

/**
 * Typical glyph height of a region: its lines' median height (recognised line boxes run from
 * ascender to descender, about one em), or a share of its box.
 */
export function lineHeightOf(r: InpaintRegion): number {
  const hs = (r.lines ?? []).map((l) => (r.vertical ? l.w : l.h)).sort((a, b) => a - b);
  if (hs.length) return Math.max(4, hs[hs.length >> 1]!);
  return Math.max(4, Math.min(r.vertical ? r.box.w : r.box.h, 64));
}

/** Stroke thickness over line height between regular and bold faces: measured 0.106 for DejaVu Sans, 0.168 for its bold. */
const WEIGHT_SPLIT = 0.135;

const hex = (v: number) => Math.round(Math.max(0, Math.min(255, v))).toString(16).padStart(2, "0");

/**
 * Least-squares plane per channel over background samples: v ≈ a + b·x + c·y. A flat background
 * gives b = c = 0; a gradient is followed exactly, so its pixels are not mistaken for ink.
 */
function fitPlanes(img: RgbaImage, xs: number[], ys: number[]): Float64Array {
  const n = xs.length;
  const out = new Float64Array(9);
  if (n === 0) {
    out[0] = out[3] = out[6] = 255;
    return out;
  }
  let mx = 0, my = 0;
  for (let i = 0; i < n; i++) {
    mx += xs[i]!;
    my += ys[i]!;
  }
  mx /= n;
  my /= n;
  let sxx = 0, sxy = 0, syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = xs[i]! - mx, dy = ys[i]! - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  const det = sxx * syy - sxy * sxy;
  for (let c = 0; c < 3; c++) {
    let mv = 0, sxv = 0, syv = 0;
    for (let i = 0; i < n; i++) mv += img.data[(ys[i]! * img.width + xs[i]!) * 4 + c]!;
    mv /= n;
    for (let i = 0; i < n; i++) {
      const v = img.data[(ys[i]! * img.width + xs[i]!) * 4 + c]! - mv;
      sxv += (xs[i]! - mx) * v;
      syv += (ys[i]! - my) * v;
    }
    const b = Math.abs(det) > 1e-6 ? (sxv * syy - syv * sxy) / det : 0;
    const cc = Math.abs(det) > 1e-6 ? (syv * sxx - sxv * sxy) / det : 0;
    out[c * 3] = mv - b * mx - cc * my;
    out[c * 3 + 1] = b;
    out[c * 3 + 2] = cc;
  }
  return out;
}

/** Largest channel difference between a pixel and the background plane there. */
function distance(img: RgbaImage, p: Float64Array, x: number, y: number): number {
  const j = (y * img.width + x) * 4;
  let d = 0;
  for (let c = 0; c < 3; c++) {
    const bg = p[c * 3]! + p[c * 3 + 1]! * x + p[c * 3 + 2]! * y;
    d = Math.max(d, Math.abs(img.data[j + c]! - bg));
  }
  return d;
}

/** Alignment of a region's lines: the edge (or centre) where they line up best. */
function alignmentOf(r: InpaintRegion): TextStyle["align"] {
  const lines = r.lines ?? [];
  if (lines.length < 2 || r.vertical) return r.vertical ? "left" : lines.length === 1 && Math.abs(lines[0]!.x + lines[0]!.w / 2 - (r.box.x + r.box.w / 2)) < 2 && lines[0]!.w < r.box.w * 0.8 ? "center" : "left";
  const spread = (f: (b: Box) => number) => {
    const v = lines.map(f);
    return Math.max(...v) - Math.min(...v);
  };
  const left = spread((b) => b.x);
  const centre = spread((b) => b.x + b.w / 2);
  const right = spread((b) => b.x + b.w);
  const min = Math.min(left, centre, right);
  if (min === left) return "left";
  return min === centre ? "center" : "right";
}

/**
 * Finds the glyph pixels of one region: inside each padded line box, the pixels that stand out
 * from the local background (a plane fitted to the ring of pixels around the text, so gradients
 * stay background) by more than the background's own texture does. Marks them in `mask` (1), then
 * dilates by the anti-aliasing halo so no stroke edge survives. Also reads the text's colour,
 * approximate weight (stroke thickness against glyph height), alignment and size.
 */
export function maskRegion(img: RgbaImage, r: InpaintRegion, mask: Uint8Array): RegionMask {
  const { width, height } = img;
  const lh = lineHeightOf(r);
  const pad = Math.max(2, Math.round(lh * 0.18));
  const zoneBoxes = r.lines && r.lines.length ? r.lines : [r.box];
  const zones = zoneBoxes.map((b) => rectOf(b, pad, width, height));
  // The fill copies texture from up to three shifts (each one to two zone heights) above or below
  // (fill.ts): the area reaches that far.
  const reach = 4 * Math.max(...zones.map((z) => z.y1 - z.y0)) + 2;
  const margin = rectOf(r.box, pad * 2 + 2, width, height);
  const area = { x0: margin.x0, x1: margin.x1, y0: Math.max(0, Math.min(margin.y0, Math.floor(r.box.y - pad - reach))), y1: Math.min(height, Math.max(margin.y1, Math.ceil(r.box.y + r.box.h + pad + reach))) };
  const boxRect = rectOf(r.box, pad, width, height);

  // Background samples: the ring between the padded box and a margin around it (every pixel
  // there is outside any text zone of this region).
  const xs: number[] = [], ys: number[] = [];
  const step = Math.max(1, Math.floor(Math.sqrt(((margin.x1 - margin.x0) * (margin.y1 - margin.y0)) / 20000)));
  for (let y = margin.y0; y < margin.y1; y += step) {
    for (let x = margin.x0; x < margin.x1; x += step) {
      if (inRects([boxRect], x, y)) continue;
      xs.push(x);
      ys.push(y);
    }
  }
  const plane = fitPlanes(img, xs, ys);
  const ring = xs.map((x, i) => distance(img, plane, x, ys[i]!)).sort((a, b) => a - b);
  // Texture level of the background: a high percentile of its distance from the plane.
  const texture = ring.length ? ring[Math.min(ring.length - 1, Math.floor(ring.length * 0.97))]! : 0;
  const threshold = Math.max(24, texture * 1.15 + 8);

  let core = 0;
  // Histogram of ink distances, for picking the solid (not anti-aliased) ink's colour afterwards.
  const hist = new Uint32Array(443);
  for (const z of zones) {
    for (let y = z.y0; y < z.y1; y++) {
      for (let x = z.x0; x < z.x1; x++) {
        const d = distance(img, plane, x, y);
        const i = y * width + x;
        if (d > threshold) {
          if (mask[i] !== 1) {
            mask[i] = 1;
            core++;
          }
          hist[Math.min(442, Math.round(d))]!++;
        }
      }
    }
  }
  // Stroke thickness ≈ 2·area / perimeter of the glyph pixels (exact for long thin strokes).
  let edge = 0;
  for (const z of zones) {
    for (let y = z.y0; y < z.y1; y++) {
      for (let x = z.x0; x < z.x1; x++) {
        const i = y * width + x;
        if (mask[i] !== 1) continue;
        if (x === 0 || y === 0 || x === width - 1 || y === height - 1 || mask[i - 1] !== 1 || mask[i + 1] !== 1 || mask[i - width] !== 1 || mask[i + width] !== 1) edge++;
      }
    }
  }
  const stroke = edge ? (2 * core) / edge : 0;
  const weight = stroke / lh > WEIGHT_SPLIT ? 700 : 400;
  // Colour from the solid ink only: anti-aliased edges mix with the background.
  let seen = 0, p95 = 0;
  for (let d = 442; d >= 0; d--) {
    seen += hist[d]!;
    if (seen >= core * 0.05) {
      p95 = d;
      break;
    }
  }
  let sr = 0, sg = 0, sb = 0, sw = 0;
  for (const z of zones) {
    for (let y = z.y0; y < z.y1; y++) {
      for (let x = z.x0; x < z.x1; x++) {
        if (mask[y * width + x] !== 1 || distance(img, plane, x, y) < p95 * 0.85) continue;
        const j = (y * width + x) * 4;
        sr += img.data[j]!;
        sg += img.data[j + 1]!;
        sb += img.data[j + 2]!;
        sw++;
      }
    }
  }
  const color = sw ? `#${hex(sr / sw)}${hex(sg / sw)}${hex(sb / sw)}` : "#000000";
  return { area, zones, core, style: { color, font_weight: weight, align: alignmentOf(r), font_size: Math.round(lh) } };
}

/** Grows the mask by `radius` pixels inside `area` (square structuring element, two passes). */
export function dilate(mask: Uint8Array, width: number, area: Rect, radius: number): void {
  if (radius <= 0) return;
  const w = area.x1 - area.x0, h = area.y1 - area.y0;
  const tmp = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    let last = -1e9;
    for (let x = 0; x < w; x++) if (mask[(area.y0 + y) * width + area.x0 + x] === 1) last = x; else if (x - last <= radius) tmp[y * w + x] = 1;
    last = 1e9;
    for (let x = w - 1; x >= 0; x--) if (mask[(area.y0 + y) * width + area.x0 + x] === 1) last = x; else if (last - x <= radius) tmp[y * w + x] = 1;
  }
  for (let i = 0; i < w * h; i++) if (mask[(area.y0 + Math.floor(i / w)) * width + area.x0 + (i % w)] === 1) tmp[i] = 1;
  const out = new Uint8Array(w * h);
  for (let x = 0; x < w; x++) {
    let last = -1e9;
    for (let y = 0; y < h; y++) if (tmp[y * w + x]) last = y; else if (y - last <= radius) out[y * w + x] = 1;
    last = 1e9;
    for (let y = h - 1; y >= 0; y--) if (tmp[y * w + x]) last = y; else if (last - y <= radius) out[y * w + x] = 1;
  }
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (out[y * w + x] || tmp[y * w + x]) mask[(area.y0 + y) * width + area.x0 + x] = 1;
}
