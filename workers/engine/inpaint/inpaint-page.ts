import type { InpaintInput, InpaintResult } from "../contract";
import { encodeGrayPng } from "../image/png";
import { releaseEngines } from "../ocr/tesseract";
import { writeObject } from "../storage/r2";
import { fillArea } from "./fill";
import { checkLanguages, leftoverText } from "./leftover";
import { dilate, lineHeightOf, maskRegion } from "./mask";
import { encodeRgba, loadPageBase, lumaOf } from "./rgba";

/** Above this many pixels, cached OCR engines are dropped before photon work (isolate memory). */
const ROOMY_PIXELS = 4_000_000;

/**
 * Removes the text of the given regions from a page: glyph masks (not whole boxes), filled from
 * the surrounding background (see fill.ts), written as the mask and the clean plate. Then each
 * cleaned region is read again by OCR; confident words there flag it as `leftover`.
 */
export async function inpaintPage(env: { FILES: R2Bucket; MODELS: R2Bucket }, input: InpaintInput): Promise<InpaintResult> {
  const started = Date.now();
  const img = await loadPageBase(env.FILES, input.pageKey, input.sourceKey, input.page);
  const { width, height } = img;
  if (width * height > ROOMY_PIXELS) releaseEngines();
  const mask = new Uint8Array(width * height);
  // Every region's glyphs are found before any is filled, so no fill copies texture from text.
  const found = input.regions.map((r) => maskRegion(img, r, mask));
  input.regions.forEach((r, i) => dilate(mask, width, found[i]!.area, Math.max(1, Math.round(lineHeightOf(r) * 0.06)) + 1));
  const masked = input.regions.map((r, i) => fillArea(img, mask, found[i]!.area, found[i]!.zones, Math.max(2, Math.round(lineHeightOf(r) * 0.35))));
  const clean = encodeRgba(img, "png");
  for (let i = 0; i < mask.length; i++) mask[i] = mask[i] ? 255 : 0;
  await writeObject(env.FILES, input.cleanKey, clean, "image/png");
  await writeObject(env.FILES, input.maskKey, await encodeGrayPng({ width, height, data: mask }), "image/png");
  const inpaintMs = Date.now() - started;

  const checked = Date.now();
  const languages = await checkLanguages(env.MODELS, input.languages);
  const gray = { width, height, data: lumaOf(img) };
  const leftovers: string[] = [];
  for (const r of input.regions) leftovers.push(languages.length ? await leftoverText(env.MODELS, gray, r.box, languages) : "");
  return {
    maskKey: input.maskKey,
    cleanKey: input.cleanKey,
    width,
    height,
    regions: input.regions.map((_, i) => ({ masked: masked[i]!, leftover: leftovers[i]!.length > 0, leftoverText: leftovers[i]!, style: found[i]!.style })),
    ms: { inpaint: inpaintMs, check: Date.now() - checked },
  };
}
