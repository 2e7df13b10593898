import type { Box, TextStyle } from "../../shared/engine-contract";
import { luma, type GrayImage } from "../image/gray";
import { boxesMeet, unionBox } from "../ocr/group-lines";
import { GRAIN, groundColour, medianOf } from "./ground-plane";
import { nearMarks } from "./near-marks";
import { findLettering, foundOnPage } from "./small-lettering";

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
/**
 * Letter heights around a region's box its blocks' marks are erased within: the rest of a balloon's
 * lettering that was not read (the "THE…?" of "WHAT THE…?") lies a line or two from what was.
 */
const REACH = 2;
/** Pixels around the marks where, inside a balloon, what is darker than the ground is the lettering's fringe. */
const FRINGE = 6;

/** Share of a region's box its blocks' boxes cover at least for the region to be theirs. */
const MIN_COVER = 0.25;

const area = (b: Box) => b.w * b.h;

const hex = (v: number) => Math.round(v).toString(16).padStart(2, "0");

const holds = (a: Box, x: number, y: number) => x >= a.x && y >= a.y && x < a.x + a.w && y < a.y + a.h;

/**
 * Whether a text block is the region's: its centre lies in the region's box, or the region's centre
 * in the block's frame (a region read from part of its block) while the block's marks reach into the
 * region's box. A block that only touches the region's box (art beside a balloon, taken for marks) is
 * not; nor is art elsewhere in the panel that frames the region (its frame, the panel, holds the
 * region's centre: a photographed page's drawings were erased for a balloon's text).
 */
const blockOf = (block: { box: Box; frame: Box }, region: Box) =>
  holds(region, block.box.x + block.box.w / 2, block.box.y + block.box.h / 2) ||
  (boxesMeet(block.box, region) && holds(block.frame, region.x + region.w / 2, region.y + region.h / 2));

/**
 * Removes the text of a picture's regions where it lies in text blocks, found as its reading in
 * `languages` found them (`findLettering`): each block's marks, grown by their edge, are painted
 * over with its ground's own colour (the median of the ground around the text; where the light
 * falls unevenly across it, that colour as it varies, `groundColour`): a balloon or caption becomes
 * a clean fill and no stroke of the lettering is left. Returns, per region, what was removed (null
 * where no block lies under it, or blocks cover little of it (`MIN_COVER`): such a region, light
 * lettering among them, is left to the document eraser) and the lettering's colour. `mask` gets 1
 * where pixels were removed.
 */
