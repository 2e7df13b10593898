/**
 * Language identification with `eld` (the "small" n-gram set: ~460 KB gzipped, a few µs a
 * sentence). Codes are ISO 639-1, as everywhere in the API. The n-gram tables take a few hundred
 * milliseconds to build, so they are loaded on the first detection, not at Worker start-up.
 */
type Eld = (typeof import("eld/small"))["eld"];
let loading: Promise<Eld> | undefined;

function eld(): Promise<Eld> {
  loading ??= import("eld/small").then((m) => m.eld);
  return loading;
}

export interface DetectedLanguage {
  /** Best language, or null when the text has nothing to go on (digits, symbols). */
  language: string | null;
  /** eld's own reliability verdict, and the best language being eld's first choice. */
  reliable: boolean;
}

/**
 * Detects the language of one segment. With `allowed`, the answer is the best-scoring language
 * among them (e.g. the sources a translator serves into the target), so that a close neighbour
 * nobody translates (Catalan for a short Spanish line) cannot make the segment untranslatable.
 */
export async function detectLanguage(text: string, allowed?: ReadonlySet<string>): Promise<DetectedLanguage> {
  const result = (await eld()).detect(text);
  if (!allowed) return { language: result.language || null, reliable: result.isReliable() && result.language !== "" };
  let best: string | null = null;
  let bestScore = -1;
  for (const [language, score] of Object.entries(result.getScores())) {
    if (allowed.has(language) && score > bestScore) {
      best = language;
      bestScore = score;
    }
  }
  return { language: best, reliable: best !== null && best === result.language && result.isReliable() };
}
