import type { Box, InpaintRegion, TextStyle } from "../../shared/engine-contract";
import { lineWordSpace, reachLineEnds } from "./line-ends";
import { strokeFreeBackground } from "./morph";
import { rectOf, type Rect } from "./rect";
import type { RgbaImage } from "./rgba";

function inRects(rects: Rect[], x: number, y: number): boolean {
  for (const r of rects) if (x >= r.x0 && x < r.x1 && y >= r.y0 && y < r.y1) return true;
  return false;
}

/** A region's mask and what was learnt about its text on the way. */
export interface RegionMask {
  /** Text zones (line boxes, padded): glyph pixels are looked for only inside them. */
  zones: Rect[];
  /** Glyph pixels (before dilation), count. */
  core: number;
  /** Mean stroke thickness of the glyphs found, pixels (0 when none). */
  stroke: number;
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

/** How far around its line boxes a region's glyph pixels are looked for. */
const zonePad = (r: InpaintRegion) => Math.max(2, Math.round(lineHeightOf(r) * 0.18));

/** The padded line boxes of a region: where its glyph pixels are looked for. */
export function zonesOf(r: InpaintRegion, width: number, height: number): Rect[] {
  return (r.lines && r.lines.length ? r.lines : [r.box]).map((b) => rectOf(b, zonePad(r), width, height));
}

/** Stroke thickness over line height between regular and bold faces: measured 0.106 for DejaVu Sans, 0.168 for its bold. */
const WEIGHT_SPLIT = 0.135;
/** Half-window of the background estimate over line height: the window (2r+1) is wider than a bold stroke (0.17). */
const WINDOW = 0.12;
/** A channel counts as darker (lighter) text than its background when zone pixels fall this far outside the ring's range. */
const OUTSIDE = 10;

const LUMA = [77, 150, 29];
const hex = (v: number) =>
  Math.round(Math.max(0, Math.min(255, v)))
    .toString(16)
    .padStart(2, "0");

/** At most SAMPLES evenly spaced entries of a pixel list (percentiles of a ring need no more). */
const SAMPLES = 4000;
function sampledIndexes(list: ArrayLike<number>): number[] {
  const step = Math.max(1, Math.floor(list.length / SAMPLES));
  const out: number[] = [];
  for (let k = 0; k < list.length; k += step) out.push(list[k]!);
  return out;
}

/** Counts of integer values in [-HIST_BASE, HIST_BASE) (channel values and their differences), reused. */
const HIST_BASE = 512;
const counts = new Uint32Array(2 * HIST_BASE);

function percentile(values: ArrayLike<number>, q: number): number {
  const n = values.length;
  if (!n) return 0;
  const rank = Math.min(n - 1, Math.floor(n * q));
  // Channel values and differences of them are whole numbers in a small range: counting them
  // gives the same order statistic as sorting, in one pass.
  let integral = true;
  for (let k = 0; k < n; k++) {
    const v = values[k]!;
    if (v !== Math.floor(v) || v < -HIST_BASE || v >= HIST_BASE) {
      integral = false;
      break;
    }
  }
  if (integral) {
    counts.fill(0);
    for (let k = 0; k < n; k++) counts[values[k]! + HIST_BASE]!++;
    for (let b = 0, seen = 0; b < counts.length; b++) {
      seen += counts[b]!;
      if (seen > rank) return b - HIST_BASE;
    }
  }
  // A typed array sorts numerically and natively (several times faster than a comparator).
  const sorted = Float32Array.from(values).sort();
  return sorted[rank]!;
}

/** Alignment of a region's lines: the edge (or centre) where they line up best. */
function alignmentOf(r: InpaintRegion): TextStyle["align"] {
  const lines = r.lines ?? [];
  if (lines.length < 2 || r.vertical)
    return r.vertical
      ? "left"
      : lines.length === 1 && Math.abs(lines[0]!.x + lines[0]!.w / 2 - (r.box.x + r.box.w / 2)) < 2 && lines[0]!.w < r.box.w * 0.8
        ? "center"
        : "left";
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

/** A colour step this large (any channel, 0–255) in the background beside a line is a background edge. */
const EDGE = 48;

/**
 * Where the background changes along a text zone: columns at which the pixels just above or just
 * below the zone (outside every text zone) step by more than EDGE over a few pixels.
 */
function backgroundEdges(img: RgbaImage, z: Rect, r: number, blocked: Rect[]): number[] {
  const { width, height } = img;
  const edges: number[] = [];
  for (const rows of [
    [z.y0 - r, z.y0],
    [z.y1, z.y1 + r],
  ] as const) {
    const y0 = Math.max(0, rows[0]),
      y1 = Math.min(height, rows[1]);
    if (y1 <= y0) continue;
    // Mean colour of each column's free pixels; a column without any keeps its neighbour's.
    const col = new Float32Array((z.x1 - z.x0) * 3);
    let last: [number, number, number] | null = null;
    for (let x = z.x0; x < z.x1; x++) {
      let n = 0;
      const sum = [0, 0, 0];
      for (let y = y0; y < y1; y++) {
        if (inRects(blocked, x, y)) continue;
        for (let c = 0; c < 3; c++) sum[c]! += img.data[(y * width + x) * 4 + c]!;
        n++;
      }
      const v: [number, number, number] | null = n ? [sum[0]! / n, sum[1]! / n, sum[2]! / n] : last;
      if (v) last = v;
      for (let c = 0; c < 3; c++) col[(x - z.x0) * 3 + c] = v ? v[c]! : -1;
    }
    const span = 4;
    for (let x = z.x0 + span; x < z.x1; x++) {
      const a = (x - span - z.x0) * 3,
        b = (x - z.x0) * 3;
      if (col[a]! < 0 || col[b]! < 0) continue;
      let d = 0;
      for (let c = 0; c < 3; c++) d = Math.max(d, Math.abs(col[b + c]! - col[a + c]!));
      // One cut per step: the middle of the run of columns that see it.
      if (d > EDGE) {
        let e = x;
        while (
          e + 1 < z.x1 &&
          (() => {
            let dd = 0;
            for (let c = 0; c < 3; c++) dd = Math.max(dd, Math.abs(col[(e + 1 - z.x0) * 3 + c]! - col[(e + 1 - span - z.x0) * 3 + c]!));
            return dd > EDGE;
          })()
        )
          e++;
        edges.push(Math.round((x - span + e) / 2));
        x = e + span;
      }
    }
  }
  return [...new Set(edges)].sort((a, b) => a - b);
}

/** The closing or opening of a plane computed separately between the given columns. */
function segmented(plane: Float32Array, w: number, h: number, r: number, dark: boolean, cuts: number[]): Float32Array {
  const bounds = [0, ...cuts.filter((x) => x > 0 && x < w), w];
  if (bounds.length === 2) return strokeFreeBackground(plane, w, h, r, dark);
  const out = new Float32Array(w * h);
  for (let k = 0; k + 1 < bounds.length; k++) {
    const x0 = bounds[k]!,
      sw = bounds[k + 1]! - x0;
    const part = new Float32Array(sw * h);
    for (let y = 0; y < h; y++) for (let x = 0; x < sw; x++) part[y * sw + x] = plane[y * w + x0 + x]!;
    const done = strokeFreeBackground(part, sw, h, r, dark);
    for (let y = 0; y < h; y++) for (let x = 0; x < sw; x++) out[y * w + x0 + x] = done[y * sw + x]!;
  }
  return out;
}

/** Ink found in one zone: pixel indexes and how far each stands out from the background. */
export interface ZoneInk {
  at: number[];
  distance: number[];
  /**
   * Texture level of the background around the zone: how far its own pixels stand out from the
   * stroke-free estimate (0 on flat colour and gradients; grain, foliage and stripes raise it).
   */
  texture: number;
}

/**
 * The glyph pixels of one text zone. The background under the text is estimated per pixel by a
 * closing (dark text) or opening (light text) of each channel with a window wider than a stroke:
 * strokes vanish, flat colour, gradients, texture and step edges between two backgrounds stay.
 * Which way each channel goes is read per tile of the zone from the ring of background around it
 * (text darker than the ring's darkest pixels, or lighter than its lightest), so red text on blue
 * or a line crossing from a light into a dark background is still seen. A pixel is ink when it
 * stands out from that estimate by more than the ring's own pixels do (texture, grain, noise).
 * The estimate's luma is written to `guide` around the zone: the fill uses it to keep each side
 * of a background boundary to itself.
 */
export function zoneInk(img: RgbaImage, z: Rect, lh: number, blocked: Rect[], guide: Uint8Array): ZoneInk {
  const { width, height } = img;
  if (z.x1 <= z.x0 || z.y1 <= z.y0) return { at: [], distance: [], texture: 0 };
  const r = Math.max(2, Math.ceil(lh * WINDOW));
  const R = {
    x0: Math.max(0, z.x0 - r - 2),
    y0: Math.max(0, z.y0 - r - 2),
    x1: Math.min(width, z.x1 + r + 2),
    y1: Math.min(height, z.y1 + r + 2),
  };
  const w = R.x1 - R.x0,
    h = R.y1 - R.y0;
  // Only the text zones that touch this rectangle matter (a page may have hundreds).
  const near = blocked.filter((b) => b.x0 < R.x1 && b.x1 > R.x0 && b.y0 < R.y1 && b.y1 > R.y0);
  const planes: Float32Array[] = [0, 1, 2].map((c) => {
    const p = new Float32Array(w * h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) p[y * w + x] = img.data[((R.y0 + y) * width + R.x0 + x) * 4 + c]!;
    return p;
  });
  // Tiles: every few line heights, and cut where the background changes along the line (a
  // boundary the text crosses), so each tile's text is read against one background.
  const tileW = Math.max(32, Math.round(lh * 3));
  const edges = backgroundEdges(img, z, r, near);
  const cuts = [z.x0];
  for (let x = z.x0 + tileW; x < z.x1; x += tileW) cuts.push(x);
  const bounds = [...new Set([...cuts, ...edges, z.x1])].sort((a, b) => a - b);
  const tiles: { x0: number; x1: number; ring: Int32Array; inside: Int32Array; dark: (boolean | null)[] }[] = [];
  for (let t = 0; t + 1 < bounds.length; t++) {
    const tx0 = bounds[t]!,
      tx1 = bounds[t + 1]!;
    // Ring: pixels of the padded rectangle beside this tile that no text zone covers (never across a background edge).
    const rx0 = edges.includes(tx0) ? tx0 : tx0 - r,
      rx1 = edges.includes(tx1) ? tx1 : tx1 + r;
    // Sampled on a grid (percentiles need no more than a few thousand pixels).
    const cols = Math.max(1, Math.min(R.x1, rx1) - Math.max(R.x0, rx0));
    const stride = Math.max(1, Math.floor(Math.sqrt((cols * h) / SAMPLES)));
    const ring: number[] = [];
    for (let y = R.y0; y < R.y1; y += stride) {
      for (let x = Math.max(R.x0, rx0); x < Math.min(R.x1, rx1); x += stride)
        if (!inRects(near, x, y)) ring.push((y - R.y0) * w + x - R.x0);
    }
    const inside = new Int32Array((z.y1 - z.y0) * (tx1 - tx0));
    for (let y = z.y0, k = 0; y < z.y1; y++) for (let x = tx0; x < tx1; x++) inside[k++] = (y - R.y0) * w + x - R.x0;
    // Which side of its background the text lies on, per channel: the tile's median colour is its
    // background (text covers the lesser part of a line; a ring can lie on another background when
    // a detected "line" spans half the page), the pixels farthest from it are the text. A channel
    // in which they hardly differ says nothing (null) and is left out.
    const picked = sampledIndexes(inside);
    const median = planes.map((p) =>
      percentile(
        picked.map((i) => p[i]!),
        0.5,
      ),
    );
    const far = picked.map((i) => {
      let d = 0;
      for (let c = 0; c < 3; c++) d = Math.max(d, Math.abs(planes[c]![i]! - median[c]!));
      return d;
    });
    const cut = percentile(far.slice(), 0.95);
    const text = planes.map((p) => {
      let sum = 0,
        n = 0;
      picked.forEach((i, k) => {
        if (far[k]! < cut) return;
        sum += p[i]!;
        n++;
      });
      return n ? sum / n : 0;
    });
    const dark: (boolean | null)[] = planes.map((_, c) => (Math.abs(text[c]! - median[c]!) < OUTSIDE ? null : text[c]! < median[c]!));
    if (!dark.some((d) => d !== null)) dark.fill(true);
    tiles.push({ x0: tx0, x1: tx1, ring: Int32Array.from(ring.length >= 16 ? ring : []), inside, dark });
  }
  // Only the estimates some tile needs (usually one per channel), each computed between background
  // edges: a window reaching across one would fill a stroke beside it with the other side's colour.
  const closed = planes.map((p, c) =>
    tiles.some((t) => t.dark[c] === true)
      ? segmented(
          p,
          w,
          h,
          r,
          true,
          edges.map((e) => e - R.x0),
        )
      : p,
  );
  const opened = planes.map((p, c) =>
    tiles.some((t) => t.dark[c] === false)
      ? segmented(
          p,
          w,
          h,
          r,
          false,
          edges.map((e) => e - R.x0),
        )
      : p,
  );
  // Columns of each tile (the first and last reach to the rectangle's edges), row by row.
  tiles.forEach((tile, k) => {
    const c0 = k === 0 ? 0 : tile.x0 - R.x0,
      c1 = k === tiles.length - 1 ? w : tile.x1 - R.x0;
    const [p0, p1, p2] = tile.dark.map((d, c) => (d === true ? closed[c]! : d === false ? opened[c]! : planes[c]!)) as [
      Float32Array,
      Float32Array,
      Float32Array,
    ];
    for (let y = 0; y < h; y++) {
      const row = (R.y0 + y) * width + R.x0;
      for (let x = c0, i = y * w + c0; x < c1; x++, i++) guide[row + x] = (p0[i]! * LUMA[0]! + p1[i]! * LUMA[1]! + p2[i]! * LUMA[2]!) >> 8;
    }
  });
  const out: ZoneInk = { at: [], distance: [], texture: 0 };
  const zero = tiles.some((t) => t.dark.includes(null)) ? new Float32Array(w * h) : planes[0]!;
  for (const { ring, inside, dark } of tiles) {
    // Per channel, the estimate above the pixel and the pixel above the estimate (dark text: the
    // closing minus the pixel; light text: the pixel minus the opening); a silent channel reads 0.
    const hi = dark.map((d, c) => (d === true ? closed[c]! : d === false ? planes[c]! : zero));
    const lo = dark.map((d, c) => (d === true ? planes[c]! : d === false ? opened[c]! : zero));
    const [h0, h1, h2] = hi as [Float32Array, Float32Array, Float32Array],
      [l0, l1, l2] = lo as [Float32Array, Float32Array, Float32Array];
    const distance = (i: number) => {
      const a = h0[i]! - l0[i]!,
        b = h1[i]! - l1[i]!,
        c = h2[i]! - l2[i]!;
      let d = a > 0 ? a : 0;
      if (b > d) d = b;
      return c > d ? c : d;
    };
    // Texture level of the background: a high percentile of the ring's own distance, or read off
    // the tile's own pixels when that says more (a detected "line" as tall as the picture has
    // little ring, and that at its edges): text covers the lesser part of a line, so their
    // median distance is the background's, about a third of its high percentile for grain.
    const own = 3 * percentile(Array.from(sampledIndexes(inside), distance), 0.5);
    const texture = Math.max(own, ring.length ? percentile(Array.from(ring, distance), 0.97) : 0);
    out.texture = Math.max(out.texture, texture);
    const threshold = Math.max(24, texture * 1.15 + 8);
    for (const i of inside) {
      const d = distance(i);
      if (d <= threshold) continue;
      out.at.push((R.y0 + Math.floor(i / w)) * width + R.x0 + (i % w));
      out.distance.push(d);
    }
  }
  return out;
}

/** A region's text zones and the ink found in each (before anything is written to the mask). */
export interface RegionInk {
  zones: Rect[];
  inks: ZoneInk[];
}

/**
 * Finds the glyph pixels of one region inside its padded line boxes (see zoneInk). `blocked` are
 * the text zones of every region on the page: none of them is taken for background; `guide`
 * receives the luma of the text-free background estimate around them.
 */
export function regionInk(img: RgbaImage, r: InpaintRegion, blocked: Rect[], guide: Uint8Array): RegionInk {
  const { width, height } = img;
  const padded = zonesOf(r, width, height);
  // Each line is measured at its own height: a heading merged with body text keeps its wider window.
  const heights = r.lines && r.lines.length ? r.lines.map((b) => Math.max(4, r.vertical ? b.w : b.h)) : [lineHeightOf(r)];
  // Letters a reading lost at a line's ends are removed with the line, within a word space of its
  // own where the words read on it stand wider apart (letter-spaced type).
  const bound = rectOf(r.box, zonePad(r), width, height);
  const lines = r.lines ?? [];
  const spaceOf = (line: Box) =>
    lineWordSpace((r.words ?? []).map((w) => w.box).filter((b) => b.y + b.h / 2 >= line.y && b.y + b.h / 2 < line.y + line.h));
  const zones =
    r.vertical || !lines.length
      ? padded
      : padded.map((z, k) => reachLineEnds(img, z, rectOf(lines[k]!, 0, width, height), heights[k]!, bound, spaceOf(lines[k]!)));
  return { zones, inks: zones.map((z, k) => zoneInk(img, z, heights[k]!, blocked, guide)) };
}

/**
 * Marks a region's glyph pixels (regionInk) in `mask` (1) and reads the text's colour (the solid
 * ink, not its anti-aliased edge), approximate weight (stroke thickness against glyph height),
 * alignment and size.
 */
export function maskRegion(img: RgbaImage, r: InpaintRegion, source: RegionInk, mask: Uint8Array): RegionMask {
  const { width, height } = img;
  const lh = lineHeightOf(r);
  const { zones, inks } = source;
  let core = 0;
  // Histogram of ink distances, for picking the solid (not anti-aliased) ink's colour afterwards.
  const hist = new Uint32Array(256);
  for (const ink of inks) {
    ink.at.forEach((i, k) => {
      if (mask[i] !== 1) {
        mask[i] = 1;
        core++;
      }
      hist[Math.min(255, Math.round(ink.distance[k]!))]!++;
    });
  }
  // Stroke thickness ≈ 2·area / perimeter of the glyph pixels (exact for long thin strokes).
  let edge = 0;
  for (const ink of inks) {
    for (const i of ink.at) {
      const x = i % width,
        y = (i - x) / width;
      if (
        x === 0 ||
        y === 0 ||
        x === width - 1 ||
        y === height - 1 ||
        mask[i - 1] !== 1 ||
        mask[i + 1] !== 1 ||
        mask[i - width] !== 1 ||
        mask[i + width] !== 1
      )
        edge++;
    }
  }
  const found = inks.reduce((n, k) => n + k.at.length, 0);
  const stroke = edge ? (2 * found) / edge : 0;
  const weight = stroke / lh > WEIGHT_SPLIT ? 700 : 400;
  // Colour from the solid ink only: anti-aliased edges mix with the background.
  let seen = 0,
    p95 = 0;
  for (let d = 255; d >= 0; d--) {
    seen += hist[d]!;
    if (seen >= found * 0.05) {
      p95 = d;
      break;
    }
  }
  let sr = 0,
    sg = 0,
    sb = 0,
    sw = 0;
  for (const ink of inks) {
    ink.at.forEach((i, k) => {
      if (ink.distance[k]! < p95 * 0.85) return;
      sr += img.data[i * 4]!;
      sg += img.data[i * 4 + 1]!;
      sb += img.data[i * 4 + 2]!;
      sw++;
    });
  }
  const color = sw ? `#${hex(sr / sw)}${hex(sg / sw)}${hex(sb / sw)}` : "#000000";
  return { zones, core, stroke, style: { color, font_weight: weight, align: alignmentOf(r), font_size: Math.round(lh) } };
}

/**
 * Grows the glyph pixels of `src` by `radius` pixels inside `area` (square structuring element,
 * two passes), marking them in `dst`. Reading the ungrown mask keeps regions that overlap from
 * growing each other's halo twice.
 */
export function dilate(src: Uint8Array, dst: Uint8Array, width: number, area: Rect, radius: number): void {
  if (radius <= 0) return;
  const w = area.x1 - area.x0,
    h = area.y1 - area.y0;
  const tmp = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    let last = -1e9;
    for (let x = 0; x < w; x++)
      if (src[(area.y0 + y) * width + area.x0 + x] === 1) last = x;
      else if (x - last <= radius) tmp[y * w + x] = 1;
    last = 1e9;
    for (let x = w - 1; x >= 0; x--)
      if (src[(area.y0 + y) * width + area.x0 + x] === 1) last = x;
      else if (last - x <= radius) tmp[y * w + x] = 1;
  }
  for (let i = 0; i < w * h; i++) if (src[(area.y0 + Math.floor(i / w)) * width + area.x0 + (i % w)] === 1) tmp[i] = 1;
  const out = new Uint8Array(w * h);
  for (let x = 0; x < w; x++) {
    let last = -1e9;
    for (let y = 0; y < h; y++)
      if (tmp[y * w + x]) last = y;
      else if (y - last <= radius) out[y * w + x] = 1;
    last = 1e9;
    for (let y = h - 1; y >= 0; y--)
      if (tmp[y * w + x]) last = y;
      else if (last - y <= radius) out[y * w + x] = 1;
  }
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) if (out[y * w + x] || tmp[y * w + x]) dst[(area.y0 + y) * width + area.x0 + x] = 1;
}
