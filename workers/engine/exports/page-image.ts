import type { ExportPage } from "../../shared/engine-contract";
import { enlargedRgbRows } from "../image/enlarge";
import { encodeJpegRows } from "../image/jpeg-encode";
import { encodeEnlargedRgbPng } from "../image/png";
import { decodeRgba, JPEG_QUALITY, transcode, type ImageEncoding } from "../inpaint/rgba";
import { readPageMeta } from "../storage/page-meta";
import { readBytes } from "../storage/r2";

/** The size a picture's upload had, when its page image is smaller (read within 9 MP); null otherwise. */
async function uploadSizeOf(files: R2Bucket, imageKey: string): Promise<{ width: number; height: number } | null> {
  const meta = await readPageMeta(files, imageKey);
  const t = meta.transform;
  if (meta.path !== "picture" || !t) return null;
  return t.original ?? { width: t.sourceWidth, height: t.sourceHeight };
}

/**
 * A page's image export: its rendered page (translated or erased), else its page image, in the
 * asked encoding. A picture read smaller than its upload (above 9 MP) comes back at the upload's
 * size as PNG or JPEG, enlarged band by band while it is encoded; as WebP it keeps the size it was
 * read at (photon, which encodes WebP, holds at most 9 MP).
 */
export async function pageImageFile(files: R2Bucket, page: ExportPage, key: string, format: ImageEncoding): Promise<Uint8Array> {
  const bytes = await readBytes(files, key, "rendered page");
  const size = format !== "webp" && page.imageKey ? await uploadSizeOf(files, page.imageKey) : null;
  if (size) {
    const img = decodeRgba(bytes, "rendered page");
    if (size.width > img.width && size.height > img.height)
      return format === "png"
        ? encodeEnlargedRgbPng(img, size.width, size.height)
        : encodeJpegRows(size.width, size.height, enlargedRgbRows(img, size.width, size.height), JPEG_QUALITY);
  }
  return transcode(bytes, format, "rendered page");
}
