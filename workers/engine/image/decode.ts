import type { InputFormat } from "../../shared/engine-contract";
import { engineError } from "../errors";
import { MAX_PHOTON_PIXELS } from "../memory";
import { isColourless, rgbaToGray, type GrayImage } from "./gray";
import { probeRaster } from "./headers";
import { decodedJpegSize, decodeLargeJpeg } from "./jpeg-scaled";
import { applyOrientation, jpegOrientation } from "./orientation";
import { decodeGrayWithPhoton } from "./photon";
import { decodePngToGray, isOpaqueGrayPng } from "./png";
import { decodePnm } from "./pnm";
import { decodeTiffPage } from "./tiff";

/** A decoded page: its gray, and whether the upload holds no colour at all, so that its gray is its own colours. */
export interface DecodedPage {
  image: GrayImage;
  colourless: boolean;
}

/**
 * Decodes one page of a raster image (TIFF: any page; other formats: page 0) to 8-bit gray.
 * Dimensions are checked from the headers first (decompression-bomb guard), so no pixels are
 * allocated for an oversize image; a JPEG above MAX_PHOTON_PIXELS comes out at the largest N/8 of its
 * size within it (`decodedJpegSize`). JPEG EXIF and TIFF Orientation tags are applied, so the
 * result is upright as the camera or scanner meant it. PDF pages are read by pdf/source-page.ts.
 */
export async function decodeToGray(bytes: Uint8Array, format: Exclude<InputFormat, "pdf">, page = 0): Promise<GrayImage> {
  return (await decodePage(bytes, format, page)).image;
}

/**
 * `decodeToGray`, also saying whether the upload is colourless: an 8-bit gray PNG, or an image
 * whose decoded pixels are all opaque grays (a gray JPEG stored in colour). Scanners' formats
 * (TIFF, PBM/PGM/PPM) are not looked at for it.
 */
export async function decodePage(bytes: Uint8Array, format: Exclude<InputFormat, "pdf">, page = 0): Promise<DecodedPage> {
  if (format === "tiff") return { image: await decodeTiffPage(bytes, page), colourless: false };
  if (page !== 0)
    throw engineError("validation_error", `Page ${page} does not exist: a ${format.toUpperCase()} image has a single page (index 0).`);
  if (format === "pnm") return { image: decodePnm(bytes), colourless: false };
  const probe = probeRaster(bytes, format);
  // A JPEG above photon's limit is decoded at a smaller size (jpeg-scaled.ts).
  const large = format === "jpeg" && probe.width * probe.height > MAX_PHOTON_PIXELS;
  const png = format === "png" ? await decodePngToGray(bytes) : null;
  // 16-bit and interlaced PNGs are photon's, which holds them as RGBA: only within its limit.
  if (format === "png" && !png && probe.width * probe.height > MAX_PHOTON_PIXELS)
    throw engineError(
      "image_too_large",
      `The PNG image (${probe.width}x${probe.height}) is 16-bit or interlaced, which is read up to ${MAX_PHOTON_PIXELS / 1e6} MP; saved as an 8-bit, non-interlaced PNG it is read up to the PNG limit.`,
    );
  let decoded: DecodedPage | null = png && { image: png, colourless: isOpaqueGrayPng(bytes) };
  if (large) {
    const colour = decodeLargeJpeg(bytes, probe.width, probe.height);
    decoded = { image: rgbaToGray(colour.data, colour.width, colour.height), colourless: isColourless(colour.data) };
  }
  decoded ??= decodeGrayWithPhoton(bytes, `${format.toUpperCase()} image`, probe.width * probe.height);
  const { image: gray, colourless } = decoded;
  const expected = large ? decodedJpegSize(probe.width, probe.height) : probe;
  if (gray.width !== expected.width || gray.height !== expected.height) {
    throw engineError(
      "corrupt_file",
      `The ${format.toUpperCase()} image decodes to ${gray.width}x${gray.height}, not the ${expected.width}x${expected.height} its header declares.`,
    );
  }
  // Cameras store photos as the sensor saw them and say in EXIF how to turn them upright.
  return { image: format === "jpeg" ? applyOrientation(gray, jpegOrientation(bytes)) : gray, colourless };
}
