import type { RgbaImage } from "../image/gray";
import { pageSize, withPage, withPdf } from "./document";
import { composePageColour } from "./page-compose";

/**
 * Page `page` of a PDF in colour, `width` pixels across: its images composed in colour as
 * `pdfSourcePage` composes them in gray (a scanned comic page is its image). Null when the page
 * draws no image.
 */
export async function pdfPageColour(bytes: Uint8Array, page: number, width: number): Promise<RgbaImage | null> {
  return withPdf(bytes, (doc) =>
    withPage(doc, page, async (p) => composePageColour(p, await p.getOperatorList(), width / pageSize(p).width)),
  );
}
