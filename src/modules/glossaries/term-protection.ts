/**
 * Glossary enforcement around any translator, in two ways:
 *
 * - post-editing: the provider translates the text and each term alone; where the term's own
 *   rendering occurs in the translation exactly once per occurrence of the term, it is replaced
 *   by the glossary target (the sentence keeps the provider's grammar around it);
 * - placeholders, when post-editing cannot be sure: every occurrence of a source term is swapped
 *   for a token before the provider sees the text, and the token for the term's target
 *   afterwards. Tokens are short capitalised letter–digit words (`ZQ0X`), which rule-based
 *   engines pass through as unknown words and neural ones copy like a product code.
 */

export interface GlossaryTerm {
  glossaryId: string;
  source: string;
  target: string;
  caseSensitive: boolean;
}

/** How often a glossary term occurred in a segment and whether its target made it into the output. */
export interface TermHit {
  glossary_id: string;
  source: string;
  target: string;
  count: number;
  enforced: boolean;
}

interface Slot {
  token: string;
  term: GlossaryTerm;
  /** The target as it must appear here (capitalised like the source occurrence). */
  replacement: string;
}

export interface ProtectedText {
  /** The text with every term occurrence replaced by its slot's token. */
  text: string;
  slots: Slot[];
  /** True when nothing but tokens, blanks and punctuation is left: no provider is needed. */
  onlyTerms: boolean;
}

const WORD = "[\\p{L}\\p{N}_]";
const TOKEN_PREFIXES = ["ZQ", "QZ", "XJ", "JX", "VQ", "QV"];

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A regex matching `phrase` as a whole word sequence (not inside a longer word). */
export function wordRegExp(phrase: string, caseSensitive: boolean): RegExp {
  return new RegExp(`(?<!${WORD})${escapeRegExp(phrase)}(?!${WORD})`, caseSensitive ? "gu" : "giu");
}

/** Terms with an empty source or duplicates are dropped; the longest source wins an overlap. */
export function usableTerms(terms: readonly GlossaryTerm[]): GlossaryTerm[] {
  const seen = new Set<string>();
  return terms
    .filter((t) => t.source.trim() !== "")
    .filter((t) => {
      const key = t.caseSensitive ? t.source : t.source.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => b.source.length - a.source.length);
}

/** Capitalises the target like the occurrence when the term matched case-insensitively. */
function shapeLike(occurrence: string, term: GlossaryTerm): string {
  if (term.caseSensitive || term.target === "") return term.target;
  const letters = occurrence.replace(/[^\p{L}]/gu, "");
  const sourceLetters = term.source.replace(/[^\p{L}]/gu, "");
  if (letters.length > 1 && letters === letters.toUpperCase() && sourceLetters !== sourceLetters.toUpperCase())
    return term.target.toUpperCase();
  const first = occurrence.charAt(0);
  if (first !== first.toLowerCase() && term.source.charAt(0) === term.source.charAt(0).toLowerCase()) {
    return term.target.charAt(0).toUpperCase() + term.target.slice(1);
  }
  return term.target;
}

/** Replaces every term occurrence with a token (longest terms first, never overlapping). */
export function protectTerms(text: string, terms: readonly GlossaryTerm[]): ProtectedText {
  const prefix = TOKEN_PREFIXES.find((p) => !text.toUpperCase().includes(p)) ?? "ZQ";
  const slots: Slot[] = [];
  let pieces: (string | Slot)[] = [text];
  for (const term of usableTerms(terms)) {
    const re = wordRegExp(term.source, term.caseSensitive);
    pieces = pieces.flatMap((piece) => {
      if (typeof piece !== "string") return [piece];
      const out: (string | Slot)[] = [];
      let last = 0;
      for (const m of piece.matchAll(re)) {
        const slot: Slot = { token: `${prefix}${slots.length}X`, term, replacement: shapeLike(m[0], term) };
        slots.push(slot);
        out.push(piece.slice(last, m.index), slot);
        last = m.index + m[0].length;
      }
      out.push(piece.slice(last));
      return out;
    });
  }
  const protectedText = pieces.map((p) => (typeof p === "string" ? p : p.token)).join("");
  const rest = pieces.filter((p): p is string => typeof p === "string").join("");
  return { text: protectedText, slots, onlyTerms: slots.length > 0 && !/[\p{L}]/u.test(rest) };
}

/**
 * Puts each slot's target back in place of its token. Returns the text and the slots whose token
 * the provider lost or mangled (their term is then enforced by post-editing).
 */
export function restoreTerms(translated: string, p: ProtectedText): { text: string; missing: Slot[] } {
  let text = translated;
  const missing: Slot[] = [];
  // Highest index first: ZQ1X must not be replaced inside ZQ10X.
  for (const slot of [...p.slots].reverse()) {
    const re = new RegExp(`(?<!${WORD})${slot.token}(?!${WORD})`, "iu");
    if (re.test(text)) text = text.replace(re, () => slot.replacement);
    else missing.push(slot);
  }
  return { text, missing };
}

/**
 * Post-edit: replaces the provider's own rendering of a term (`rendering`: the term translated
 * alone) with the glossary target. Returns null unless the rendering occurs exactly `expected`
 * times (once per source occurrence): anything else would be a guess.
 */
export function postEditTerm(translation: string, rendering: string, term: GlossaryTerm, expected: number): string | null {
  const r = rendering.trim();
  if (!r) return null;
  const re = wordRegExp(r, term.caseSensitive);
  if ([...translation.matchAll(re)].length !== expected) return null;
  return translation.replace(re, (m) => shapeLike(m, { ...term, source: r }));
}

/** Post-edits every term of a protected text; null when one of them cannot be placed for sure. */
export function postEditAll(translation: string, p: ProtectedText, renderings: ReadonlyMap<GlossaryTerm, string>): string | null {
  const counts = new Map<GlossaryTerm, number>();
  for (const slot of p.slots) counts.set(slot.term, (counts.get(slot.term) ?? 0) + 1);
  let text: string | null = translation;
  for (const [term, n] of counts) {
    text = postEditTerm(text, renderings.get(term) ?? "", term, n);
    if (text === null) return null;
  }
  return text;
}

/** Term hits of a protected text, checking that each target really is in the final text. */
export function termHits(p: ProtectedText, finalText: string): TermHit[] {
  const byTerm = new Map<GlossaryTerm, number>();
  for (const slot of p.slots) byTerm.set(slot.term, (byTerm.get(slot.term) ?? 0) + 1);
  return [...byTerm].map(([term, count]) => ({
    glossary_id: term.glossaryId,
    source: term.source,
    target: term.target,
    count,
    enforced: term.target === "" || wordRegExp(term.target, term.caseSensitive).test(finalText),
  }));
}
