import { PhotonImage } from "@cf-wasm/photon";
import type { InputFormat } from "../contract";
import { engineError, isEngineError } from "../errors";
import { rgbaToGray, type GrayImage } from "./gray";
import { probeRaster } from "./headers";
import { decodePngToGray } from "./png";
import { decodeTiffPage } from "./tiff";
import { releaseEngines } from "../ocr/tesseract";

/** Above this many pixels, cached OCR engines are dropped before a photon decode (see limits.ts). */
const PHOTON_ROOMY_PIXELS = 4_000_000;

/** Decodes with photon (image-rs in wasm), copying the pixels out and freeing the wasm image at once. */
function decodeWithPhoton(bytes: Uint8Array, format: InputFormat): GrayImage {
  let img: PhotonImage | undefined;
  try {
    img = PhotonImage.new_from_byteslice(bytes);
    const width = img.get_width();
    const height = img.get_height();
    const rgba = img.get_raw_pixels();
    img.free();
    img = undefined;
    if (rgba.length < width * height * 4) throw new Error("short pixel buffer");
    return rgbaToGray(rgba, width, height);
  } catch (err) {
    if (isEngineError(err)) throw err;
    throw engineError("corrupt_file", `The ${format.toUpperCase()} image could not be decoded: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    try {
      img?.free();
    } catch {
      // already freed or the wasm instance trapped; nothing more to release
    }
  }
}

/**
 * Decodes one page of a raster image (TIFF: any page; other formats: page 0) to 8-bit gray.
 * Dimensions are checked from the headers first (decompression-bomb guard), so no pixels are
 * allocated for an oversize image. PDF pages are read by pdf/source-page.ts.
 */
export async function decodeToGray(bytes: Uint8Array, format: Exclude<InputFormat, "pdf">, page = 0): Promise<GrayImage> {
  if (format === "tiff") return decodeTiffPage(bytes, page);
  if (page !== 0) throw engineError("validation_error", `Page ${page} does not exist: a ${format.toUpperCase()} image has a single page (index 0).`);
  const probe = probeRaster(bytes, format);
  let gray: GrayImage | null = format === "png" ? await decodePngToGray(bytes) : null;
  if (!gray) {
    if (probe.width * probe.height > PHOTON_ROOMY_PIXELS) releaseEngines();
    gray = decodeWithPhoton(bytes, format);
  }
  if (gray.width !== probe.width || gray.height !== probe.height) {
    throw engineError("corrupt_file", `The ${format.toUpperCase()} image decodes to ${gray.width}x${gray.height}, not the ${probe.width}x${probe.height} its header declares.`);
  }
  return gray;
}
