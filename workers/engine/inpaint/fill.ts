import type { Rect } from "./mask";
import type { RgbaImage } from "./rgba";

const KNOWN = 0, BAND = 1, INSIDE = 2;
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
      const k = new Float64Array(this.size * 2), v = new Int32Array(this.size * 2);
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
    const key = this.keys[--this.size]!, val = this.vals[this.size]!;
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

/**
 * Fills the hole pixels (`hole` = 1, page-sized) inside `rect` in place by fast-marching
 * inpainting (Telea 2004): first the distance of every hole pixel from the hole's edge (fast
 * marching), then the pixels in order of that distance, each from the pixels within `radius`
 * already known — the original ones extrapolated along their own gradient (so gradients continue
 * exactly) — weighted towards those close by, along the marching direction and at the same
 * distance from the edge, and with a luma like the background estimated under the hole (`guide`,
 * mask.ts), so where a stroke crossed the boundary of two backgrounds each side is filled from its
 * own. The result is clamped to the range of the values it came from, so noise
 * or texture never overshoots into a colour the neighbourhood does not have. Only the close
 * neighbourhood is read: a fill never carries a colour across the page. Filled pixels leave
 * `hole`. Returns the count filled.
 */
export function fillHoles(img: RgbaImage, hole: Uint8Array, rect: Rect, radius: number, guide: Uint8Array): number {
  const W = img.width;
  const w = rect.x1 - rect.x0, h = rect.y1 - rect.y0;
  if (w <= 0 || h <= 0) return 0;
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
  if (!holes) return 0;
  // The band starts as the known pixels touching a hole.
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const o = y * w + x;
      if (flag[o] !== KNOWN) continue;
      if ((x > 0 && flag[o - 1] === INSIDE) || (x < w - 1 && flag[o + 1] === INSIDE) || (y > 0 && flag[o - w] === INSIDE) || (y < h - 1 && flag[o + w] === INSIDE)) {
        flag[o] = BAND;
        heap.push(0, o);
      }
    }
  }
  const known = (x: number, y: number) => x >= 0 && y >= 0 && x < w && y < h && flag[y * w + x] === KNOWN;
  // Arrival time from two orthogonal neighbours (first-order upwind solution of |∇T| = 1).
  const solve = (x1: number, y1: number, x2: number, y2: number) => {
    const a = known(x1, y1) ? T[y1 * w + x1]! : -1, b = known(x2, y2) ? T[y2 * w + x2]! : -1;
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
  while (heap.size) {
    const o = heap.pop();
    if (flag[o] === KNOWN) continue;
    if (T[o]! > 0) order[n++] = o;
    flag[o] = KNOWN;
    const x = o % w, y = (o - x) / w;
    for (const [nx, ny] of [[x - 1, y], [x + 1, y], [x, y - 1], [x, y + 1]] as const) {
      if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
      const q = ny * w + nx;
      if (flag[q] === KNOWN) continue;
      const t = Math.min(solve(nx - 1, ny, nx, ny - 1), solve(nx + 1, ny, nx, ny - 1), solve(nx - 1, ny, nx, ny + 1), solve(nx + 1, ny, nx, ny + 1));
      if (flag[q] === INSIDE || t < T[q]!) {
        T[q] = t;
        flag[q] = BAND;
        heap.push(t, q);
      }
    }
  }

  // Gradients of the original pixels (from original neighbours only); filled pixels count as flat.
  const data = img.data;
  const at = (x: number, y: number) => ((rect.y0 + y) * W + rect.x0 + x) * 4;
  const orig = (x: number, y: number) => x >= 0 && y >= 0 && x < w && y < h && !hole[(rect.y0 + y) * W + rect.x0 + x];
  const gradAt = new Float32Array(w * h * 6);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (!orig(x, y)) continue;
      const j = at(x, y);
      for (const [dx, dy, slot] of [[1, 0, 0], [0, 1, 3]] as const) {
        const f = orig(x + dx, y + dy), b = orig(x - dx, y - dy);
        if (!f && !b) continue;
        const jf = f ? at(x + dx, y + dy) : j, jb = b ? at(x - dx, y - dy) : j;
        const span = f && b ? 2 : 1;
        for (let c = 0; c < 3; c++) gradAt[(y * w + x) * 6 + slot + c] = (data[jf + c]! - data[jb + c]!) / span;
      }
    }
  }
  const done = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) done[y * w + x] = orig(x, y) ? 1 : 0;
  const r2 = radius * radius;
  const sum = new Float64Array(3), lo = new Float64Array(3), hi = new Float64Array(3);
  const window = (2 * radius + 1) ** 2;
  const nIdx = new Int32Array(window), nWt = new Float64Array(window), nOff = new Float64Array(window);
  for (let k = 0; k < n; k++) {
    const o = order[k]!;
    const x = o % w, y = (o - x) / w;
    const t = T[o]!;
    const gq = guide[(rect.y0 + y) * W + rect.x0 + x]!;
    const tl = x > 0 ? T[o - 1]! : t, tr = x < w - 1 ? T[o + 1]! : t, tu = y > 0 ? T[o - w]! : t, td = y < h - 1 ? T[o + w]! : t;
    const gx = (tr - tl) / 2, gy = (td - tu) / 2;
    const gn = Math.hypot(gx, gy);
    // Neighbours already known, with their weight and how far their luma is from the guide.
    let m = 0, closest = Infinity;
    for (let ky = Math.max(0, y - radius); ky <= Math.min(h - 1, y + radius); ky++) {
      for (let kx = Math.max(0, x - radius); kx <= Math.min(w - 1, x + radius); kx++) {
        const ko = ky * w + kx;
        if (!done[ko]) continue;
        const rx = x - kx, ry = y - ky;
        const d2 = rx * rx + ry * ry;
        if (d2 > r2) continue;
        const d = Math.sqrt(d2);
        const dir = gn > 0 ? Math.max(0.05, Math.abs(rx * gx + ry * gy) / (d * gn)) : 1;
        const j = at(kx, ky);
        const off = Math.abs(((data[j]! * 77 + data[j + 1]! * 150 + data[j + 2]! * 29) >> 8) - gq);
        nIdx[m] = ko;
        nWt[m] = dir / d2 / (1 + Math.abs(T[ko]! - t)) / (1 + (off / GUIDE_SCALE) ** 2);
        nOff[m] = off;
        if (off < closest) closest = off;
        m++;
      }
    }
    // Only the neighbours on the guide's side of a background edge, when there are any.
    let ws = 0;
    sum.fill(0);
    lo.fill(255);
    hi.fill(0);
    for (let k = 0; k < m; k++) {
      if (nOff[k]! > closest + GUIDE_GATE) continue;
      const ko = nIdx[k]!, wt = nWt[k]!;
      const kx = ko % w, ky = (ko - kx) / w;
      const rx = x - kx, ry = y - ky;
      const j = at(kx, ky), g = ko * 6;
      for (let c = 0; c < 3; c++) {
        const v = data[j + c]!;
        sum[c]! += wt * (v + gradAt[g + c]! * rx + gradAt[g + 3 + c]! * ry);
        if (v < lo[c]!) lo[c] = v;
        if (v > hi[c]!) hi[c] = v;
      }
      ws += wt;
    }
    if (ws === 0) continue;
    const j = at(x, y);
    for (let c = 0; c < 3; c++) data[j + c] = Math.round(Math.min(hi[c]!, Math.max(lo[c]!, sum[c]! / ws)));
    data[j + 3] = 255;
    done[o] = 1;
  }
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) hole[(rect.y0 + y) * W + rect.x0 + x] = 0;
  return holes;
}
