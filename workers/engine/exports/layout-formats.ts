import type { ExportDocument } from "../../shared/engine-contract";
import { type ExportContent, linesOf } from "./document";
import { px, xml } from "./xml";
import { textDirection } from "../../shared/text-direction";

const bbox = (b: { x: number; y: number; w: number; h: number }) => `bbox ${px(b.x)} ${px(b.y)} ${px(b.x + b.w)} ${px(b.y + b.h)}`;

/**
 * hOCR 1.2: XHTML 1.0 Transitional (valid against its DTD) with ocr_page / ocr_carea / ocr_par /
 * ocr_line / ocrx_word elements, bounding boxes and word confidences (x_wconf, 0–100).
 */
export function renderHocr(doc: ExportDocument, content: ExportContent): string {
  const lang = (doc.sourceLanguage ?? "").match(/^[a-z]{2,3}/)?.[0] ?? "und";
  const body = doc.pages
    .map((p) => {
      const n = p.index + 1;
      const blocks = p.regions
        .map((r, bi) => {
          const lines = linesOf(r, content);
          if (!lines.length) return "";
          const spans = lines
            .map((l, li) => {
              const words = l.words
                .map(
                  (w, wi) =>
                    `<span class="ocrx_word" id="word_${n}_${bi + 1}_${li + 1}_${wi + 1}" title="${bbox(w.box)}; x_wconf ${Math.round(Math.max(0, Math.min(1, w.confidence)) * 100)}">${xml(w.text)}</span>`,
                )
                .join(" ");
              return `<span class="ocr_line" id="line_${n}_${bi + 1}_${li + 1}" title="${bbox(l.box)}; baseline 0 0">${words}</span>`;
            })
            .join("\n");
          // Words stay in reading order; dir tells readers that order runs from the right.
          const dir = textDirection(lines[0]!.text) === "rtl" ? ' dir="rtl"' : "";
          return `<div class="ocr_carea" id="block_${n}_${bi + 1}" title="${bbox(r.box)}">\n<p class="ocr_par" id="par_${n}_${bi + 1}"${dir} title="${bbox(r.box)}">\n${spans}\n</p>\n</div>`;
        })
        .filter(Boolean)
        .join("\n");
      return `<div class="ocr_page" id="page_${n}" title="${bbox({ x: 0, y: 0, w: p.width, h: p.height })}; ppageno ${p.index}">\n${blocks}\n</div>`;
    })
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="${lang}" lang="${lang}">
<head>
<title>${xml(doc.title)}</title>
<meta http-equiv="Content-Type" content="text/html;charset=utf-8"/>
<meta name="ocr-system" content="lingoscan"/>
<meta name="ocr-capabilities" content="ocr_page ocr_carea ocr_par ocr_line ocrx_word ocrp_wconf"/>
</head>
<body>
${body}
</body>
</html>
`;
}

/**
 * ALTO 4 (schema 4.2): Description (pixel unit, source image), then per page a PrintSpace with a
 * TextBlock per region, TextLines, and Strings separated by SP, each with its box and WC (0–1).
 */
export function renderAlto(doc: ExportDocument, content: ExportContent): string {
  const pos = (b: { x: number; y: number; w: number; h: number }) =>
    `HPOS="${px(b.x)}" VPOS="${px(b.y)}" WIDTH="${px(b.w)}" HEIGHT="${px(b.h)}"`;
  const pages = doc.pages
    .map((p) => {
      const n = p.index + 1;
      const blocks = p.regions
        .map((r, bi) => {
          const lines = linesOf(r, content);
          if (!lines.length) return "";
          const tl = lines
            .map((l, li) => {
              const parts: string[] = [];
              l.words.forEach((w, wi) => {
                if (wi > 0) {
                  // The space between two words in reading order: to the right of the previous one, or (right-to-left text) to its left.
                  const prev = l.words[wi - 1]!.box;
                  const [a, b] = w.box.x >= prev.x ? [prev, w.box] : [w.box, prev];
                  parts.push(`<SP HPOS="${px(a.x + a.w)}" VPOS="${px(l.box.y)}" WIDTH="${px(Math.max(0, b.x - a.x - a.w))}"/>`);
                }
                parts.push(
                  `<String ID="s_${n}_${bi + 1}_${li + 1}_${wi + 1}" ${pos(w.box)} CONTENT="${xml(w.text)}" WC="${Math.max(0, Math.min(1, w.confidence)).toFixed(2)}"/>`,
                );
              });
              return `<TextLine ID="l_${n}_${bi + 1}_${li + 1}" ${pos(l.box)}>${parts.join("")}</TextLine>`;
            })
            .join("\n");
          return `<TextBlock ID="b_${n}_${bi + 1}" ${pos(r.box)}>\n${tl}\n</TextBlock>`;
        })
        .filter(Boolean)
        .join("\n");
      return `<Page ID="p_${n}" PHYSICAL_IMG_NR="${n}" WIDTH="${px(p.width)}" HEIGHT="${px(p.height)}">\n<PrintSpace HPOS="0" VPOS="0" WIDTH="${px(p.width)}" HEIGHT="${px(p.height)}">\n${blocks}\n</PrintSpace>\n</Page>`;
    })
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<alto xmlns="http://www.loc.gov/standards/alto/ns-v4#" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.loc.gov/standards/alto/ns-v4# http://www.loc.gov/standards/alto/v4/alto-4-2.xsd" SCHEMAVERSION="4.2">
<Description>
<MeasurementUnit>pixel</MeasurementUnit>
<sourceImageInformation><fileName>${xml(doc.title)}</fileName></sourceImageInformation>
</Description>
<Layout>
${pages}
</Layout>
</alto>
`;
}
