import type { LineText, RegionText, WordText } from "../../shared/engine-contract";
import type { Lexicon } from "../ocr/lexicon";
import { unionBox } from "../ocr/group-lines";
import { joinWords } from "../ocr/page-text";

/**
 * What a glyph of capitals lettering is misread as, and what it was: digits and bars for the
 * letters they share strokes with, and the capitals whose shapes tesseract takes for one another in hand
 * lettering (an S's curves for E, G, 6, 8 or 9; a P's bowl closed into D; an I's foot hooked into J; K for
 * H; O, D and Q).
 */
const MISREAD: Record<string, string> = {
  "|": "I",
  "0": "OD",
  "1": "I",
  "2": "Z",
  "4": "A",
  "5": "S",
  "6": "SG",
  "7": "T",
  "8": "SB",
  "9": "SG",
  C: "GO",
  D: "O",
  E: "SF",
  G: "SC",
  J: "I",
  K: "H",
  O: "DQ",
  P: "DR",
  Q: "O",
  U: "V",
  V: "U",
};

/** Below this confidence a word of letters that no word list holds may be corrected (what `readPicture` calls unsure). */
const UNSURE = 0.8;

/** Endings a word takes after an apostrophe: the stem is looked up (DOESN'T: DOES). */
const CLITIC = /'(S|T|LL|RE|VE|D|M)$/;

/** A glyph read as no letter: a digit or a bar. */
const notLetter = (c: string) => (c >= "0" && c <= "9") || c === "|";

/**
 * A word of capitals as the list is searched for it: each hyphenated part's stem in lower case, its
 * clitic left off ("IT'S": it), and a part ending "N'T" also without it ("DOESN'T": doesn, does).
 */
function stems(word: string): { stem: string; bare: string | null }[] {
  return word.split("-").map((part) => ({
    stem: part.replace(CLITIC, "").toLowerCase(),
    bare: part.endsWith("N'T") ? part.slice(0, -3).toLowerCase() : null,
  }));
}

/** Whether a word of capitals (each hyphenated part, its clitic left off; a letter alone is a word, a digit alone none) is in the list. */
function known(lexicon: Lexicon, word: string): boolean {
  return stems(word).every(({ stem, bare }) =>
    stem.length <= 1 ? !notLetter(stem) : lexicon.has(stem) || (bare !== null && lexicon.has(bare)),
  );
}

/**
 * The words of letters `word` may have been, each misread glyph (MISREAD) taken for what it was:
 * one glyph, or, in a word of digits, bars and hyphens alone, two (a "16" between words of lettering
 * is IS; a stammered "1-1", I-I).
 */
function readings(word: string): string[] {
  const out = new Set<string>();
  const digits = [...word].every((c) => notLetter(c) || c === "-");
  const step = (w: string, from: number, left: number) => {
    for (let i = from; i < w.length; i++) {
      for (const c of MISREAD[w[i]!] ?? "") {
        const next = w.slice(0, i) + c + w.slice(i + 1);
        out.add(next);
        if (digits && left > 1) step(next, i + 1, left - 1);
      }
    }
  };
  step(word, 0, 2);
  return [...out].filter((w) => ![...w].some(notLetter));
}

/** Letters a word of lettering loses or gains in a reading: a thin I or J dropped, a decorated initial's flourish read as one more. */
const CAPITALS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
/** A word this long or longer, of capitals alone, may have lost or gained one letter: a shorter one fits too many words. */
const EDITED_LETTERS = 4;

/**
 * The words one letter more or one less than `word` makes (a word of capitals); a letter drawn
 * twice or more in a row is lettering's stretch, not a misreading, and is not taken out (OOOF is no OOF).
 */
function edits(word: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i <= word.length; i++) {
    for (const c of CAPITALS) out.add(word.slice(0, i) + c + word.slice(i));
    if (i < word.length && word[i] !== word[i - 1] && word[i] !== word[i + 1]) out.add(word.slice(0, i) + word.slice(i + 1));
  }
  return [...out];
}

