import { PhotonImage } from "@cf-wasm/photon";
import { engineError, isEngineError } from "../errors";
import { makeRoomFor } from "../memory";
import { isColourless, rgbaToGray, type GrayImage, type RgbaImage } from "./gray";

/**
 * Decodes with photon (image-rs in wasm), copying the pixels out and freeing the wasm image at once.
 * `pixels` is the size its header declares, already checked against MAX_PHOTON_PIXELS.
 */
export function decodeWithPhoton(bytes: Uint8Array, what: string, pixels: number): GrayImage {
  return decodeGrayWithPhoton(bytes, what, pixels).image;
}

/** `decodeWithPhoton`, also saying whether the image holds no colour at all (`isColourless`). */
export function decodeGrayWithPhoton(bytes: Uint8Array, what: string, pixels: number): { image: GrayImage; colourless: boolean } {
  const { width, height, data } = decodeRgbaWithPhoton(bytes, what, pixels);
  return { image: rgbaToGray(data, width, height), colourless: isColourless(data) };
}

/** `decodeWithPhoton` in colour: the image's RGBA pixels. */
export function decodeRgbaWithPhoton(bytes: Uint8Array, what: string, pixels: number): RgbaImage {
  makeRoomFor(pixels);
  let img: PhotonImage | undefined;
  try {
    img = PhotonImage.new_from_byteslice(bytes);
    const width = img.get_width();
    const height = img.get_height();
    const data = img.get_raw_pixels();
    img.free();
    img = undefined;
    if (data.length < width * height * 4) throw new Error("short pixel buffer");
    return { width, height, data };
  } catch (err) {
    if (isEngineError(err)) throw err;
    throw engineError("corrupt_file", `The ${what} could not be decoded: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    try {
      img?.free();
    } catch {
      // already freed or the wasm instance trapped; nothing more to release
    }
  }
}
