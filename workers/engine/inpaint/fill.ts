import type { Rect } from "./rect";
import type { RgbaImage } from "./rgba";
import { luma } from "../image/gray";

const KNOWN = 0,
  BAND = 1,
  INSIDE = 2;
/** Luma difference from the guide at which a neighbour's weight halves: two backgrounds apart, it falls to a few percent. */
const GUIDE_SCALE = 8;
/** Neighbours whose luma is this much farther from the guide than the closest one's are left out. */
const GUIDE_GATE = 20;

/** A binary min-heap of pixel indexes keyed by arrival time (entries may repeat; stale ones are skipped). */
class Heap {
  private keys = new Float64Array(256);
  private vals = new Int32Array(256);
  size = 0;

  push(key: number, val: number): void {
    if (this.size === this.keys.length) {
      const k = new Float64Array(this.size * 2),
        v = new Int32Array(this.size * 2);
      k.set(this.keys);
      v.set(this.vals);
      this.keys = k;
      this.vals = v;
    }
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.keys[p]! <= key) break;
      this.keys[i] = this.keys[p]!;
      this.vals[i] = this.vals[p]!;
      i = p;
    }
    this.keys[i] = key;
    this.vals[i] = val;
  }

  pop(): number {
    const top = this.vals[0]!;
    const key = this.keys[--this.size]!,
      val = this.vals[this.size]!;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= this.size) break;
      if (c + 1 < this.size && this.keys[c + 1]! < this.keys[c]!) c++;
      if (this.keys[c]! >= key) break;
      this.keys[i] = this.keys[c]!;
      this.vals[i] = this.vals[c]!;
      i = c;
    }
    this.keys[i] = key;
    this.vals[i] = val;
    return top;
  }
}

/** The order in which a hole is filled: its pixels by distance from its edge (fast marching). */
interface March {
  /** Work rectangle: the holes' bounding box in `rect`, grown by what the fill reads around them. */
  rect: Rect;
  /** Hole pixels (work-rectangle offsets) in order of arrival. */
  order: Int32Array;
  /** Arrival time (distance from the hole's edge) of every work pixel; 0 outside the hole. */
  T: Float32Array;
}

/**
 * Fast marching (first-order upwind solution of |∇T| = 1) from the edge of the hole pixels of
 * `rect` inwards. Null when there is no hole there.
 */
