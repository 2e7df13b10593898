import type { InputFormat } from "../../shared/engine-contract";
import { engineError } from "../errors";
import { MAX_PHOTON_PIXELS } from "../memory";
import { rgbaToGray, type GrayImage } from "./gray";
import { probeRaster } from "./headers";
import { decodedJpegSize, decodeLargeJpeg } from "./jpeg-scaled";
import { applyOrientation, jpegOrientation } from "./orientation";
import { decodeWithPhoton } from "./photon";
import { decodePngToGray } from "./png";
import { decodePnm } from "./pnm";
import { decodeTiffPage } from "./tiff";

/**
 * Decodes one page of a raster image (TIFF: any page; other formats: page 0) to 8-bit gray.
 * Dimensions are checked from the headers first (decompression-bomb guard), so no pixels are
 * allocated for an oversize image; a JPEG above MAX_PHOTON_PIXELS comes out at the largest N/8 of its
 * size within it (`decodedJpegSize`). JPEG EXIF and TIFF Orientation tags are applied, so the
 * result is upright as the camera or scanner meant it. PDF pages are read by pdf/source-page.ts.
 */
export async function decodeToGray(bytes: Uint8Array, format: Exclude<InputFormat, "pdf">, page = 0): Promise<GrayImage> {
  if (format === "tiff") return decodeTiffPage(bytes, page);
  if (page !== 0)
    throw engineError("validation_error", `Page ${page} does not exist: a ${format.toUpperCase()} image has a single page (index 0).`);
  if (format === "pnm") return decodePnm(bytes);
  const probe = probeRaster(bytes, format);
  // A JPEG above photon's limit is decoded at a smaller size (jpeg-scaled.ts).
  const large = format === "jpeg" && probe.width * probe.height > MAX_PHOTON_PIXELS;
  let gray: GrayImage | null = format === "png" ? await decodePngToGray(bytes) : null;
  if (large) {
    const colour = decodeLargeJpeg(bytes, probe.width, probe.height);
    gray = rgbaToGray(colour.data, colour.width, colour.height);
  }
  gray ??= decodeWithPhoton(bytes, `${format.toUpperCase()} image`, probe.width * probe.height);
  const expected = large ? decodedJpegSize(probe.width, probe.height) : probe;
  if (gray.width !== expected.width || gray.height !== expected.height) {
    throw engineError(
      "corrupt_file",
      `The ${format.toUpperCase()} image decodes to ${gray.width}x${gray.height}, not the ${expected.width}x${expected.height} its header declares.`,
    );
  }
  // Cameras store photos as the sensor saw them and say in EXIF how to turn them upright.
  return format === "jpeg" ? applyOrientation(gray, jpegOrientation(bytes)) : gray;
}
