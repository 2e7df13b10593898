import type { Quad } from "../../shared/engine-contract";
import { downscaleGray, type GrayImage } from "./gray";
import { closeBright } from "./morphology";

/** The outline is looked for on a copy this long on its longer side. */
const WORK_SIDE = 480;
/** Print is closed away with a window this wide (work pixels): lines of text and rules vanish, a page's edge stays. */
const CLOSE_RADIUS = 3;
/** A change in brightness this large a work pixel across (after closing) is an edge the background does not cross. */
const EDGE_STEP = 12;
/** The page must cover this share of the photo at least. */
const MIN_PAGE_SHARE = 0.2;
/** Its outline must be this close to a quadrilateral: the page's area over the quadrilateral's. */
const MIN_FILL = 0.93;
/** A page seen square on, covering this much of the image, is a scan and is left as it is. */
const FLAT_SHARE = 0.85;
/** Corners further than this from a right angle (degrees) are a page seen at an angle. */
const MIN_TILT = 1;
/** The outline is drawn this far inside the page's edge (work pixels), so the edge's dark rim stays out. */
const INSET = 1.5;

type Point = [number, number];

/**
 * Edge pixels: where brightness changes by `EDGE_STEP` or more a pixel across (Sobel). Along a
 * slanted edge the values ramp slowly, but across it they jump: a region grown by small steps would
 * creep along the ramp; one stopped by edge pixels cannot.
 */
function edges(img: GrayImage): Uint8Array {
  const { width: w, height: h, data } = img;
  const edge = new Uint8Array(w * h);
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const gx = data[i - w + 1]! + 2 * data[i + 1]! + data[i + w + 1]! - data[i - w - 1]! - 2 * data[i - 1]! - data[i + w - 1]!;
      const gy = data[i + w - 1]! + 2 * data[i + w]! + data[i + w + 1]! - data[i - w - 1]! - 2 * data[i - w]! - data[i - w + 1]!;
      if (Math.hypot(gx, gy) >= 8 * EDGE_STEP) edge[i] = 1;
    }
  }
  return edge;
}

/** Pixels reached from the image's border without crossing an edge: the background around a page. */
function background(img: GrayImage): Uint8Array {
  const { width: w, height: h } = img;
  const edge = edges(img);
  const reached = new Uint8Array(w * h);
  const stack = new Int32Array(w * h);
  let top = 0;
  const push = (i: number) => {
    if (reached[i] || edge[i]) return;
    reached[i] = 1;
    stack[top++] = i;
  };
  for (let x = 0; x < w; x++) (push(x), push((h - 1) * w + x));
  for (let y = 1; y < h - 1; y++) (push(y * w), push(y * w + w - 1));
  while (top > 0) {
    const i = stack[--top]!;
    const x = i % w;
    if (x > 0) push(i - 1);
    if (x < w - 1) push(i + 1);
    if (i >= w) push(i - w);
    if (i < w * (h - 1)) push(i + w);
  }
  return reached;
}

/** The largest 4-connected region of pixels not reached, as a mask, with its size. */
function largestUnreached(reached: Uint8Array, w: number, h: number): { mask: Uint8Array; area: number } {
  const label = new Int32Array(w * h);
  const stack = new Int32Array(w * h);
  let best = 0;
  let bestArea = 0;
  let next = 0;
  for (let s = 0; s < w * h; s++) {
    if (reached[s] || label[s]) continue;
    next++;
    let top = 0;
    let area = 0;
    label[s] = next;
    stack[top++] = s;
    while (top > 0) {
      const i = stack[--top]!;
      area++;
      const x = i % w;
      if (x > 0 && !reached[i - 1] && !label[i - 1]) ((label[i - 1] = next), (stack[top++] = i - 1));
      if (x < w - 1 && !reached[i + 1] && !label[i + 1]) ((label[i + 1] = next), (stack[top++] = i + 1));
      if (i >= w && !reached[i - w] && !label[i - w]) ((label[i - w] = next), (stack[top++] = i - w));
      if (i < w * (h - 1) && !reached[i + w] && !label[i + w]) ((label[i + w] = next), (stack[top++] = i + w));
    }
    if (area > bestArea) {
      bestArea = area;
      best = next;
    }
  }
  const mask = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) if (label[i] === best) mask[i] = 1;
  return { mask, area: bestArea };
}

/**
 * A line through points by least squares, refitted without the points further than 2 px from the
 * first fit (a hand or a fold over the edge): `along` runs along the side, `across` is fitted as
 * across = k·along + c.
 */
function fitSide(points: Point[]): { k: number; c: number } | null {
  let pts = points;
  let fit: { k: number; c: number } | null = null;
  for (let round = 0; round < 3 && pts.length >= 8; round++) {
    let sa = 0,
      sc = 0,
      saa = 0,
      sac = 0;
    for (const [a, c] of pts) {
      sa += a;
      sc += c;
      saa += a * a;
      sac += a * c;
    }
    const n = pts.length;
    const den = n * saa - sa * sa;
    if (Math.abs(den) < 1e-9) return fit;
    const k = (n * sac - sa * sc) / den;
    fit = { k, c: (sc - k * sa) / n };
    const f = fit;
    pts = pts.filter(([a, c]) => Math.abs(c - (f.k * a + f.c)) <= 2);
  }
  return fit;
}

/** The corner where a near-horizontal side (y = k·x + c) meets a near-vertical one (x = k·y + c). */
function meet(horizontal: { k: number; c: number }, vertical: { k: number; c: number }): [number, number] {
  const y = (horizontal.k * vertical.c + horizontal.c) / (1 - horizontal.k * vertical.k);
  return [vertical.k * y + vertical.c, y];
}

