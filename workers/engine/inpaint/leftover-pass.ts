import { growByColour, inkColour, type Rgb } from "./colour-grow";
import { fillHoles } from "./fill";
import type { ReadWord } from "./leftover";
import { dilate, zoneInk } from "./mask";
import { rectOf } from "./rect";
import type { RgbaImage } from "./rgba";
import { TEXTURED } from "./text-evidence";

/** `#rrggbb` as RGB. */
export const rgbOf = (hex: string): Rgb => [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16)) as Rgb;

/**
 * A second removal on the words a cleaned region still reads: each word's box (grown by a share of
 * its height) is searched again for ink on the clean plate, now that the rest of the text is gone
 * (mask.ts `zoneInk`), that ink grown by colour (the word's own solid ink's, else the region's
 * text colour `colour`), grown by the halo and filled like the first pass. The pixels are also
 * marked in `mask`. Returns the number of glyph pixels added.
 */
export function removeLeftover(
  img: RgbaImage,
  words: ReadWord[],
  colour: Rgb | null,
  halo: number,
  guide: Uint8Array,
  mask: Uint8Array,
): number {
  const { width, height } = img;
  const zones = words.map((w) => rectOf(w.box, Math.max(2, Math.round(w.box.h * 0.15)), width, height));
  const glyphs = new Uint8Array(width * height);
  let added = 0;
  const inks = zones.map((z, k) => {
    const ink = zoneInk(img, z, words[k]!.box.h, zones, guide);
    const c = inkColour(img, ink) ?? colour;
    if (c) growByColour(img, z, ink, c, zones);
    for (const i of ink.at) if (!glyphs[i]) ((glyphs[i] = 1), added++);
    return ink;
  });
  if (!added) return 0;
  const hole = glyphs.slice();
  zones.forEach((z) =>
    dilate(glyphs, hole, width, rectOf({ x: z.x0, y: z.y0, w: z.x1 - z.x0, h: z.y1 - z.y0 }, halo, width, height), halo),
  );
  for (let i = 0; i < hole.length; i++) if (hole[i]) mask[i] = 1;
  zones.forEach((z, k) => {
    const lh = words[k]!.box.h;
    const textured = inks[k]!.texture > TEXTURED;
    const area = rectOf({ x: z.x0, y: z.y0, w: z.x1 - z.x0, h: z.y1 - z.y0 }, lh, width, height);
    fillHoles(img, hole, area, textured ? Math.min(6, Math.max(3, Math.round(lh * 0.08))) : 3, guide, textured);
  });
  return added;
}