function march(hole: Uint8Array, W: number, outer: Rect, margin: number): March | null {
  let bx0 = Infinity,
    by0 = Infinity,
    bx1 = -1,
    by1 = -1;
  for (let y = outer.y0; y < outer.y1; y++) {
    for (let x = outer.x0; x < outer.x1; x++) {
      if (!hole[y * W + x]) continue;
      if (x < bx0) bx0 = x;
      if (x > bx1) bx1 = x;
      if (y < by0) by0 = y;
      if (y > by1) by1 = y;
    }
  }
  if (bx1 < 0) return null;
  const rect = {
    x0: Math.max(outer.x0, bx0 - margin),
    y0: Math.max(outer.y0, by0 - margin),
    x1: Math.min(outer.x1, bx1 + margin + 1),
    y1: Math.min(outer.y1, by1 + margin + 1),
  };
  const w = rect.x1 - rect.x0,
    h = rect.y1 - rect.y0;
  const flag = new Uint8Array(w * h);
  const T = new Float32Array(w * h);
  const heap = new Heap();
  let holes = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (hole[(rect.y0 + y) * W + rect.x0 + x]) {
        flag[y * w + x] = INSIDE;
        T[y * w + x] = 1e6;
        holes++;
      }
    }
  }
  // The band starts as the known pixels touching a hole.
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const o = y * w + x;
      if (flag[o] !== KNOWN) continue;
      if (
        (x > 0 && flag[o - 1] === INSIDE) ||
        (x < w - 1 && flag[o + 1] === INSIDE) ||
        (y > 0 && flag[o - w] === INSIDE) ||
        (y < h - 1 && flag[o + w] === INSIDE)
      ) {
        flag[o] = BAND;
        heap.push(0, o);
      }
    }
  }
  // Known arrival time of a neighbour, or -1.
  const known = (x: number, y: number) => (x >= 0 && y >= 0 && x < w && y < h && flag[y * w + x] === KNOWN ? T[y * w + x]! : -1);
  const solve = (a: number, b: number) => {
    if (a >= 0 && b >= 0) {
      const d = 2 - (a - b) * (a - b);
      if (d > 0) {
        const r = Math.sqrt(d);
        let s = (a + b - r) / 2;
        if (s >= a && s >= b) return s;
        s += r;
        if (s >= a && s >= b) return s;
      }
      return 1 + Math.min(a, b);
    }
    if (a >= 0) return 1 + a;
    if (b >= 0) return 1 + b;
    return 1e6;
  };
  const order = new Int32Array(holes);
  let n = 0;
  const visit = (q: number, nx: number, ny: number) => {
    if (flag[q] === KNOWN) return;
    const l = known(nx - 1, ny),
      r = known(nx + 1, ny),
      u = known(nx, ny - 1),
      d = known(nx, ny + 1);
    const t = Math.min(solve(l, u), solve(r, u), solve(l, d), solve(r, d));
    if (flag[q] === INSIDE || t < T[q]!) {
      T[q] = t;
      flag[q] = BAND;
      heap.push(t, q);
    }
  };
  while (heap.size) {
    const o = heap.pop();
    if (flag[o] === KNOWN) continue;
    if (T[o]! > 0) order[n++] = o;
    flag[o] = KNOWN;
    const x = o % w,
      y = (o - x) / w;
    if (x > 0) visit(o - 1, x - 1, y);
    if (x < w - 1) visit(o + 1, x + 1, y);
    if (y > 0) visit(o - w, x, y - 1);
    if (y < h - 1) visit(o + w, x, y + 1);
  }
  return { rect, order: order.subarray(0, n), T };
}

/**
 * Fills the hole pixels (`hole` = 1, page-sized) inside `rect` in place, from the close
 * neighbourhood only (a fill never carries a colour across the page), in order of distance from
 * the hole's edge (fast marching). `textured` backgrounds (grain, stripes, foliage; see
 * text-evidence.ts) are filled by copying pixels whose surrounding patch matches
 * (fillTexture): an average would blur them into a smooth smear; smooth ones (flat colour,
 * gradients, two-tone) by fast-marching inpainting (fillSmooth), which continues gradients
 * exactly. Filled pixels leave `hole`. Returns the count filled.
 */
export function fillHoles(img: RgbaImage, hole: Uint8Array, rect: Rect, radius: number, guide: Uint8Array, textured = false): number {
  const reach = textured ? PATCH + SEARCH_MIN : radius + 1;
  const m = march(hole, img.width, rect, reach);
  if (!m) return 0;
  const W = img.width;
  if (textured) {
    fillTexture(img, hole, m, Math.max(SEARCH_MIN, radius * 4), guide);
    // Pixels with no source in reach (rare: deep inside a wide hole) are filled smoothly.
    const rest = march(hole, W, rect, radius + 1);
    if (rest) fillSmooth(img, hole, rest, radius, guide);
  } else fillSmooth(img, hole, m, radius, guide);
  const { x0, y0, x1, y1 } = m.rect;
  for (let y = y0; y < y1; y++) hole.fill(0, y * W + x0, y * W + x1);
  return m.order.length;
}

/**
 * Fast-marching inpainting (Telea 2004): the pixels in order of distance, each from the pixels
 * within `radius` already known — the original ones extrapolated along their own gradient (so
 * gradients continue exactly) — weighted towards those close by, along the marching direction and
 * at the same distance from the edge, and with a luma like the background estimated under the
 * hole (`guide`, mask.ts), so where a stroke crossed the boundary of two backgrounds each side is
 * filled from its own. The result is clamped to the range of the values it came from, so noise
 * never overshoots into a colour the neighbourhood does not have.
 */