/** The four sides of a page mask, each fitted to the middle of its edge, and the corners they meet at. */
function quadOf(mask: Uint8Array, w: number, h: number): Quad | null {
  const minX = new Int32Array(h).fill(-1);
  const maxX = new Int32Array(h).fill(-1);
  const minY = new Int32Array(w).fill(-1);
  const maxY = new Int32Array(w).fill(-1);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (!mask[y * w + x]) continue;
      if (minX[y]! < 0) minX[y] = x;
      maxX[y] = x;
      if (minY[x]! < 0) minY[x] = y;
      maxY[x] = y;
    }
  }
  // Rough corners: the page's points furthest along the four diagonals.
  const extreme = (score: (x: number, y: number) => number): Point => {
    let best: Point = [0, 0];
    let bestScore = -Infinity;
    for (let y = 0; y < h; y++) {
      if (minX[y]! < 0) continue;
      for (const x of [minX[y]!, maxX[y]!]) {
        const s = score(x, y);
        if (s > bestScore) ((bestScore = s), (best = [x, y]));
      }
    }
    return best;
  };
  const tl = extreme((x, y) => -x - y);
  const tr = extreme((x, y) => x - y);
  const br = extreme((x, y) => x + y);
  const bl = extreme((x, y) => y - x);
  // Each side from the middle 70 % of the stretch between its rough corners.
  const middle = (from: number, to: number) => {
    const lo = Math.round(Math.min(from, to) + 0.15 * Math.abs(to - from));
    const hi = Math.round(Math.max(from, to) - 0.15 * Math.abs(to - from));
    return { lo, hi };
  };
  const collect = (range: { lo: number; hi: number }, at: Int32Array): Point[] => {
    const pts: Point[] = [];
    for (let a = range.lo; a <= range.hi; a++) if (at[a]! >= 0) pts.push([a, at[a]!]);
    return pts;
  };
  const top = fitSide(collect(middle(tl[0], tr[0]), minY));
  const bottom = fitSide(collect(middle(bl[0], br[0]), maxY));
  const left = fitSide(collect(middle(tl[1], bl[1]), minX));
  const right = fitSide(collect(middle(tr[1], br[1]), maxX));
  if (!top || !bottom || !left || !right) return null;
  // Drawn a little inside the edge.
  const inset = (side: { k: number; c: number }, sign: number) => ({ k: side.k, c: side.c + sign * INSET * Math.hypot(1, side.k) });
  return [
    meet(inset(top, 1), inset(left, 1)),
    meet(inset(top, 1), inset(right, -1)),
    meet(inset(bottom, -1), inset(right, -1)),
    meet(inset(bottom, -1), inset(left, 1)),
  ];
}

function area(q: Quad): number {
  let s = 0;
  for (let i = 0; i < 4; i++) {
    const [x1, y1] = q[i]!;
    const [x2, y2] = q[(i + 1) % 4]!;
    s += x1 * y2 - x2 * y1;
  }
  return s / 2;
}

/** How far the quadrilateral's corners are from right angles, at most (degrees); Infinity when it is not convex. */
function tilt(q: Quad): number {
  let worst = 0;
  for (let i = 0; i < 4; i++) {
    const [px, py] = q[(i + 3) % 4]!;
    const [x, y] = q[i]!;
    const [nx, ny] = q[(i + 1) % 4]!;
    const a = Math.atan2(py - y, px - x);
    const b = Math.atan2(ny - y, nx - x);
    let angle = ((a - b) * 180) / Math.PI;
    angle = ((angle % 360) + 360) % 360;
    if (angle >= 180) return Infinity;
    worst = Math.max(worst, Math.abs(angle - 90));
  }
  return worst;
}

/**
 * The outline of a page photographed against its surroundings (a table, a hand, a darker
 * background): the region that the background, grown in from the image's border, cannot enter
 * because a brightness edge closes it off. Returns its four corners in `img`'s pixels when the page
 * lies within a larger photo or is seen at an angle, and null for a page that fills the image square
 * on (a scan, or a photo cropped to the page: nothing to straighten), when no edge closes a page
 * off, or when what is closed off is not a light quadrilateral (a figure, a dark box).
 */
export function findPageOutline(img: GrayImage): Quad | null {
  const s = Math.min(1, WORK_SIDE / Math.max(img.width, img.height));
  const small = closeBright(downscaleGray(img, s), CLOSE_RADIUS);
  const { width: w, height: h } = small;
  const reached = background(small);
  const { mask, area: pageArea } = largestUnreached(reached, w, h);
  if (pageArea < MIN_PAGE_SHARE * w * h) return null;
  // Paper is lighter than what it lies on.
  let inside = 0,
    outside = 0,
    outsideCount = 0;
  for (let i = 0; i < w * h; i++) {
    if (mask[i]) inside += small.data[i]!;
    else if (reached[i]) ((outside += small.data[i]!), outsideCount++);
  }
  if (outsideCount === 0 || inside / pageArea <= outside / outsideCount) return null;
  const quad = quadOf(mask, w, h);
  if (!quad) return null;
  const quadArea = area(quad);
  const angle = tilt(quad);
  if (!(quadArea > 0) || !Number.isFinite(angle) || pageArea / quadArea < MIN_FILL || pageArea / quadArea > 1.1) return null;
  if (angle < MIN_TILT && quadArea > FLAT_SHARE * w * h) return null;
  const full = (p: [number, number]): [number, number] => [(p[0] + 0.5) / s - 0.5, (p[1] + 0.5) / s - 0.5];
  return quad.map(full) as Quad;
}
