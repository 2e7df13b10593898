import type { HocrBlock, HocrWord } from "./hocr";

/**
 * tesseract's own word spacing, taken from its plain text. hOCR gives every piece tesseract
 * segmented as a word, with nothing between them; its text output writes the spaces between
 * them. For most models that is one space between any two pieces, but the Korean, Chinese and
 * Japanese models set `preserve_interword_spaces 1` in their config: the text then carries the
 * spaces the page has (the gaps tesseract measured), none inside a word that tesseract split into
 * syllables ("권" "리" "에" → "권리에"). Native tesseract's text output is that same text.
 */

/** Bidi marks tesseract writes around right-to-left runs, and whitespace: not part of any word. */
const INVISIBLE = /[\s\u200e\u200f\u202a-\u202e]/gu;
/** Characters written without spaces between them (Chinese, Japanese): joinWords keeps them tight anyway. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]/u;

/**
 * For each word of `words`, whether tesseract's text line `line` has a space before it (the
 * first word: false); null when the line does not hold exactly these words.
 */
export function spacesBefore(words: string[], line: string): boolean[] | null {
  if (words.join("").replace(INVISIBLE, "") !== line.replace(INVISIBLE, "")) return null;
  const chars = [...line];
  let i = 0;
  return words.map((w, n) => {
    let space = false;
    [...w.replace(INVISIBLE, "")].forEach((ch, j) => {
      // What lies between two characters of the words is invisible (the texts are equal without it).
      for (; i < chars.length && chars[i] !== ch; i++) if (j === 0 && /\s/u.test(chars[i]!)) space = true;
      i++;
    });
    return n > 0 && space;
  });
}

function joinTwo(a: HocrWord, b: HocrWord): HocrWord {
  return {
    box: {
      left: Math.min(a.box.left, b.box.left),
      top: Math.min(a.box.top, b.box.top),
      right: Math.max(a.box.right, b.box.right),
      bottom: Math.max(a.box.bottom, b.box.bottom),
    },
    text: a.text + b.text,
    confidence: Math.min(a.confidence, b.confidence),
  };
}

/**
 * The blocks with the pieces of each line joined where tesseract's text (`text`, its plain output
 * of the same reading) has no space between them. Lines are matched in order; a line whose words
 * its text line does not hold is left as it is. Between Chinese or Japanese characters nothing is
 * joined: those words stay tesseract's (joinWords writes them without spaces).
 */
export function applyWordSpacing(blocks: HocrBlock[], text: string): HocrBlock[] {
  const lines = text.split("\n").filter((l) => l.replace(INVISIBLE, ""));
  let next = 0;
  return blocks.map((b) => ({
    ...b,
    lines: b.lines.map((line) => {
      const texts = line.words.map((w) => w.text);
      // tesseract writes the lines in the order hOCR lists them; look a little ahead after a mismatch.
      for (let k = next; k < Math.min(lines.length, next + 3); k++) {
        const spaces = spacesBefore(texts, lines[k]!);
        if (!spaces) continue;
        next = k + 1;
        const words: HocrWord[] = [];
        line.words.forEach((w, i) => {
          const prev = words[words.length - 1];
          const tight = i > 0 && !spaces[i] && !(UNSPACED.test(prev!.text.at(-1)!) && UNSPACED.test(w.text[0]!));
          if (prev && tight) words[words.length - 1] = joinTwo(prev, w);
          else words.push(w);
        });
        return { ...line, words };
      }
      return line;
    }),
  }));
}
