import type { FlatPage, Quad } from "../../shared/engine-contract";
import type { GrayImage } from "../image/gray";
import { fitScale } from "../image/limits";
import { findPageOutline } from "../image/page-outline";
import { flatSize, warpGray } from "../image/perspective";

/**
 * A photographed page made flat: its outline found in the photo (`findPageOutline`) and the
 * quadrilateral within it resampled onto a rectangle of the page's proportions, at the photo's own
 * resolution within `maxSide`. Everything outside the page is left out. Null when the image shows
 * no page to straighten (a scan, a photo cropped square to its page).
 */
export function flattenPhoto(img: GrayImage, maxSide: number): { image: GrayImage; flat: FlatPage } | null {
  const found = findPageOutline(img);
  if (!found) return null;
  // Kept to a tenth of a pixel: the outline travels with the page image's record.
  const quad = found.map(([x, y]) => [Math.round(x * 10) / 10, Math.round(y * 10) / 10]) as Quad;
  const size = flatSize(quad, img.width, img.height);
  const fit = fitScale(size.width, size.height, maxSide);
  const width = Math.max(1, Math.round(size.width * fit));
  const height = Math.max(1, Math.round(size.height * fit));
  return { image: warpGray(img, quad, width, height), flat: { quad, width, height } };
}
