import type { Box, FlatPage, PageTransform } from "../../shared/engine-contract";
import type { GrayImage, RgbaImage } from "../image/gray";
import { boxOnFlat, quadToFlat, squareToQuad, warpRgba } from "../image/perspective";
import { erasePictureText, type ErasedBlock } from "../picture/erase-blocks";
import { flattenLying } from "../picture/lying-page";
import { pictureGray } from "../picture/reading-light";

/**
 * `erasePictureText` on a picture read on a page of its own (`outline`, `scan-skew.ts` `readingPage`:
 * the page lying in a photo, a scan's page turned level): its text blocks are found on that page
 * made flat, as they were when it was read, and erased there; the pixels erased are painted back
 * on the picture, which keeps its own pixels everywhere else. Found on the photo as taken, a
 * slanted balloon's column merged with the drawing beside it into one block, and the drawing was
 * erased with the text. `gray` is the picture's gray, `regions` are on the picture.
 */
export function eraseLyingText(
  img: RgbaImage,
  gray: GrayImage,
  transform: PageTransform,
  outline: FlatPage,
  regions: { box: Box }[],
  mask: Uint8Array,
  languages: string[],
): (ErasedBlock | null)[] {
  const page = flattenLying(gray, outline, transform.scale);
  const { width: fw, height: fh } = page.image;
  const flat = warpRgba(img, page.quad, fw, fh, page.edge);
  const m = squareToQuad(page.quad);
  const flatMask = new Uint8Array(fw * fh);
  const erased = erasePictureText(
    flat,
    pictureGray(page.image, transform),
    regions.map((r) => ({ box: boxOnFlat(page.quad, fw, fh, r.box) })),
    flatMask,
    languages,
  );
  // Each photo pixel within the page's outline takes the erased colour of the flat pixel it shows.
  const xs = page.quad.map(([x]) => x);
  const ys = page.quad.map(([, y]) => y);
  const { width, data } = img;
  for (let y = Math.max(0, Math.floor(Math.min(...ys))); y < Math.min(img.height, Math.ceil(Math.max(...ys))); y++)
    for (let x = Math.max(0, Math.floor(Math.min(...xs))); x < Math.min(width, Math.ceil(Math.max(...xs))); x++) {
      const p = quadToFlat(m, fw, fh, x, y);
      const fx = Math.round(p.x);
      const fy = Math.round(p.y);
      if (fx < 0 || fy < 0 || fx >= fw || fy >= fh || !flatMask[fy * fw + fx]) continue;
      const i = y * width + x;
      const f = (fy * fw + fx) * 4;
      for (let c = 0; c < 3; c++) data[i * 4 + c] = flat.data[f + c]!;
      mask[i] = 1;
    }
  return erased;
}
