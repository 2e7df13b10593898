import type { Rect } from "./mask";
import type { RgbaImage } from "./rgba";

/**
 * Push-pull (multi-resolution) interpolation of the masked pixels of `area` from the known ones:
 * each coarser level averages the known pixels below it, then holes take the coarse value. Smooth
 * and exact on flat and gradient backgrounds; never reads a masked pixel, so no stroke is smeared.
 * Returns the filled area as planar RGB floats (w·h·3).
 */
function pushPull(img: RgbaImage, mask: Uint8Array, area: Rect): Float32Array {
  const w0 = area.x1 - area.x0, h0 = area.y1 - area.y0;
  const levels: { w: number; h: number; v: Float32Array; k: Float32Array }[] = [];
  let v = new Float32Array(w0 * h0 * 3);
  let k = new Float32Array(w0 * h0);
  for (let y = 0; y < h0; y++) {
    for (let x = 0; x < w0; x++) {
      const i = (area.y0 + y) * img.width + area.x0 + x;
      if (mask[i]) continue;
      const o = y * w0 + x;
      k[o] = 1;
      for (let c = 0; c < 3; c++) v[o * 3 + c] = img.data[i * 4 + c]!;
    }
  }
  levels.push({ w: w0, h: h0, v, k });
  let w = w0, h = h0;
  while (w > 1 || h > 1) {
    const nw = Math.max(1, Math.ceil(w / 2)), nh = Math.max(1, Math.ceil(h / 2));
    const nv = new Float32Array(nw * nh * 3), nk = new Float32Array(nw * nh);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const kk = k[y * w + x]!;
        if (!kk) continue;
        const o = (y >> 1) * nw + (x >> 1);
        nk[o]! += kk;
        for (let c = 0; c < 3; c++) nv[o * 3 + c]! += v[(y * w + x) * 3 + c]! * kk;
      }
    }
    for (let o = 0; o < nw * nh; o++) {
      if (nk[o]! > 0) for (let c = 0; c < 3; c++) nv[o * 3 + c] = nv[o * 3 + c]! / nk[o]!;
      nk[o] = Math.min(1, nk[o]!);
    }
    levels.push({ w: nw, h: nh, v: nv, k: nk });
    v = nv;
    k = nk;
    w = nw;
    h = nh;
  }
  // Push: from coarse to fine, partly known pixels blend with their parent (bilinear between parents).
  for (let l = levels.length - 2; l >= 0; l--) {
    const f = levels[l]!, p = levels[l + 1]!;
    for (let y = 0; y < f.h; y++) {
      const py = Math.min(p.h - 1, Math.max(0, (y - 0.5) / 2));
      const y0 = Math.floor(py), y1 = Math.min(p.h - 1, y0 + 1), fy = py - y0;
      for (let x = 0; x < f.w; x++) {
        const o = y * f.w + x;
        const kk = f.k[o]!;
        if (kk >= 1) continue;
        const px = Math.min(p.w - 1, Math.max(0, (x - 0.5) / 2));
        const x0 = Math.floor(px), x1 = Math.min(p.w - 1, x0 + 1), fx = px - x0;
        for (let c = 0; c < 3; c++) {
          const a = p.v[(y0 * p.w + x0) * 3 + c]! * (1 - fx) + p.v[(y0 * p.w + x1) * 3 + c]! * fx;
          const b = p.v[(y1 * p.w + x0) * 3 + c]! * (1 - fx) + p.v[(y1 * p.w + x1) * 3 + c]! * fx;
          const coarse = a * (1 - fy) + b * fy;
          f.v[o * 3 + c] = f.v[o * 3 + c]! * kk + coarse * (1 - kk);
        }
        f.k[o] = 1;
      }
    }
  }
  return levels[0]!.v;
}

/** Separable box blur of planar RGB floats (edges clamped), radius r. */
function boxBlur(src: Float32Array, w: number, h: number, r: number): Float32Array {
  const tmp = new Float32Array(src.length);
  const out = new Float32Array(src.length);
  for (let y = 0; y < h; y++) {
    for (let c = 0; c < 3; c++) {
      let acc = 0;
      for (let x = -r; x <= r; x++) acc += src[(y * w + Math.min(w - 1, Math.max(0, x))) * 3 + c]!;
      for (let x = 0; x < w; x++) {
        tmp[(y * w + x) * 3 + c] = acc / (2 * r + 1);
        acc += src[(y * w + Math.min(w - 1, x + r + 1)) * 3 + c]! - src[(y * w + Math.max(0, x - r)) * 3 + c]!;
      }
    }
  }
  for (let x = 0; x < w; x++) {
    for (let c = 0; c < 3; c++) {
      let acc = 0;
      for (let y = -r; y <= r; y++) acc += tmp[(Math.min(h - 1, Math.max(0, y)) * w + x) * 3 + c]!;
      for (let y = 0; y < h; y++) {
        out[(y * w + x) * 3 + c] = acc / (2 * r + 1);
        acc += tmp[(Math.min(h - 1, y + r + 1) * w + x) * 3 + c]! - tmp[(Math.max(0, y - r) * w + x) * 3 + c]!;
      }
    }
  }
  return out;
}

