import { PhotonImage } from "@cf-wasm/photon";
import type { InputFormat } from "../contract";
import { engineError, isEngineError } from "../errors";
import { rgbaToGray, type GrayImage } from "./gray";
import { probeRaster } from "./headers";
import { decodePngToGray } from "./png";

/** Raster formats this engine decodes to pixels today (TIFF and PDF pages are handled elsewhere). */
export const DECODABLE: ReadonlySet<InputFormat> = new Set(["png", "jpeg", "webp", "gif", "bmp"]);

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
 * Decodes one raster image to 8-bit gray. Dimensions are checked from the headers first
 * (decompression-bomb guard), so no pixels are allocated for an oversize image.
 */
export async function decodeToGray(bytes: Uint8Array, format: InputFormat): Promise<GrayImage> {
  if (format === "tiff") {
    throw engineError("unsupported_media_type", "TIFF pages cannot be decoded by the engine yet; convert the file to PNG or PDF.");
  }
  if (format === "pdf") {
    throw engineError("unsupported_media_type", "PDF pages cannot be rasterised by the engine yet; upload page images instead.");
  }
  const probe = probeRaster(bytes, format);
  const gray = format === "png" ? ((await decodePngToGray(bytes)) ?? decodeWithPhoton(bytes, format)) : decodeWithPhoton(bytes, format);
  if (gray.width !== probe.width || gray.height !== probe.height) {
    throw engineError("corrupt_file", `The ${format.toUpperCase()} image decodes to ${gray.width}x${gray.height}, not the ${probe.width}x${probe.height} its header declares.`);
  }
  return gray;
}
