import { registerCache } from "../memory";

/**
 * Word lists of the OCR languages that have one, in R2 MODELS: one lower-case word a line, in
 * code-unit order (the model seeding sorts them). English: the `word-list` package (274 000 words
 * with their inflections, no names).
 */
const LEXICONS: Record<string, string> = { eng: "lexicon/eng.txt" };

/** Whether a word (lower case) is in a language's word list. */
export interface Lexicon {
  has(word: string): boolean;
}

/** A sorted word list held as its bytes and each word's start: about 4 MB for English, searched by halves. */
function sortedList(bytes: Uint8Array): Lexicon {
  let count = 0;
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) count++;
  const starts = new Uint32Array(count + 2);
  let n = 0;
  starts[n++] = 0;
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) starts[n++] = i + 1;
  if (starts[n - 1] !== bytes.length) starts[n++] = bytes.length + 1;
  const words = n - 1;
  const encoder = new TextEncoder();
  // Compares the word at index k with `key`: negative when the word sorts first.
  const compare = (k: number, key: Uint8Array) => {
    const start = starts[k]!,
      end = starts[k + 1]! - 1;
    for (let i = 0; ; i++) {
      if (start + i >= end) return i >= key.length ? 0 : -1;
      if (i >= key.length) return 1;
      const d = bytes[start + i]! - key[i]!;
      if (d) return d;
    }
  };
  return {
    has(word: string) {
      const key = encoder.encode(word);
      let lo = 0,
        hi = words - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const c = compare(mid, key);
        if (!c) return true;
        if (c < 0) lo = mid + 1;
        else hi = mid - 1;
      }
      return false;
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
