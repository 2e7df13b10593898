import { engineError } from "../errors";
import { parseFont, type FontMetrics } from "./ttf";

/** A font face loaded from R2 MODELS. */
export interface Face {
  key: string;
  bytes: Uint8Array;
  metrics: FontMetrics;
  bold: boolean;
}

/** One step of the fallback chain: a regular face and, where one exists, its bold. */
interface ChainEntry {
  regular: string;
  bold?: string;
  required?: boolean;
}

/**
 * The fallback chain: DejaVu Sans covers Latin, Cyrillic, Greek, Hebrew and basic Arabic (with a
 * bold face); Noto Sans SC covers Chinese and Japanese (kana included), Noto Sans KR Hangul, Noto
 * Sans Arabic and Hebrew what DejaVu lacks (Urdu, Pashto letters…). Each character is drawn with
 * the first face that has it. Without a face (not seeded), its characters are measured but not drawn.
 */
const CHAIN: ChainEntry[] = [
  { regular: "fonts/DejaVuSans.ttf", bold: "fonts/DejaVuSans-Bold.ttf", required: true },
  { regular: "fonts/NotoSansSC-Regular.ttf" },
  { regular: "fonts/NotoSansKR-Regular.ttf" },
  { regular: "fonts/NotoSansArabic-Regular.ttf" },
  { regular: "fonts/NotoSansHebrew-Regular.ttf" },
];

/**
 * The faces a region's `font_family` may name, set first with the chain behind them: `lettering`
 * (Comic Neue Bold: the hand-lettered look of comics, whose lettering is heavier than text type),
 * `serif` (DejaVu Serif), `mono` (DejaVu Sans Mono). Any other name, or none, is `sans` (the chain
 * alone).
 */
export const FONT_FAMILIES: Record<string, ChainEntry> = {
  lettering: { regular: "fonts/ComicNeue-Bold.ttf" },
  serif: { regular: "fonts/DejaVuSerif.ttf" },
  mono: { regular: "fonts/DejaVuSansMono.ttf" },
};

/** Parsed faces stay in the isolate: fonts never change under a key. */
const cache = new Map<string, Promise<Face | null>>();

function load(models: R2Bucket, key: string, bold: boolean): Promise<Face | null> {
  let p = cache.get(key);
  if (!p) {
    p = (async () => {
      const obj = await models.get(key);
      if (!obj) return null;
      const bytes = new Uint8Array(await obj.arrayBuffer());
      return { key, bytes, metrics: parseFont(bytes), bold };
    })();
    p.catch(() => cache.delete(key));
    cache.set(key, p);
  }
  return p;
}

/** The faces for a weight, in fallback order, led by the named family's (when it is one of FONT_FAMILIES). */
export async function fontChain(models: R2Bucket, bold: boolean, family?: string): Promise<Face[]> {
  const faces: Face[] = [];
  const lead = family && Object.hasOwn(FONT_FAMILIES, family) ? [FONT_FAMILIES[family]!] : [];
  for (const e of [...lead, ...CHAIN]) {
    const face = (bold && e.bold ? await load(models, e.bold, true) : null) ?? (await load(models, e.regular, false));
    if (face) faces.push(face);
    else if (e.required) throw engineError("internal_error", `The font ${e.regular} is not installed in MODELS (run the model seeding).`);
  }
  return faces;
}

/** The first face of the chain that has the code point (the first face when none does). */
export function faceFor(chain: Face[], cp: number): Face {
  for (const f of chain) if (f.metrics.advance(cp) !== undefined) return f;
  return chain[0]!;
}

/** Advance of a code point in pixels at `size`; characters no face has are measured as 0.6 em. */
export function advancePx(chain: Face[], cp: number, size: number): number {
  const f = faceFor(chain, cp);
  const a = f.metrics.advance(cp);
  return ((a ?? f.metrics.unitsPerEm * 0.6) / f.metrics.unitsPerEm) * size;
}
