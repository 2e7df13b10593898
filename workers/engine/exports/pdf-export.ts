import {
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFOperator,
  PDFOperatorNames,
  PDFRef,
  PDFString,
  TextRenderingMode,
  beginText,
  endText,
  popGraphicsState,
  pushGraphicsState,
  setFontAndSize,
  setTextMatrix,
  setTextRenderingMode,
  showText,
} from "pdf-lib";
import type { ExportDocument, ExportPage, LineText } from "../../shared/engine-contract";
import { sniffFormat } from "../image/sniff";
import { pageResolution, readPageMeta } from "../storage/page-meta";
import { readBytes } from "../storage/r2";
import { type ExportContent, linesOf } from "./document";
import { transcode } from "../inpaint/rgba";
import { joinWords } from "../ocr/page-text";
import { textDirection } from "../../shared/text-direction";

/**
 * PDFs of page images with an invisible text layer. The layer is written with low-level text
 * operators: rendering mode 3 (invisible), one text object per line placed by its own matrix and
 * stretched by horizontal scaling to the line's width, in reading order. Text drawn through
 * pdf-lib's `drawText` with opacity 0 comes out of `pdftotext` in scrambled order; this does not.
 *
 * The font is a glyph-less Type0 font (Identity-H, 2-byte codes = UTF-16 code units, every code
 * 0.5 em wide) with a ToUnicode CMap mapping each code to itself: any script extracts exactly, and
 * no font program is embedded because nothing is ever painted with it.
 */

const TO_UNICODE = `/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
/CMapName /Adobe-Identity-UCS def
/CMapType 2 def
1 begincodespacerange
<0000> <FFFF>
endcodespacerange
1 beginbfrange
<0000> <FFFF> <0000>
endbfrange
endcmap
CMapName currentdict /CMap defineresource pop
end
end`;

function glyphlessFont(pdf: PDFDocument): PDFRef {
  const ctx = pdf.context;
  const toUnicode = ctx.register(ctx.flateStream(TO_UNICODE));
  const descriptor = ctx.register(
    ctx.obj({
      Type: "FontDescriptor",
      FontName: "GlyphLessFont",
      Flags: 5,
      FontBBox: [0, 0, 500, 1000],
      ItalicAngle: 0,
      Ascent: 1000,
      Descent: 0,
      CapHeight: 1000,
      StemV: 80,
    }),
  );
  const cid = ctx.register(
    ctx.obj({
      Type: "Font",
      Subtype: "CIDFontType2",
      BaseFont: "GlyphLessFont",
      CIDSystemInfo: { Registry: PDFString.of("Adobe"), Ordering: PDFString.of("Identity"), Supplement: 0 },
      FontDescriptor: descriptor,
      DW: 500,
      CIDToGIDMap: "Identity",
    }),
  );
  return ctx.register(
    ctx.obj({
      Type: "Font",
      Subtype: "Type0",
      BaseFont: "GlyphLessFont",
      Encoding: "Identity-H",
      DescendantFonts: [cid],
      ToUnicode: toUnicode,
    }),
  );
}

function utf16Hex(s: string): string {
  let hex = "";
  for (let i = 0; i < s.length; i++) hex += s.charCodeAt(i).toString(16).padStart(4, "0");
  return hex;
}

/**
 * Pixels per inch of a page image: its source's, where the engine knows it (a PDF page's drawing, a
 * scan's stated resolution), so the exported page has the original's size; else A4's long side
 * at 300 dpi is assumed, never below 72.
 */
async function dpiOf(files: R2Bucket, p: ExportPage): Promise<number> {
  const meta = p.imageKey ? await readPageMeta(files, p.imageKey).catch(() => null) : null;
  return pageResolution(meta?.transform ?? null) ?? Math.max(72, Math.max(p.width, p.height) / 11.69);
}

const fixed = (v: number) => Number(v.toFixed(2));

