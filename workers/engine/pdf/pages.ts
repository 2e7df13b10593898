import { PDFDocument } from "pdf-lib";
import { engineError } from "../errors";

/** Page count of a PDF; truncated or unparsable files are `[corrupt_file]`. */
export async function pdfPageCount(bytes: Uint8Array): Promise<number> {
  const tail = new TextDecoder("latin1").decode(bytes.subarray(Math.max(0, bytes.length - 2048)));
  if (!tail.includes("%%EOF")) throw engineError("corrupt_file", "The PDF file is truncated or corrupt: no end-of-file marker.");
  let pages: number;
  try {
    const doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false });
    pages = doc.getPageCount();
  } catch (err) {
    throw engineError("corrupt_file", `The PDF file is corrupt: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (pages < 1) throw engineError("corrupt_file", "The PDF file has no pages.");
  return pages;
}