/** A word said fewer times than this in the word list's counts is too rare to be what lettering was misread from (SOK is no SOH). */
const SAID = 5;
/** Of several words a misreading fits, the one said most is taken when said this many times more than the next. */
const MORE_SAID = 4;

/** How often a word of capitals is said: its least said hyphenated part, each counted without its clitic; a letter alone is always said. */
function said(lexicon: Lexicon, word: string): number {
  return Math.min(
    ...stems(word).map(({ stem, bare }) => (stem.length <= 1 ? Infinity : lexicon.count(stem) || (bare ? lexicon.count(bare) : 0))),
  );
}

/** The word of `fits` lettering was misread from: the one said most, when said often enough and well beyond the next. */
function likeliest(lexicon: Lexicon, fits: string[]): string | null {
  const ranked = fits.map((w) => ({ w, n: said(lexicon, w) })).sort((a, b) => b.n - a.n);
  const [best, next] = ranked;
  if (!best || best.n < SAID || (next && (next.n === best.n || best.n < MORE_SAID * next.n))) return null;
  return best.w;
}

/** A word: what leads it and ends it (quotes, punctuation) around its letters, digits, apostrophes and hyphens. */
const WORD = /^([^\p{L}\p{N}|]*)([\p{L}\p{N}|][\p{L}\p{N}|'-]*[\p{L}\p{N}|])([^\p{L}\p{N}|]*)$/u;

/**
 * A word of capitals lettering no word list holds, taken for the likeliest word of the list it could
 * be misread from (THIE → THIS, IT8 → ITS, 6ECOND → SECOND, 16 → IS), or, where no misread glyph
 * gives one, a letter more or less gives (BURNNG → BURNING, GTHE → THE; words of four capitals or
 * more); left as read where none is likeliest (`likeliest`). Digits among letters are misread
 * whatever the word's confidence; other words are corrected only when read unsurely: names and
 * sound effects read surely stay as read.
 */
function corrected(lexicon: Lexicon, w: WordText): string {
  const m = WORD.exec(w.text);
  if (!m) return w.text;
  const core = m[2]!.toUpperCase();
  if (known(lexicon, core)) return w.text;
  const mixed = [...core].some(notLetter) && /\p{L}/u.test(core);
  if (!mixed && w.confidence >= UNSURE) return w.text;
  // A number with a sign or unit ("$50", "#16", "50%") is a number.
  if (!/\p{L}/u.test(core) && (m[1] || !/^[.,!?:;]*$/.test(m[3]!))) return w.text;
  let found = readings(core).filter((r) => known(lexicon, r));
  if (!found.length && core.length >= EDITED_LETTERS && /^[A-Z]+$/.test(core)) found = edits(core).filter((r) => known(lexicon, r));
  const word = likeliest(lexicon, found);
  return word ? m[1] + word + m[3] : w.text;
}

/** A stammer's first letter and its repeat: a letter, hyphens, one glyph (I--I), with what leads and ends it. */
const STAMMER = /^([^\p{L}\p{N}|]*)(\p{Lu})(-+)([\p{L}\p{N}|])([^\p{L}\p{N}|]*)$/u;

/**
 * A stammered letter whose repeat is misread, set as the letter again ("I--T THOUGHT", the second
 * I's serifs read as a T's bar → "I--I"; "I-1" → "I-I"): the repeat a glyph MISREAD takes for that
 * letter, or a T for an I. Null for any other word.
 */
function stammered(w: WordText): string | null {
  const m = STAMMER.exec(w.text);
  if (!m || m[2] === m[4]) return null;
  const letter = m[2]!;
  const fits = (MISREAD[m[4]!] ?? "").includes(letter) || (letter === "I" && m[4] === "T");
  return fits ? m[1]! + letter + m[3] + letter + m[5] : null;
}

/** How many glyphs a caption's decorated initial is read as, at most (Q and U, or L, Q and U, for an A). */
const INITIAL_GLYPHS = 3;
/** A word of the list a decorated initial's misreading makes is taken for a word said this many times more. */
const INITIAL_SAID = 100;
/**
 * A word of the list one capital in place of its first glyph makes is taken for a word of the list
 * said this many times more (CHE → THE: 146 against 1.5 million, 10 000×): BOB is no JOB (4.5×),
 * SOUR no YOUR (1 100×). Of the list's words, 675 are so far below such a fit, 18 of them said 20
 * times or more (SOU, ION, PAVE, COR…).
 */
const INITIAL_ONE_SAID = 5000;

/** The words of the list one capital in place of the first `glyphs` glyphs of `core` makes, at least `least` letters left after them. */
function initialFits(lexicon: Lexicon, core: string, glyphs: number, least: number): string[] {
  const rest = core.slice(glyphs);
  if (rest.length < least || !/^[A-Z]+$/.test(rest)) return [];
  return [...CAPITALS].map((c) => c + rest).filter((w) => w !== core && known(lexicon, w));
}

/**
 * A region's first word read unsurely with its decorated initial (a capital drawn large, in a
 * colour, with flourishes: a caption's drop cap) misread, taken for the word one capital in its
 * place makes: read as two or three glyphs (QUFTER, LUFTER, LIFTER → AFTER) when the word as read is
 * no word of the list, or one said a hundred times less; read as one other letter (CHE → THE) only
 * when the word as read is one of the list said five thousand times less, so that a name the list
 * does not hold (JIM, TIM) stays. Left as read where no such word is likeliest.
 */
function decoratedInitial(lexicon: Lexicon, w: WordText): string {
  const m = WORD.exec(w.text);
  if (!m || m[1] || w.confidence >= UNSURE) return w.text;
  const core = m[2]!.toUpperCase();
  const glyphs = Array.from({ length: INITIAL_GLYPHS - 1 }, (_, i) => i + 2);
  const several = likeliest(
    lexicon,
    glyphs.flatMap((k) => initialFits(lexicon, core, k, 3)),
  );
  if (several && (!known(lexicon, core) || said(lexicon, several) >= INITIAL_SAID * said(lexicon, core))) return several + m[3];
  const one = known(lexicon, core) ? likeliest(lexicon, initialFits(lexicon, core, 1, 2)) : null;
  return one && said(lexicon, one) >= INITIAL_ONE_SAID * Math.max(1, said(lexicon, core)) ? one + m[3] : w.text;
}

/** Letters either side of an exclamation or question mark with no space after it: OW!ITS, OW!|TS (a bar for I). */
const RUN_ON = /^(.*\p{L}[!?]+)([\p{L}|].*)$/u;
/** Letters either side of a bar or an I that may be an exclamation mark: DOESIWISH, DOES|WISH. */
const BAR_BETWEEN = /^(\p{Lu}{3,})[I|](\p{Lu}{3,})([^\p{L}\p{N}]*)$/u;

/**
 * The two words a word of lettering run on past a sentence's end was: its mark read with no space
 * after it (OW!ITS → OW! ITS; OW!|TS → OW! |TS, the bar then read as I), or read as I or a bar
 * where both sides are words of the list and the whole is none (DOESIWISH → DOES! WISH).
 */
function runOnParts(lexicon: Lexicon, text: string): [string, string] | null {
  const run = RUN_ON.exec(text);
  if (run) return [run[1]!, run[2]!];
  const bar = BAR_BETWEEN.exec(text);
  if (!bar || known(lexicon, `${bar[1]}I${bar[2]}`) || !known(lexicon, bar[1]!) || !known(lexicon, bar[2]!)) return null;
  return [`${bar[1]}!`, bar[2]! + bar[3]!];
}

/** A word run on past a sentence's end as two (`runOnParts`), its box shared by their letters. */
function runOn(lexicon: Lexicon, w: WordText): WordText[] {
  const parts = runOnParts(lexicon, w.text);
  if (!parts) return [w];
  const [first, second] = parts;
  const cut = Math.round((w.box.w * first.length) / (first.length + second.length));
  return [
    { ...w, text: first, box: { ...w.box, w: cut } },
    { ...w, text: second, box: { ...w.box, x: w.box.x + cut, w: w.box.w - cut } },
  ];
}

/** A lone glyph read for the pronoun I: a 1 (a serifless I) at any confidence, a T (an I's serifs read as a bar) when unsure. */
const misreadI = (w: WordText) => w.text === "1" || (w.text === "T" && w.confidence < UNSURE);

/**
 * A lone 1 or T before a word of the list taken for the pronoun I, which heavy lettering's I is
 * read as ("1 WAS LIKE HIM", "AS 1 ALWAYS SAID", "AS T ALWAYS SAID"); one ending a line, or before
 * a word the list does not hold, stays as read.
 */
function onesAsI(lexicon: Lexicon, words: WordText[]): WordText[] {
  return words.map((w, i) => {
    const next = WORD.exec(words[i + 1]?.text ?? "");
    return misreadI(w) && next && /^\p{Lu}/u.test(next[2]!) && known(lexicon, next[2]!) ? { ...w, text: "I" } : w;
  });
}

/** What a balloon's closing mark is misread as, alone after its last word: a bar for "!", the hook of a "?" for 2, 7 or Z. */
const CLOSING: Record<string, string> = { "|": "!", "2": "?", "7": "?", Z: "?" };

/**
 * A balloon's last word, a lone glyph a closing mark is misread as (CLOSING) after a word of the
 * list, taken for that mark and set after the word ("FLY-SWATTER |" → "FLY-SWATTER!", "YOU ENVIOUS
 * 7" or "YOU ENVIOUS Z" → "YOU ENVIOUS?"): a bar at any confidence (no word is a bar alone), a
 * digit or a Z read unsurely (a number or letter said surely stays: "I'M 7", "PLAN Z").
 */
function closingMark(lexicon: Lexicon, words: WordText[]): WordText[] {
  const last = words.at(-1);
  const before = WORD.exec(words.at(-2)?.text ?? "");
  const mark = last && CLOSING[last.text];
  if (!mark || !before || before[3] || !known(lexicon, before[2]!.toUpperCase())) return words;
  if (last.text !== "|" && last.confidence >= UNSURE) return words;
  const prev = words.at(-2)!;
  return [...words.slice(0, -2), { ...prev, text: prev.text + mark, box: unionBox(prev.box, last.box) }];
}

/**
 * A region of capitals lettering with its run-on words parted, its misread words, stammers and
 * decorated initial corrected, a lone 1 before a word read as I and a misread closing mark set after its last
 * word (the same region when none is).
 */
export function correctLettering(region: RegionText, lexicon: Lexicon): RegionText {
  let changed = false;
  const lines: LineText[] = region.lines.map((l, k) => {
    const read = onesAsI(
      lexicon,
      l.words
        .flatMap((w) => runOn(lexicon, w))
        .map((w, i) => {
          let text = stammered(w) ?? corrected(lexicon, w);
          if (text === w.text && k === 0 && i === 0) text = decoratedInitial(lexicon, w);
          return text === w.text ? w : { ...w, text };
        }),
    );
    const words = k === region.lines.length - 1 ? closingMark(lexicon, read) : read;
    if (words.length === l.words.length && words.every((w, i) => w === l.words[i])) return l;
    changed = true;
    return { ...l, words, text: words.map((w) => w.text).join(" ") };
  });
  return changed ? { ...region, lines, text: joinWords(lines.map((l) => l.text)) } : region;
}
