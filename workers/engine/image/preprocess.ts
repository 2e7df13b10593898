import type { InputFormat, PreprocessResult } from "../contract";
import { engineError } from "../errors";
import { decodeToGray } from "./decode";
import { downscaleGray, type GrayImage } from "./gray";
import { fitScale, MAX_PAGE_SIDE } from "./limits";
import { encodeGrayPng } from "./png";

export interface NormalisedPage {
  image: GrayImage;
  png: Uint8Array;
  rotation: PreprocessResult["rotation"];
}

/**
 * Normalises one page for OCR: decode, grayscale, scale down so the longest side is at most
 * MAX_PAGE_SIDE, encode as an 8-bit gray PNG.
 */
export async function normalisePage(bytes: Uint8Array, format: InputFormat, page: number): Promise<NormalisedPage> {
  if (format !== "pdf" && format !== "tiff" && page !== 0) {
    throw engineError("validation_error", `Page ${page} does not exist: a ${format.toUpperCase()} image has a single page (index 0).`);
  }
  const decoded = await decodeToGray(bytes, format);
  const image = downscaleGray(decoded, fitScale(decoded.width, decoded.height, MAX_PAGE_SIDE));
  const png = await encodeGrayPng(image);
  return { image, png, rotation: 0 };
}
