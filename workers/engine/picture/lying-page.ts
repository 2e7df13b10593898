import type { Box, FlatPage, PageText, Quad } from "../../shared/engine-contract";
import type { GrayImage } from "../image/gray";
import { flatToQuad, squareToQuad, warpGray } from "../image/perspective";

/**
 * A photographed picture's page as it is read: the page found lying in the photo
 * (`PageTransform.lying`, outlined in the source raster) resampled flat, at the picture's scale.
 * Its columns and lines run straight, as tesseract reads them; in the photo as taken a strong
 * perspective slants them and whole balloons were lost.
 */
export interface LyingPage {
  image: GrayImage;
  quad: Quad;
}

type Point = { x: number; y: number };

/** The flat page of `lying` out of the picture's gray `gray` (the source raster at `scale`). */
export function flattenLying(gray: GrayImage, lying: FlatPage, scale: number): LyingPage {
  const quad = lying.quad.map(([x, y]) => [x * scale, y * scale]) as Quad;
  const width = Math.max(1, Math.round(lying.width * Math.min(1, scale)));
  const height = Math.max(1, Math.round(lying.height * Math.min(1, scale)));
  return { image: warpGray(gray, quad, width, height), quad };
}

/**
 * Text read on a lying page, put back on the photo (`width` x `height`). Every box keeps its size,
 * upright and centred where the photo shows it: the box around a slanted title reaches into the
 * panel below it, and a translation's size follows its lines' height, which the box around a
 * slanted line overstates. (Text removal finds the blocks on the flat page again,
 * `inpaint/erase-lying.ts`.) A balloon's interior (`frame`, where a translation is set) becomes the
 * upright box within its corners, widened to the text's own box: on a page seen at a slant the box
 * within a frame is far smaller than the frame, and a translation set in it was cut off. The shape
 * it is set to follows the balloon's outline row by row (`balloon-shape.ts`).
 */
export function textOnPhoto(text: PageText, page: LyingPage, width: number, height: number): PageText {
  const m = squareToQuad(page.quad);
  const corners = (b: Box) =>
    [
      [b.x, b.y],
      [b.x + b.w, b.y],
      [b.x + b.w, b.y + b.h],
      [b.x, b.y + b.h],
    ].map(([x, y]) => flatToQuad(m, page.image.width, page.image.height, x!, y!)) as [Point, Point, Point, Point];
  const clamp = (x0: number, y0: number, x1: number, y1: number): Box => {
    const x = Math.max(0, Math.min(width, Math.round(x0)));
    const y = Math.max(0, Math.min(height, Math.round(y0)));
    return { x, y, w: Math.max(0, Math.min(width, Math.round(x1)) - x), h: Math.max(0, Math.min(height, Math.round(y1)) - y) };
  };
  const alike = (b: Box): Box => {
    const [tl, tr, br, bl] = corners(b);
    const w = (Math.hypot(tr.x - tl.x, tr.y - tl.y) + Math.hypot(br.x - bl.x, br.y - bl.y)) / 2;
    const h = (Math.hypot(bl.x - tl.x, bl.y - tl.y) + Math.hypot(br.x - tr.x, br.y - tr.y)) / 2;
    const cx = (tl.x + tr.x + br.x + bl.x) / 4;
    const cy = (tl.y + tr.y + br.y + bl.y) / 4;
    return clamp(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2);
  };
  const within = (b: Box): Box => {
    const [tl, tr, br, bl] = corners(b);
    return clamp(Math.max(tl.x, bl.x), Math.max(tl.y, tr.y), Math.min(tr.x, br.x), Math.min(bl.y, br.y));
  };
  const union = (a: Box, b: Box): Box =>
    clamp(Math.min(a.x, b.x), Math.min(a.y, b.y), Math.max(a.x + a.w, b.x + b.w), Math.max(a.y + a.h, b.y + b.h));
  return {
    ...text,
    width,
    height,
    regions: text.regions.map((r) => ({
      ...r,
      box: alike(r.box),
      ...(r.frame ? { frame: union(within(r.frame), alike(r.box)) } : {}),
      lines: r.lines.map((l) => ({ ...l, box: alike(l.box), words: l.words.map((w) => ({ ...w, box: alike(w.box) })) })),
    })),
  };
}