function fillSmooth(img: RgbaImage, hole: Uint8Array, m: March, radius: number, guide: Uint8Array): void {
  const W = img.width,
    { rect, order, T } = m;
  const w = rect.x1 - rect.x0,
    h = rect.y1 - rect.y0;
  const data = img.data;
  const at = (x: number, y: number) => ((rect.y0 + y) * W + rect.x0 + x) * 4;
  const done = new Uint8Array(w * h);
  const lumas = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const j = at(x, y);
      done[y * w + x] = hole[(rect.y0 + y) * W + rect.x0 + x] ? 0 : 1;
      lumas[y * w + x] = luma(data[j]!, data[j + 1]!, data[j + 2]!);
    }
  }
  // Gradients of the original pixels (from original neighbours only); filled pixels count as flat.
  const gradAt = new Float32Array(w * h * 6);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const o = y * w + x;
      if (!done[o]) continue;
      const j = at(x, y);
      for (let axis = 0; axis < 2; axis++) {
        const dx = axis === 0 ? 1 : 0,
          dy = 1 - dx;
        const f = x + dx < w && y + dy < h && done[o + dx + dy * w] === 1;
        const b = x - dx >= 0 && y - dy >= 0 && done[o - dx - dy * w] === 1;
        if (!f && !b) continue;
        const jf = f ? at(x + dx, y + dy) : j,
          jb = b ? at(x - dx, y - dy) : j;
        const span = f && b ? 2 : 1;
        for (let c = 0; c < 3; c++) gradAt[o * 6 + axis * 3 + c] = (data[jf + c]! - data[jb + c]!) / span;
      }
    }
  }
  // The disc of neighbours: offsets and the distance terms of their weights.
  const dxs: number[] = [],
    dys: number[] = [],
    invD: number[] = [],
    invD2: number[] = [];
  for (let dy = -radius; dy <= radius; dy++) {
    for (let dx = -radius; dx <= radius; dx++) {
      if ((!dx && !dy) || dx * dx + dy * dy > radius * radius) continue;
      dxs.push(dx);
      dys.push(dy);
      invD.push(1 / Math.hypot(dx, dy));
      invD2.push(1 / (dx * dx + dy * dy));
    }
  }
  const nIdx = new Int32Array(dxs.length),
    nWt = new Float64Array(dxs.length),
    nOff = new Float64Array(dxs.length);
  for (const o of order) {
    const x = o % w,
      y = (o - x) / w;
    const t = T[o]!;
    const gq = guide[(rect.y0 + y) * W + rect.x0 + x]!;
    const tl = x > 0 ? T[o - 1]! : t,
      tr = x < w - 1 ? T[o + 1]! : t,
      tu = y > 0 ? T[o - w]! : t,
      td = y < h - 1 ? T[o + w]! : t;
    const gx = (tr - tl) / 2,
      gy = (td - tu) / 2;
    const gn = Math.hypot(gx, gy),
      ign = gn > 0 ? 1 / gn : 0;
    // Neighbours already known, with their weight and how far their luma is from the guide.
    let k = 0,
      closest = Infinity;
    for (let q = 0; q < dxs.length; q++) {
      const kx = x - dxs[q]!,
        ky = y - dys[q]!;
      if (kx < 0 || ky < 0 || kx >= w || ky >= h) continue;
      const ko = ky * w + kx;
      if (!done[ko]) continue;
      const cos = (dxs[q]! * gx + dys[q]! * gy) * invD[q]! * ign;
      const dir = gn > 0 ? Math.max(0.05, cos < 0 ? -cos : cos) : 1;
      const off = Math.abs(lumas[ko]! - gq);
      const dt = T[ko]! - t,
        g = off / GUIDE_SCALE;
      nIdx[k] = ko;
      nWt[k] = (dir * invD2[q]!) / ((1 + (dt < 0 ? -dt : dt)) * (1 + g * g));
      nOff[k] = off;
      if (off < closest) closest = off;
      k++;
    }
    // Only the neighbours on the guide's side of a background edge, when there are any.
    let ws = 0,
      s0 = 0,
      s1 = 0,
      s2 = 0,
      lo0 = 255,
      lo1 = 255,
      lo2 = 255,
      hi0 = 0,
      hi1 = 0,
      hi2 = 0;
    for (let q = 0; q < k; q++) {
      if (nOff[q]! > closest + GUIDE_GATE) continue;
      const ko = nIdx[q]!,
        wt = nWt[q]!;
      const kx = ko % w,
        ky = (ko - kx) / w;
      const rx = x - kx,
        ry = y - ky;
      const j = at(kx, ky),
        g = ko * 6;
      const v0 = data[j]!,
        v1 = data[j + 1]!,
        v2 = data[j + 2]!;
      s0 += wt * (v0 + gradAt[g]! * rx + gradAt[g + 3]! * ry);
      s1 += wt * (v1 + gradAt[g + 1]! * rx + gradAt[g + 4]! * ry);
      s2 += wt * (v2 + gradAt[g + 2]! * rx + gradAt[g + 5]! * ry);
      if (v0 < lo0) lo0 = v0;
      if (v0 > hi0) hi0 = v0;
      if (v1 < lo1) lo1 = v1;
      if (v1 > hi1) hi1 = v1;
      if (v2 < lo2) lo2 = v2;
      if (v2 > hi2) hi2 = v2;
      ws += wt;
    }
    if (ws === 0) continue;
    const j = at(x, y);
    data[j] = Math.round(Math.min(hi0, Math.max(lo0, s0 / ws)));
    data[j + 1] = Math.round(Math.min(hi1, Math.max(lo1, s1 / ws)));
    data[j + 2] = Math.round(Math.min(hi2, Math.max(lo2, s2 / ws)));
    data[j + 3] = 255;
    done[o] = 1;
    lumas[o] = luma(data[j]!, data[j + 1]!, data[j + 2]!);
  }
}