/**
 * One text object per line (keeps the reading order), each word placed on its own box: its own
 * matrix at the word's starting edge and horizontal scaling that stretches the word and the space
 * after it to where the next word starts (the last word to its own edge). Selecting or searching a
 * word then highlights that word, also on lines with wide gaps (tables, forms).
 *
 * Right-to-left words (Arabic, Hebrew…) are written in logical order with a mirrored matrix at
 * their right edge, so their characters advance leftwards as they are seen, as tesseract's own PDF
 * renderer does: extractors (pdftotext, pdf.js) then give the letters and words in reading order.
 * Written left to right, each word comes out reversed.
 */
function textLayer(lines: LineText[], k: number, pageH: number, fontKey: PDFName): PDFOperator[] {
  const ops: PDFOperator[] = [pushGraphicsState()];
  for (const l of lines) {
    const words = l.words.map((w) => ({ ...w, text: w.text.replace(/\s+/g, "") })).filter((w) => w.text && w.box.w > 0);
    if (!words.length || l.box.h <= 0) continue;
    const size = Math.max(1, l.box.h * k * 0.85);
    const baseline = pageH - (l.box.y + l.box.h) * k + l.box.h * k * 0.2;
    ops.push(beginText(), setFontAndSize(fontKey, size), setTextRenderingMode(TextRenderingMode.Invisible));
    words.forEach((w, i) => {
      const next = words[i + 1];
      // A space after the word unless its script writes none (CJK), as in the line's text.
      const text = next && joinWords([w.text, next.text]).length > w.text.length + next.text.length ? `${w.text} ` : w.text;
      const rtl = textDirection(w.text) === "rtl";
      const right = w.box.x + w.box.w;
      // Right to left, the next word starts at its right edge, left of this one.
      const nextStart = next && (rtl ? next.box.x + next.box.w : next.box.x);
      const span =
        nextStart === undefined
          ? w.box.w
          : rtl
            ? nextStart < w.box.x
              ? right - nextStart
              : w.box.w
            : nextStart > right
              ? nextStart - w.box.x
              : w.box.w;
      const scale = Math.max(1, Math.min(1000, (100 * span * k) / (text.length * 0.5 * size)));
      ops.push(
        PDFOperator.of(PDFOperatorNames.SetTextHorizontalScaling, [PDFNumber.of(fixed(scale))]),
        rtl
          ? setTextMatrix(-1, 0, 0, 1, fixed(right * k), fixed(baseline))
          : setTextMatrix(1, 0, 0, 1, fixed(w.box.x * k), fixed(baseline)),
        showText(PDFHexString.of(utf16Hex(text))),
      );
    });
    ops.push(endText());
  }
  ops.push(popGraphicsState());
  return ops;
}

/**
 * `searchable_pdf`: each page image with the recognised (or corrected) source text as the layer.
 * `pdf`: each rendered page (translated or erased; the page image where none was rendered) with
 * the translation as the layer when there is one.
 */
export async function renderPdf(files: R2Bucket, doc: ExportDocument, kind: "searchable_pdf" | "pdf"): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(doc.title);
  pdf.setProducer("Lingoscan");
  pdf.setCreator("Lingoscan");
  const font = glyphlessFont(pdf);
  const content: ExportContent = kind === "pdf" ? "translation" : "source";
  for (const p of doc.pages) {
    const k = 72 / (await dpiOf(files, p));
    const W = p.width * k,
      H = p.height * k;
    const page = pdf.addPage([W, H]);
    const key = kind === "pdf" ? (p.renderKey ?? p.imageKey) : p.imageKey;
    if (key) {
      let bytes = await readBytes(files, key, "page image");
      // Rendered pages are photographs as often as text: JPEG keeps them small. Page images stay lossless.
      if (kind === "pdf" && p.renderKey) bytes = transcode(bytes, "jpg", "rendered page");
      const format = sniffFormat(bytes);
      const image =
        format === "jpeg"
          ? await pdf.embedJpg(bytes)
          : await pdf.embedPng(format === "png" ? bytes : transcode(bytes, "png", "page image"));
      page.drawImage(image, { x: 0, y: 0, width: W, height: H });
    }
    const fontKey = page.node.newFontDictionary("GlyphLess", font);
    page.pushOperators(
      ...textLayer(
        p.regions.flatMap((r) => linesOf(r, content)),
        k,
        H,
        fontKey,
      ),
    );
  }
  return pdf.save({ useObjectStreams: true });
}
