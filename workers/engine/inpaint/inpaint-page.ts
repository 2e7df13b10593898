import type { InpaintInput, InpaintRegionResult, InpaintResult, PageTransform } from "../../shared/engine-contract";
import { erasePictureText, type ErasedBlock } from "../picture/erase-blocks";
import { readPageMeta } from "../storage/page-meta";
import { pictureGray } from "../picture/reading-light";
import { encodeGrayPng } from "../image/png";
import { makeRoomFor } from "../memory";
import { writeObject } from "../storage/r2";
import { eraseLyingText } from "./erase-lying";
import { readingPage } from "../picture/scan-skew";
import { fillHoles } from "./fill";
import { checkLanguages, leftoverWords } from "./leftover";
import { removeLeftover, rgbOf } from "./leftover-pass";
import { dilate, lineHeightOf, maskRegion, regionInk, zonesOf } from "./mask";
import type { Rect } from "./rect";
import { checkPlate } from "./plate-check";
import { encodeRgba, loadPageBase, lumaOf } from "./rgba";
import { confirmText, TEXTURED } from "./text-evidence";
import { loadPageGray } from "../ocr/page-raster";
import { luma, type GrayImage, type RgbaImage } from "../image/gray";

/** Each region's result in input order: a picture's lettering removed by its blocks, the others by glyph masks. */
function mergeResults(lettered: (ErasedBlock | null)[], masked: InpaintRegionResult[]): InpaintRegionResult[] {
  let k = 0;
  return lettered
    .map((l) => l && { masked: l.masked, leftover: false, leftoverText: "", smear: false, smearShare: 0, style: l.style })
    .map((r) => r ?? masked[k++]!);
}

/** Luma below which a region's text colour is dark text (on a lighter ground). */
const DARK_TEXT = 100;
const darkText = (color: string | undefined) => {
  if (!color) return false;
  const [r, g, b] = rgbOf(color);
  return luma(r, g, b) < DARK_TEXT;
};

/** Pixels the mask grows by around strokes of the given thickness: 2 for thin text, up to 4 for heavy strokes. */
const haloOf = (stroke: number) => Math.min(3, Math.max(1, Math.round(stroke * 0.3))) + 1;

/** A picture's lettering erased by its text blocks, found as its reading in `languages` found them: on the page it was read on (a photo's page made flat, a scan turned level). */
function erasePicture(
  img: RgbaImage,
  transform: PageTransform | null,
  regions: InpaintInput["regions"],
  mask: Uint8Array,
  languages: string[],
) {
  const gray = { width: img.width, height: img.height, data: lumaOf(img) };
  const flat = readingPage(transform);
  return flat
    ? eraseLyingText(img, gray, transform!, flat, regions, mask, languages)
    : erasePictureText(img, pictureGray(gray, transform), regions, mask, languages);
}

/**
 * Removes the text of the given regions from a page: glyph masks (not whole boxes, see mask.ts)
 * grown by the anti-aliasing halo, filled from the close neighbourhood (fast marching, fill.ts),
 * written as the mask and the clean plate. Each region's fill is compared with the background
 * around it (`smear`, plate-check.ts), then each cleaned region is read again by OCR: confident
 * words there are removed once more (leftover-pass.ts), and words still read after that flag it
 * as `leftover`.
 */
