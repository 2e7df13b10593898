/** Parses tesseract's hOCR into blocks → lines → words (tesseract's reading order). */

export interface HocrBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface HocrWord {
  box: HocrBox;
  text: string;
  /** 0..1 */
  confidence: number;
}

export interface HocrLine {
  box: HocrBox;
  words: HocrWord[];
  /** tesseract reports a `textangle` for lines of a block not written left to right (vertical CJK). */
  vertical: boolean;
}

/** A tesseract block (ocr_carea) with its lines; paragraphs are flattened into it. */
export interface HocrBlock {
  box: HocrBox;
  lines: HocrLine[];
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === "#") {
      const cp = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(cp) && cp >= 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

function bbox(title: string): HocrBox | null {
  const m = /bbox (-?\d+) (-?\d+) (-?\d+) (-?\d+)/.exec(title);
  return m ? { left: +m[1]!, top: +m[2]!, right: +m[3]!, bottom: +m[4]! } : null;
}

const LINE_CLASSES = new Set(["ocr_line", "ocr_caption", "ocr_header", "ocr_textfloat"]);

/**
 * hOCR from tesseract is regular: each element on its own tag with class and title attributes.
 * A tag scan is enough; no general HTML parsing is needed.
 */
export function parseHocr(hocr: string): HocrBlock[] {
  const blocks: HocrBlock[] = [];
  let block: HocrBlock | null = null;
  let line: HocrLine | null = null;
  const tag = /<(p|span|div)\b([^>]*)>|<\/(?:p|span|div)>/g;
  const attr = (attrs: string, name: string) => new RegExp(`${name}=(['"])(.*?)\\1`).exec(attrs)?.[2] ?? "";
  let m: RegExpExecArray | null;
  while ((m = tag.exec(hocr))) {
    if (!m[1]) continue;
    const attrs = m[2] ?? "";
    const cls = attr(attrs, "class");
    const title = attr(attrs, "title");
    const box = bbox(title);
    if (!box) continue;
    if (cls === "ocr_carea") {
      block = { box, lines: [] };
      blocks.push(block);
      line = null;
    } else if (LINE_CLASSES.has(cls)) {
      if (!block) {
        block = { box, lines: [] };
        blocks.push(block);
      }
      const angle = /textangle (\d+)/.exec(title);
      line = { box, words: [], vertical: angle ? +angle[1]! % 180 === 90 : false };
      block.lines.push(line);
    } else if (cls === "ocrx_word" && line) {
      // The word's text runs to its closing </span>; strip any inline markup (<strong>, <em>).
      const end = hocr.indexOf("</span>", tag.lastIndex);
      const raw = hocr.slice(tag.lastIndex, end < 0 ? undefined : end);
      const text = decodeEntities(raw.replace(/<[^>]*>/g, "")).trim();
      const conf = /x_wconf (\d+(?:\.\d+)?)/.exec(title);
      if (text) line.words.push({ box, text, confidence: conf ? Math.min(1, Math.max(0, +conf[1]! / 100)) : 0 });
      if (end >= 0) tag.lastIndex = end + "</span>".length;
    }
  }
  return blocks.map((b) => ({ ...b, lines: b.lines.filter((l) => l.words.length > 0) })).filter((b) => b.lines.length > 0);
}
