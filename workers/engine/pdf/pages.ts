import { engineError } from "../errors";
import { pdfLibDocument, withPdf } from "./document";

/**
 * Page count of a PDF: truncated or unparsable files are `[corrupt_file]`, password-protected ones
 * `[encrypted_document]`. pdf-lib counts quickly; encrypted files (an empty user password opens
 * them) and files it cannot parse are counted by pdf.js, which decrypts and repairs.
 */
export async function pdfPageCount(bytes: Uint8Array): Promise<number> {
  const tail = new TextDecoder("latin1").decode(bytes.subarray(Math.max(0, bytes.length - 2048)));
  if (!tail.includes("%%EOF")) throw engineError("corrupt_file", "The PDF file is truncated or corrupt: no end-of-file marker.");
  let pages = 0;
  try {
    const doc = await pdfLibDocument(bytes);
    if (!doc.isEncrypted) pages = doc.getPageCount();
  } catch {
    // pdf.js decides below: it reads more damaged files than pdf-lib, and says why it cannot.
  }
  if (pages === 0) {
    pages = await withPdf(bytes, async (doc) => doc.numPages);
  }
  if (pages < 1) throw engineError("corrupt_file", "The PDF file has no pages.");
  return pages;
}
