import type { LineText } from "../../shared/engine-contract";

/**
 * Exclamation marks read as katakana: in a column of Japanese, "!!" set in one cell reads as "リ"
 * to the vertical model ("ウマっリ" for "ウマっ!!", "冗談っリ", "ウママッリリ"). A リ, or two, after
 * a small tsu (spaces between words aside) is no katakana: no word doubles its consonant into a
 * リ. It is "!!".
 */
const READ_AS_RI = /(?<=[っッ]\s*)リ{1,2}/gu;

/** A vertical line with the exclamation marks read as "リ" given back, in its text and its words. */
export function withExclamations(line: LineText): LineText {
  if (!line.vertical || !line.text.match(READ_AS_RI)) return line;
  // A word may start with the marks, read after a word that ends in a small tsu.
  const words = line.words.map((w, k) => {
    const before = k > 0 ? line.words[k - 1]!.text.slice(-1) : "";
    return { ...w, text: (before + w.text).replace(READ_AS_RI, "!!").slice(before.length) };
  });
  return { ...line, text: line.text.replace(READ_AS_RI, "!!"), words };
}
