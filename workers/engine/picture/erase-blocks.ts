import type { Box, TextStyle } from "../../shared/engine-contract";
import type { GrayImage } from "../image/gray";
import { findTextBlocks } from "./text-blocks";

/** An RGBA raster (4 bytes a pixel), as the clean plate is made on. */
interface Rgba {
  width: number;
  height: number;
  data: Uint8Array;
}

export interface ErasedBlock {
  /** Pixels removed. */
  masked: number;
  style: TextStyle;
}

/** Pixels the marks' mask grows by around each mark: their anti-aliased and printed edges. */
const HALO = 2;

const hex = (v: number) => Math.round(v).toString(16).padStart(2, "0");

function medianOf(values: number[]): number {
  if (!values.length) return 0;
  values.sort((a, b) => a - b);
  return values[values.length >> 1]!;
}

const overlaps = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * Removes the text of a picture's regions where it lies in text blocks (`findTextBlocks`): each
 * block's marks, grown by their edge, are painted over with its ground's own colour (the median of
 * the ground around the text): a balloon or caption becomes a clean flat fill and no stroke of the
 * lettering is left. Returns, per region, what was removed (null where no block lies under it:
 * such a region is left to the document eraser) and the lettering's colour. `mask` gets 1 where
 * pixels were removed.
 */
export function erasePictureText(img: Rgba, gray: GrayImage, regions: { box: Box }[], mask: Uint8Array): (ErasedBlock | null)[] {
  const found = findTextBlocks(gray);
  const { owner, scale, width: AW, height: AH } = found;
  const { width, height, data } = img;
  return regions.map((region) => {
    const ids = found.blocks.map((b, i) => (overlaps(b.box, region.box) ? i + 1 : 0)).filter(Boolean);
    if (!ids.length) return null;
    const mine = new Set(ids);
    const box = ids
      .map((id) => found.blocks[id - 1]!.frame)
      .reduce((u, f) => {
        const x = Math.min(u.x, f.x),
          y = Math.min(u.y, f.y);
        return { x, y, w: Math.max(u.x + u.w, f.x + f.w) - x, h: Math.max(u.y + u.h, f.y + f.h) - y };
      });
    const x0 = Math.max(0, box.x - HALO),
      y0 = Math.max(0, box.y - HALO);
    const x1 = Math.min(width, box.x + box.w + HALO),
      y1 = Math.min(height, box.y + box.h + HALO);
    // A page pixel is text when an analysis pixel within the halo of it is a mark of one of the blocks.
    const reach = Math.max(1, Math.ceil(HALO * scale));
    const isText = (x: number, y: number) => {
      const ax = Math.floor(x * scale),
        ay = Math.floor(y * scale);
      for (let dy = -reach; dy <= reach; dy++)
        for (let dx = -reach; dx <= reach; dx++) {
          const u = ax + dx,
            v = ay + dy;
          if (u >= 0 && v >= 0 && u < AW && v < AH && mine.has(owner[v * AW + u]!)) return true;
        }
      return false;
    };
    const text: number[] = [];
    const ground: [number[], number[], number[]] = [[], [], []];
    const ink: [number[], number[], number[]] = [[], [], []];
    for (let y = y0; y < y1; y++)
      for (let x = x0; x < x1; x++) {
        const i = y * width + x;
        const p = i * 4;
        if (isText(x, y)) {
          text.push(i);
          // The lettering's colour: its darkest third.
          if (gray.data[i]! < 100) for (let c = 0; c < 3; c++) ink[c]!.push(data[p + c]!);
        } else if (gray.data[i]! >= 140) for (let c = 0; c < 3; c++) ground[c]!.push(data[p + c]!);
      }
    const fill = ground.map(medianOf);
    for (const i of text) {
      const p = i * 4;
      data[p] = fill[0]!;
      data[p + 1] = fill[1]!;
      data[p + 2] = fill[2]!;
      mask[i] = 1;
    }
    const colour = ink[0]!.length ? `#${ink.map((c) => hex(medianOf(c))).join("")}` : "#000000";
    return { masked: text.length, style: { color: colour, align: "center" } };
  });
}