/** Half-size of the patches compared by the texture fill (7×7: grain smaller than that does not decide the match alone). */
const PATCH = 3;
/** Smallest distance the texture fill looks for a source at. */
const SEARCH_MIN = 12;
/** Random sources tried for each pixel, besides the coherent ones its neighbours suggest. */
const TRIES = 8;

/**
 * Texture fill by coherent patch matching (in the spirit of Efros–Leung and Ashikhmin's
 * synthesis, with PatchMatch's propagation): the hole pixels in order of distance from the edge,
 * each copied from the original pixel (within `search` of it, never a hole) whose 7×7
 * surroundings best match its own known ones. Candidates are those its filled neighbours'
 * sources suggest (keeping a stripe or grain running on) and a few random ones close by; the
 * match also weighs the background luma estimated under the hole (`guide`), so each side of a
 * background boundary keeps to its own.
 */
function fillTexture(img: RgbaImage, hole: Uint8Array, m: March, search: number, guide: Uint8Array): void {
  const W = img.width,
    { rect, order } = m;
  const w = rect.x1 - rect.x0,
    h = rect.y1 - rect.y0;
  const data = img.data;
  const page = (o: number) => (rect.y0 + ((o / w) | 0)) * W + rect.x0 + (o % w);
  // 0 = hole not yet filled, 1 = original, 2 = filled.
  const state = new Uint8Array(w * h);
  for (let o = 0; o < w * h; o++) state[o] = hole[page(o)] ? 0 : 1;
  const source = new Int32Array(w * h).fill(-1);
  let seed = 0x9e3779b9 ^ (rect.x0 * 73856093) ^ (rect.y0 * 19349663);
  const random = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 4294967296;
  };
  const cands = new Int32Array(8 + TRIES);
  // The known pixels of the patch around the pixel being filled: their x, y in the rectangle and
  // their index in the page's RGBA data. Each candidate is compared on these alone.
  const SIDE = 2 * PATCH + 1;
  const known = { x: new Int32Array(SIDE * SIDE), y: new Int32Array(SIDE * SIDE), j: new Int32Array(SIDE * SIDE) };
  for (const o of order) {
    const x = o % w,
      y = (o - x) / w;
    const gq = guide[page(o)]!;
    let n = 0;
    // Coherent candidates: a filled neighbour's source, shifted back by the step to it.
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        if (!dx && !dy) continue;
        const nx = x + dx,
          ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
        const s = source[ny * w + nx]!;
        if (s < 0) continue;
        const sx = (s % w) - dx,
          sy = ((s / w) | 0) - dy;
        if (sx >= 0 && sy >= 0 && sx < w && sy < h && state[sy * w + sx] === 1) cands[n++] = sy * w + sx;
      }
    }
    for (let k = 0; k < TRIES; k++) {
      const sx = x + Math.round((random() * 2 - 1) * search),
        sy = y + Math.round((random() * 2 - 1) * search);
      if (sx >= 0 && sy >= 0 && sx < w && sy < h && state[sy * w + sx] === 1) cands[n++] = sy * w + sx;
    }
    let kn = 0;
    for (let ay = Math.max(0, y - PATCH); ay <= Math.min(h - 1, y + PATCH); ay++) {
      const row = (rect.y0 + ay) * W + rect.x0;
      for (let ax = Math.max(0, x - PATCH); ax <= Math.min(w - 1, x + PATCH); ax++) {
        if (!state[ay * w + ax]) continue;
        known.x[kn] = ax;
        known.y[kn] = ay;
        known.j[kn++] = (row + ax) * 4;
      }
    }
    let best = -1,
      bestCost = Infinity;
    for (let k = 0; k < n; k++) {
      const c = cands[k]!;
      if (c === best) continue;
      const cx = c % w,
        cy = (c - cx) / w;
      const dx = cx - x,
        dy = cy - y;
      // Mean squared difference a pixel, plus how far the source lies beyond the guide's range: a
      // source on the other side of a background edge is far from it whatever its patch (within
      // GUIDE_GATE the guide says nothing: on texture it follows the grain's extremes).
      const jc = page(c) * 4;
      const beyond = Math.max(0, Math.abs(luma(data[jc]!, data[jc + 1]!, data[jc + 2]!) - gq) - GUIDE_GATE);
      // A candidate whose summed differences already exceed what the best one's mean allows over
      // every known pixel cannot beat it: its comparison stops there (the choice is the same).
      const limit = (bestCost - beyond * beyond) * kn * (1 + 1e-9);
      // The candidate's patch lies inside the rectangle: no pixel of it needs a bounds test.
      const inside = cx >= PATCH && cy >= PATCH && cx + PATCH < w && cy + PATCH < h;
      const shift = (dy * W + dx) * 4,
        step = dy * w + dx;
      let cost = 0,
        count = 0,
        i = 0;
      for (; i < kn; i++) {
        if (!inside) {
          const bx = known.x[i]! + dx,
            by = known.y[i]! + dy;
          if (bx < 0 || by < 0 || bx >= w || by >= h) continue;
        }
        if (!state[known.y[i]! * w + known.x[i]! + step]) continue;
        const ja = known.j[i]!,
          jb = ja + shift;
        const dr = data[ja]! - data[jb]!,
          dg = data[ja + 1]! - data[jb + 1]!,
          db = data[ja + 2]! - data[jb + 2]!;
        cost += dr * dr + dg * dg + db * db;
        count++;
        if ((count & 7) === 0 && cost > limit) break;
      }
      if (!count || i < kn) continue;
      cost = cost / count + beyond * beyond;
      if (cost < bestCost) {
        bestCost = cost;
        best = c;
      }
    }
    if (best < 0) continue;
    const j = page(o) * 4,
      jb = page(best) * 4;
    data[j] = data[jb]!;
    data[j + 1] = data[jb + 1]!;
    data[j + 2] = data[jb + 2]!;
    data[j + 3] = 255;
    state[o] = 2;
    source[o] = best;
    hole[page(o)] = 0;
  }
}
