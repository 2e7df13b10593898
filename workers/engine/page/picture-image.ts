import type { InputFormat } from "../../shared/engine-contract";
import { isColourless, type GrayImage } from "../image/gray";
import { probeRaster } from "../image/headers";
import { decodeTiffPageRgba } from "../image/tiff";
import { applyOrientationRgba, jpegOrientation } from "../image/orientation";
import { encodeGrayPng } from "../image/png";
import { decodeRgba, encodeRgba, resizeRgba } from "../inpaint/rgba";
import { MAX_PHOTON_PIXELS } from "../memory";
import { pdfPageColour } from "../pdf/page-colour";

/** Raster formats whose colours photon decodes (a TIFF's, `decodeTiffPageRgba`). */
const COLOUR_FORMATS = new Set<InputFormat>(["png", "jpeg", "webp", "gif", "bmp"]);

/**
 * A picture's page image: the upload's own colours (EXIF orientation applied), at the size of its
 * gray reading copy `gray`, as PNG. A `colourless` upload (a gray manga page, even stored as a
 * colour JPEG) is its gray copy, stored as gray: it is not decoded a second time, and its PNG
 * holds a third of the bytes. A TIFF's page `page` is decoded in colour by the engine's own
 * decoder, a PDF page's images composed in colour at the gray copy's size. PBM/PGM/PPM, gray TIFF
 * and PDF pages and images too large to decode in colour keep the gray copy too.
 */
export async function pictureImagePng(
  bytes: Uint8Array,
  format: InputFormat,
  page: number,
  gray: GrayImage,
  colourless = false,
): Promise<Uint8Array> {
  if (format === "tiff") {
    const colour = await decodeTiffPageRgba(bytes, page);
    if (colour && sameShape(colour, gray)) return encodeRgba(resizeRgba(colour, gray.width, gray.height), "png");
  }
  if (format === "pdf") {
    const colour = await pdfPageColour(bytes, page, gray.width);
    if (colour && sameShape(colour, gray) && !isColourless(colour.data))
      return encodeRgba(resizeRgba(colour, gray.width, gray.height), "png");
  }
  if (!colourless && COLOUR_FORMATS.has(format)) {
    const probe = probeRaster(bytes, format as Exclude<InputFormat, "pdf">);
    if (format === "jpeg" || probe.width * probe.height <= MAX_PHOTON_PIXELS) {
      let colour = decodeRgba(bytes, "upload");
      if (format === "jpeg") colour = applyOrientationRgba(colour, jpegOrientation(bytes));
      if (sameShape(colour, gray)) return encodeRgba(resizeRgba(colour, gray.width, gray.height), "png");
    }
  }
  return encodeGrayPng(gray);
}

/** Whether two images have one shape (the colour decode and its gray reading copy, maybe scaled). */
function sameShape(a: { width: number; height: number }, b: { width: number; height: number }): boolean {
  return Math.abs(a.width / a.height - b.width / b.height) < 0.01;
}