export function erasePictureText(
  img: Rgba,
  gray: GrayImage,
  regions: { box: Box; frame?: Box }[],
  mask: Uint8Array,
  languages: string[],
): (ErasedBlock | null)[] {
  const lettering = findLettering(gray, languages);
  const found = foundOnPage(lettering.found, lettering.factor);
  const { owner, shapes, scale, width: AW, height: AH } = found;
  const { width, height, data } = img;
  const plans = regions.map((region) => {
    const ids = found.blocks.map((b, i) => (blockOf(b, region.box) ? i + 1 : 0)).filter(Boolean);
    // Blocks covering a small part of the region are no lettering of it: the counters of light
    // letters (an "A", a "D" in white type) are dark marks on a light ground too.
    const covered = ids.reduce((n, id) => n + area(found.blocks[id - 1]!.box), 0);
    if (!ids.length || covered < MIN_COVER * area(region.box)) return null;
    const mine = new Set(ids);
    const box = ids
      .map((id) => found.blocks[id - 1]!.frame)
      .reduce((u, f) => {
        const x = Math.min(u.x, f.x),
          y = Math.min(u.y, f.y);
        return { x, y, w: Math.max(u.x + u.w, f.x + f.w) - x, h: Math.max(u.y + u.h, f.y + f.h) - y };
      });
    // Only near what was read: within REACH letters of the region's box. A few marks in a drawing
    // read as text ("けり上 1 し" in a face) are no licence to erase the whole block around them:
    // the 4-koma's two faces were wiped.
    const grow = REACH * Math.max(...ids.map((id) => found.blocks[id - 1]!.glyph));
    // Nor past the region's own frame (or its box, where a user drew it wider), where it is given: a
    // region read from part of a larger block (a headline on a held-up newspaper, read turned level)
    // erases its own lettering, not the block's other lines around it.
    const f = region.frame ? unionBox(region.frame, region.box) : { x: 0, y: 0, w: width, h: height };
    const x0 = Math.max(0, box.x - HALO, Math.floor(region.box.x - grow), Math.floor(f.x) - HALO),
      y0 = Math.max(0, box.y - HALO, Math.floor(region.box.y - grow), Math.floor(f.y) - HALO);
    const x1 = Math.min(width, box.x + box.w + HALO, Math.ceil(region.box.x + region.box.w + grow), Math.ceil(f.x + f.w) + HALO),
      y1 = Math.min(height, box.y + box.h + HALO, Math.ceil(region.box.y + region.box.h + grow), Math.ceil(f.y + f.h) + HALO);
    // A page pixel is text when an analysis pixel within the halo of it is a mark of one of the
    // blocks; it is near text within the wider reach of the marks' faint fringe.
    const reach = Math.max(1, Math.ceil(HALO * scale));
    const near = nearMarks(owner, AW, AH, mine, box, scale, reach, Math.max(reach + 1, Math.ceil(FRINGE * scale)));
    // Within the halo, ink of a larger shape that is no block's mark (a balloon's outline, a caption's
    // border its letters ran into) stays: only the lettering goes.
    const level = (x: number, y: number) => {
      const ax = Math.floor(x * scale),
        ay = Math.floor(y * scale);
      const a = ay * AW + ax;
      if (shapes[a] && !owner[a]) return 0;
      const u = ax - near.x0;
      return u >= 0 && u < near.w ? (near.at[(ay - near.y0) * near.w + u] ?? 0) : 0;
    };
    const frames = ids.map((id) => found.blocks[id - 1]!.frame);
    const framed = (x: number, y: number) => frames.some((f) => x >= f.x && y >= f.y && x < f.x + f.w && y < f.y + f.h);
    return { box, x0, y0, x1, y1, level, framed };
  });
  // The lettering's colour, its darkest third, taken before any region's pixels are painted over:
  // a region erased first may reach into the next one's lettering (a newspaper held up over a
  // caption), and the painted pixels would pass their ground's colour on as the ink's.
  const colours = plans.map((plan) => {
    if (!plan) return null;
    const ink: number[] = [];
    for (let y = plan.y0; y < plan.y1; y++)
      for (let x = plan.x0; x < plan.x1; x++) {
        const i = y * width + x;
        if (gray.data[i]! < 100 && plan.level(x, y) === 2) ink.push(i);
      }
    return ink.length ? `#${[0, 1, 2].map((c) => hex(medianOf(ink, data, c))).join("")}` : "#000000";
  });
  return plans.map((plan, k) => {
    if (!plan) return null;
    const { box, x0, y0, x1, y1, level, framed } = plan;
    const text: number[] = [];
    const fringe: number[] = [];
    const ground: number[] = [];
    for (let y = y0; y < y1; y++)
      for (let x = x0; x < x1; x++) {
        const i = y * width + x;
        const l = level(x, y);
        if (l === 2) {
          text.push(i);
          continue;
        }
        if (l === 1 && framed(x, y)) fringe.push(i);
        if (gray.data[i]! >= 140) ground.push(i);
      }
    const fill = groundColour(img, ground, box);
    const at = (i: number) => fill(i % width, Math.floor(i / width));
    // Inside the balloon, the lettering's faint fringe (anti-aliasing, JPEG ringing) goes too: any
    // pixel near the marks that is darker than the ground by more than its grain.
    for (const i of fringe) if (gray.data[i]! < luma(...at(i)) - GRAIN) text.push(i);
    for (const i of text) {
      const p = i * 4;
      [data[p], data[p + 1], data[p + 2]] = at(i);
      mask[i] = 1;
    }
    return { masked: text.length, style: { color: colours[k]!, align: "center" } };
  });
}
