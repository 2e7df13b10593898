import type { PageTransform } from "../../shared/engine-contract";
import type { GrayImage } from "../image/gray";
import { evenOutPictureLight, evenOutShading } from "../image/shading";

/**
 * A picture's gray as its text is found, read and erased: a photographed picture whose page lay in
 * uneven light (`PageTransform.shading`) has that light evened out, as a photographed document's
 * page image has (on its page made flat), or, with no page found in the photo, as a picture's light
 * is (`evenOutPictureLight`). Its page image, and so its exports, keep the photo's own pixels.
 */
export function pictureGray(gray: GrayImage, transform: PageTransform | null): GrayImage {
  if (!transform?.shading) return gray;
  return (transform.lying ? evenOutShading(gray) : evenOutPictureLight(gray)) ?? gray;
}