/**
 * The vertical shift (one to two zone heights) at which the background above a text zone best
 * matches the zone's own visible background: for periodic textures (stripes, weaves, halftone) it
 * lands on a whole number of periods, so copied texture continues without a seam.
 */
function bestShift(img: RgbaImage, mask: Uint8Array, area: Rect, z: Rect): number {
  const H = z.y1 - z.y0;
  const W = img.width;
  let best = H, bestScore = Infinity;
  for (let s = H; s <= 2 * H; s++) {
    let sum = 0, n = 0;
    for (let y = z.y0; y < z.y1; y += 2) {
      // Compared the way the fill copies: from above when inside the area, else from below.
      const sy = y - s >= area.y0 ? y - s : y + s < area.y1 ? y + s : -1;
      if (sy < 0) continue;
      for (let x = z.x0; x < z.x1; x += 3) {
        const i = y * W + x, j = sy * W + x;
        if (mask[i] || mask[j]) continue;
        sum += Math.abs(img.data[i * 4]! - img.data[j * 4]!) + Math.abs(img.data[i * 4 + 1]! - img.data[j * 4 + 1]!) + Math.abs(img.data[i * 4 + 2]! - img.data[j * 4 + 2]!);
        n++;
      }
    }
    if (n >= 30 && sum / n < bestScore) {
      bestScore = sum / n;
      best = s;
    }
  }
  return best;
}

/**
 * Fills the masked pixels of `area` in place. The smooth part comes from push-pull interpolation
 * (blurred so its coarse levels leave no blocks); the texture comes from the background next to
 * the text: each masked pixel takes the fine detail (pixel minus smooth part) of the pixel one text
 * zone height above it (or below, when that is masked too). A constant shift copies a whole patch
 * of texture, so grain, paper and stripes continue through the cleared glyphs instead of smearing.
 */
export function fillArea(img: RgbaImage, mask: Uint8Array, area: Rect, zones: Rect[], blurRadius: number): number {
  const w = area.x1 - area.x0, h = area.y1 - area.y0;
  if (w <= 0 || h <= 0) return 0;
  const smooth = boxBlur(pushPull(img, mask, area), w, h, Math.max(1, blurRadius));
  const W = img.width;
  const masked = (x: number, y: number) => mask[y * W + x] === 1;
  const tallest = Math.max(blurRadius * 2, ...zones.map((z) => z.y1 - z.y0));
  const shifts = zones.map((z) => bestShift(img, mask, area, z));
  const out: [number, number, number][] = [];
  const at: number[] = [];
  for (let y = area.y0; y < area.y1; y++) {
    for (let x = area.x0; x < area.x1; x++) {
      if (!masked(x, y)) continue;
      // The zone holding the pixel, or (dilation halo) the nearest one: its shift keeps the texture's phase.
      let zi = -1, dist = Infinity;
      zones.forEach((z, k) => {
        const d = Math.max(0, z.y0 - y, y + 1 - z.y1) + Math.max(0, z.x0 - x, x + 1 - z.x1);
        if (d < dist) {
          dist = d;
          zi = k;
        }
      });
      const shift = zi >= 0 ? shifts[zi]! : tallest;
      let sy = -1;
      for (const cand of [y - shift, y + shift, y - 2 * shift, y + 2 * shift, y - 3 * shift, y + 3 * shift]) {
        if (cand >= area.y0 && cand < area.y1 && !masked(x, cand)) {
          sy = cand;
          break;
        }
      }
      const o = (y - area.y0) * w + (x - area.x0);
      const px: [number, number, number] = [0, 0, 0];
      for (let c = 0; c < 3; c++) {
        let v = smooth[o * 3 + c]!;
        if (sy >= 0) v += img.data[(sy * W + x) * 4 + c]! - smooth[((sy - area.y0) * w + (x - area.x0)) * 3 + c]!;
        px[c] = v;
      }
      out.push(px);
      at.push(y * W + x);
    }
  }
  // Written after reading, so no filled pixel feeds another one's texture.
  for (let i = 0; i < at.length; i++) {
    const j = at[i]! * 4;
    for (let c = 0; c < 3; c++) img.data[j + c] = Math.round(Math.max(0, Math.min(255, out[i]![c]!)));
    img.data[j + 3] = 255;
  }
  return at.length;
}