export async function inpaintPage(env: { FILES: R2Bucket; MODELS: R2Bucket }, input: InpaintInput): Promise<InpaintResult> {
  const started = Date.now();
  const stages: Record<string, number> = {};
  let lap = started;
  const stage = (name: string) => {
    const now = Date.now();
    stages[name] = (stages[name] ?? 0) + now - lap;
    lap = now;
  };
  const img = await loadPageBase(env.FILES, input.pageKey, input.sourceKey, input.page);
  stage("load");
  const { width, height } = img;
  makeRoomFor(width * height);
  const mask = new Uint8Array(width * height);
  // A picture's lettering is removed by its text blocks' marks; regions outside any block, and
  // documents' regions, by the glyph masks below.
  const meta = await readPageMeta(env.FILES, input.pageKey);
  const lettered =
    meta.path === "picture" ? erasePicture(img, meta.transform, input.regions, mask, input.languages ?? []) : input.regions.map(() => null);
  const regions = input.regions.filter((_, i) => !lettered[i]);
  stage("lettering");
  // Every region's glyphs are found before any is filled, and no region's text is taken for background.
  const guide = new Uint8Array(width * height);
  const blocked = regions.flatMap((r) => zonesOf(r, width, height));
  const inks = regions.map((r) => regionInk(img, r, blocked, guide));
  stage("mask");
  // On textured pages only ink inside words read as text is removed (text-evidence.ts).
  const languages = await checkLanguages(env.MODELS, input.languages);
  const given = regions.map((r) => r.words);
  // A photographed document's lines read in part are read again on its page as recognition read it, light evened out.
  const page = { width, height, data: lumaOf(img) };
  let evened: Promise<GrayImage> | undefined;
  const reading = meta.path === "ocr" && meta.transform?.shading ? () => (evened ??= loadPageGray(env.FILES, input.pageKey)) : undefined;
  const evidence = await confirmText(env.MODELS, img, page, inks, languages, guide, given, reading);
  stage("textCheck");
  const found = regions.map((r, i) => maskRegion(img, r, inks[i]!, mask));
  // Whole pixels: line heights may be fractional (boxes of a scaled reading), indexes may not.
  const pad = (z: Rect, by: number): Rect => {
    const b = Math.ceil(by);
    return { x0: Math.max(0, z.x0 - b), y0: Math.max(0, z.y0 - b), x1: Math.min(width, z.x1 + b), y1: Math.min(height, z.y1 + b) };
  };
  // The halo (anti-aliasing, JPEG ringing) grows with the stroke, not with the line box: a block
  // detected as one tall "line" would otherwise swallow its glyphs' surroundings.
  const halos = found.map((f) => haloOf(f.stroke));
  const glyphs = mask.slice();
  regions.forEach((_, i) => {
    for (const z of found[i]!.zones) dilate(glyphs, mask, width, pad(z, halos[i]!), halos[i]!);
  });
  const hole = mask.slice();
  stage("mask");
  // Smooth backgrounds from a radius of 3 (gradients continue exactly whatever the radius; a
  // larger one costs its square), textured ones by patches searched a few line heights' worth.
  regions.forEach((r, i) => {
    const lh = lineHeightOf(r);
    found[i]!.zones.forEach((z, k) => {
      const textured = inks[i]!.inks[k]!.texture > TEXTURED;
      fillHoles(img, hole, pad(z, lh), textured ? Math.min(6, Math.max(3, Math.round(lh * 0.08))) : 3, guide, textured);
    });
  });
  stage("fill");
  // A hole's middle lies half its width from real background: the check looks as far as a whole
  // stroke with the widest halo (another region's may cover the same glyphs).
  const plates = found.map((f) => checkPlate(img, mask, f.zones, Math.ceil(f.stroke) + 2 * haloOf(Infinity) + 2));
  stage("plateCheck");
  // Each cleaned region is read again; words still read there are searched for ink once more on
  // the clean plate and removed (leftover-pass.ts), and only what reads after that is flagged.
  let checkMs = 0;
  let gray = { width, height, data: lumaOf(img) };
  const read = async (i: number) => {
    const t = Date.now();
    const words = await leftoverWords(
      env.MODELS,
      gray,
      regions[i]!.box,
      languages,
      evidence.checked ? evidence.text[i] : undefined,
      darkText(found[i]!.style.color),
    );
    checkMs += Date.now() - t;
    return words;
  };
  const leftovers: string[] = [];
  for (const i of regions.keys()) {
    let words = languages.length ? await read(i) : [];
    const f = found[i]!;
    lap = Date.now();
    // Only words on the region's text zones are removed again: text elsewhere in its box was
    // never given as one of its lines (it is flagged, not erased).
    const onZones = words.filter((w) => {
      const cx = w.box.x + w.box.w / 2,
        cy = w.box.y + w.box.h / 2;
      return f.zones.some((z) => cx >= z.x0 && cx < z.x1 && cy >= z.y0 && cy < z.y1);
    });
    if (onZones.length && removeLeftover(img, onZones, f.core ? rgbOf(f.style.color!) : null, halos[i]!, guide, mask)) {
      plates[i] = checkPlate(img, mask, f.zones, Math.ceil(f.stroke) + 2 * haloOf(Infinity) + 2);
      gray = { width, height, data: lumaOf(img) };
      stage("leftoverPass");
      words = await read(i);
    }
    leftovers.push(words.map((w) => w.text).join(" "));
  }
  lap = Date.now();
  const clean = encodeRgba(img, "png");
  for (let i = 0; i < mask.length; i++) mask[i] = mask[i] ? 255 : 0;
  const maskPng = await encodeGrayPng({ width, height, data: mask });
  stage("encode");
  await writeObject(env.FILES, input.cleanKey, clean, "image/png");
  await writeObject(env.FILES, input.maskKey, maskPng, "image/png");
  stage("write");
  const inpaintMs = Date.now() - started - checkMs;

  return {
    maskKey: input.maskKey,
    cleanKey: input.cleanKey,
    width,
    height,
    regions: mergeResults(
      lettered,
      regions.map((_, i) => ({
        masked: plates[i]!.filled,
        leftover: leftovers[i]!.length > 0,
        leftoverText: leftovers[i]!,
        smear: plates[i]!.flagged,
        smearShare: plates[i]!.smear,
        style: found[i]!.style,
      })),
    ),
    ms: { inpaint: inpaintMs, check: checkMs, stages },
    textCheck: { zones: evidence.zones, rejected: evidence.rejected, read: evidence.read },
  };
}
