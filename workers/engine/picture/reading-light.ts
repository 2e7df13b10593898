import type { PageTransform } from "../../shared/engine-contract";
import type { GrayImage } from "../image/gray";
import { evenOutShading } from "../image/shading";

/**
 * A picture's gray as its text is found, read and erased: a photographed picture whose page lay in
 * uneven light (`PageTransform.shading`) has that light evened out, as a photographed document's
 * page image has. Its page image, and so its exports, keep the photo's own pixels.
 */
export function pictureGray(gray: GrayImage, transform: PageTransform | null): GrayImage {
  return (transform?.shading && evenOutShading(gray)) || gray;
}
