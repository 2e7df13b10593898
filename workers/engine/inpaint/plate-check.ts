import type { Rect } from "./rect";
import { squareFilter } from "./morph";
import type { RgbaImage } from "./rgba";

/** A filled pixel this far (0–255, any channel) outside the range of the real background around it is a smear. */
const OUT_OF_RANGE = 24;
/** A region is flagged when this share of its filled pixels is smeared. */
const FLAG_SHARE = 0.08;

export interface PlateCheck {
  /** Filled pixels checked. */
  filled: number;
  /** Share of them that differ from their surroundings (outside their colour range, or with no real background near). */
  smear: number;
  flagged: boolean;
}

/**
 * Clean-plate check of one region: every filled pixel is compared with the pixels around it that
 * were never text (within `radius`). A fill that follows the background stays inside the colour
 * range of its neighbourhood; one that dragged in a colour from elsewhere (beige spread into a blue
 * half, a wedge across a gradient) or left a wide hole with no real background near it (a smooth
 * blob in a photograph) does not. The region is flagged when a visible share of its fill does.
 */
export function checkPlate(img: RgbaImage, mask: Uint8Array, zones: Rect[], radius: number): PlateCheck {
  const { width, height } = img;
  let filled = 0,
    smeared = 0;
  for (const z of zones) {
    const R = {
      x0: Math.max(0, z.x0 - radius),
      y0: Math.max(0, z.y0 - radius),
      x1: Math.min(width, z.x1 + radius),
      y1: Math.min(height, z.y1 + radius),
    };
    const w = R.x1 - R.x0,
      h = R.y1 - R.y0;
    if (w <= 0 || h <= 0) continue;
    const lows: Float32Array[] = [],
      highs: Float32Array[] = [];
    for (let c = 0; c < 3; c++) {
      // Filled pixels are neutral for the neighbourhood's min and max.
      const forMax = new Float32Array(w * h),
        forMin = new Float32Array(w * h);
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          const i = (R.y0 + y) * width + R.x0 + x;
          const v = img.data[i * 4 + c]!;
          forMax[y * w + x] = mask[i] ? -Infinity : v;
          forMin[y * w + x] = mask[i] ? Infinity : v;
        }
      }
      highs.push(squareFilter(forMax, w, h, radius, true));
      lows.push(squareFilter(forMin, w, h, radius, false));
    }
    for (let y = z.y0; y < z.y1; y++) {
      for (let x = z.x0; x < z.x1; x++) {
        const i = y * width + x;
        if (!mask[i]) continue;
        filled++;
        const o = (y - R.y0) * w + x - R.x0;
        let off = 0;
        for (let c = 0; c < 3; c++) {
          const v = img.data[i * 4 + c]!;
          off = Math.max(off, lows[c]![o]! - v, v - highs[c]![o]!);
        }
        if (off > OUT_OF_RANGE) smeared++;
      }
    }
  }
  const smear = filled ? smeared / filled : 0;
  return { filled, smear, flagged: smear > FLAG_SHARE };
}
