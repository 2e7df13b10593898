import { PhotonImage } from "@cf-wasm/photon";
import { engineError, isEngineError } from "../errors";
import { rgbaToGray, type GrayImage } from "./gray";

/** Decodes with photon (image-rs in wasm), copying the pixels out and freeing the wasm image at once. */
export function decodeWithPhoton(bytes: Uint8Array, what: string): GrayImage {
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
    throw engineError("corrupt_file", `The ${what} could not be decoded: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    try {
      img?.free();
    } catch {
      // already freed or the wasm instance trapped; nothing more to release
    }
  }
}
