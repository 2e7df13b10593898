import type { Box, FlatPage, PageText, Quad, RegionText } from "../../shared/engine-contract";
import type { GrayImage } from "../image/gray";
import { boxOnPhoto, clampToPage, cornersOnPhoto, warpGray, type Corners, type Point } from "../image/perspective";
import { unionBox } from "../ocr/group-lines";
import { mapRegionBoxes } from "../ocr/page-text";

/**
 * A photographed picture's page as it is read: the page found lying in the photo
 * (`PageTransform.lying`, outlined in the source raster) resampled flat, at the picture's scale.
 * Its columns and lines run straight, as tesseract reads them; in the photo as taken a strong
 * perspective slants them and whole balloons were lost.
 */
export interface LyingPage {
  image: GrayImage;
  quad: Quad;
  /** What lies beyond the raster is its edge drawn on (`FlatPage.edge`). */
  edge?: boolean;
}

/** The flat page of `lying` out of the picture's gray `gray` (the source raster at `scale`). */
export function flattenLying(gray: GrayImage, lying: FlatPage, scale: number): LyingPage {
  const quad = lying.quad.map(([x, y]) => [x * scale, y * scale]) as Quad;
  const width = Math.max(1, Math.round(lying.width * Math.min(1, scale)));
  const height = Math.max(1, Math.round(lying.height * Math.min(1, scale)));
  const edge = !!lying.edge;
  return { image: warpGray(gray, quad, width, height, edge), quad, edge };
}

/**
 * Text read on a lying page, put back on the photo (`width` x `height`). Every box keeps its size,
 * upright and centred where the photo shows it (`boxOnPhoto`): the box around a slanted title
 * reaches into the panel below it, and a translation's size follows its lines' height, which the
 * box around a slanted line overstates. (Text removal finds the blocks on the flat page again,
 * `inpaint/erase-lying.ts`.) A balloon's interior (`frame`, where a translation is set) becomes the
 * upright box within its corners, widened to the text's own box: on a page seen at a slant the box
 * within a frame is far smaller than the frame, and a translation set in it was cut off. The shape
 * it is set to follows the balloon's outline row by row (`balloon-shape.ts`).
 */
export function textOnPhoto(text: PageText, page: LyingPage, width: number, height: number): PageText {
  const { quad, image } = page;
  const alike = (b: Box): Box => clampToPage(boxOnPhoto(quad, image.width, image.height, b), width, height);
  const within = (b: Box): Box => {
    const [tl, tr, br, bl] = cornersOnPhoto(quad, image.width, image.height, b);
    const x = Math.max(tl.x, bl.x);
    const y = Math.max(tl.y, tr.y);
    return clampToPage({ x, y, w: Math.min(tr.x, br.x) - x, h: Math.min(bl.y, br.y) - y }, width, height);
  };
  const union = (a: Box, b: Box): Box => clampToPage(unionBox(a, b), width, height);
  // A frame the photo shows turned is set turned: the box around its corners, and its turn (with
  // the turn its lettering was drawn at on the page, `drawn`).
  const frameOf = (frame: Box, box: Box, drawn = 0): Pick<RegionText, "frame" | "angle"> => {
    const corners = cornersOnPhoto(quad, image.width, image.height, frame);
    const slant = slantOf(corners);
    const angle = Math.round((slant + drawn) * 10) / 10;
    const upright = Math.abs(slant) < LEAST_SLANT;
    return { frame: union(upright ? within(frame) : around(corners), alike(box)), ...(Math.abs(angle) >= LEAST_SLANT ? { angle } : {}) };
  };
  return {
    ...text,
    width,
    height,
    regions: mapRegionBoxes(text.regions, alike).map(({ angle, ...r }, i) => {
      const { frame, box } = text.regions[i]!;
      if (frame) return { ...r, ...frameOf(frame, box, angle) };
      return angle === undefined ? r : { ...r, angle };
    }),
  };
}

/** Slants (degrees) below this are set upright: the frame's margin takes them. */
const LEAST_SLANT = 1;

/** How far (degrees clockwise, to a tenth) a frame's top and bottom edges run turned in the photo, on average. */
function slantOf([tl, tr, br, bl]: Corners): number {
  const top = Math.atan2(tr.y - tl.y, tr.x - tl.x);
  const bottom = Math.atan2(br.y - bl.y, br.x - bl.x);
  return Math.round(((top + bottom) / 2) * (1800 / Math.PI)) / 10;
}

/** The upright box around points. */
function around(points: Point[]): Box {
  const x = Math.min(...points.map((p) => p.x));
  const y = Math.min(...points.map((p) => p.y));
  return { x, y, w: Math.max(...points.map((p) => p.x)) - x, h: Math.max(...points.map((p) => p.y)) - y };
}
