import { PhotonImage } from "@cf-wasm/photon";
import { env } from "cloudflare:workers";
import { inject } from "vitest";
import { type InpaintRegion, type PageText, parseEngineError } from "../../workers/shared/engine-contract";
import { seedOcrModels } from "../engine/helpers";
import { writeTiff } from "../engine/tiff-writer.mjs";

const fromB64 = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));

/** An image as a one-page RGB TIFF, LZW-compressed, as a scanner saves a colour page. */
export function rgbTiff(img: Rgba): Uint8Array {
  const rgb = new Uint8Array(img.width * img.height * 3);
  for (let i = 0, j = 0; i < rgb.length; i += 3, j += 4) rgb.set(img.data.subarray(j, j + 3), i);
  return writeTiff([{ width: img.width, height: img.height, samples: 3, pixels: rgb, compression: "lzw", rowsPerStrip: 64 }]);
}

/** A scene of fixtures-global-setup.ts: the page with text and its background alone. */
export function scene(name: string): { page: Uint8Array; background: Uint8Array } {
  const s = inject("renderScenes")[name];
  if (!s) throw new Error(`no render scene ${name}`);
  return { page: fromB64(s.page), background: fromB64(s.background) };
}

/**
 * A clean-plate scene of fixtures-global-setup.ts (plates.mjs): the page with text and its
 * background alone; large ones come from its loopback server.
 */
export async function plate(name: string): Promise<{ page: Uint8Array; background: Uint8Array }> {
  const s = inject("plateScenes")[name];
  if (s) return { page: fromB64(s.page), background: fromB64(s.background) };
  const get = async (part: string) => {
    const res = await fetch(`${inject("largeScenesUrl")}/${name}/${part}`);
    if (!res.ok) throw new Error(`no clean-plate scene ${name} (${res.status})`);
    return new Uint8Array(await res.arrayBuffer());
  };
  return { page: await get("page"), background: await get("background") };
}

/** Seeds what these tests need beyond the shared seed: the given OCR models and other MODELS files (fonts, word lists; by default the CJK font). */
export async function seedModels(languages: string[] = [], files = ["fonts/NotoSansSC-Regular.ttf"]): Promise<void> {
  await seedOcrModels(languages);
  for (const key of files) {
    if (await env.MODELS.head(key)) continue;
    const res = await fetch(`${inject("readersUrl")}/models/${encodeURIComponent(key)}`);
    if (!res.ok) throw new Error(`the readers server has no ${key}: ${res.status}`);
    await env.MODELS.put(key, await res.arrayBuffer());
  }
}

export interface Rgba {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Mean absolute difference of the colour channels (R, G, B) of two images of one size. */
export function meanDiff(a: Rgba, b: Rgba): number {
  let d = 0;
  for (let i = 0; i < a.data.length; i++) if (i % 4 !== 3) d += Math.abs(a.data[i]! - b.data[i]!);
  return d / ((a.data.length / 4) * 3);
}

export function decode(bytes: Uint8Array): Rgba {
  const img = PhotonImage.new_from_byteslice(bytes);
  try {
    return { width: img.get_width(), height: img.get_height(), data: img.get_raw_pixels() };
  } finally {
    img.free();
  }
}

export async function decodeKey(key: string): Promise<Rgba> {
  const obj = await env.FILES.get(key);
  if (!obj) throw new Error(`nothing at ${key}`);
  return decode(new Uint8Array(await obj.arrayBuffer()));
}

/**
 * How far a cleaned image is from the true background inside the boxes: the mean absolute channel
 * difference, and the share of pixels off by more than 60 (what a smear or a stroke remnant is).
 */
export function difference(a: Rgba, b: Rgba, boxes: { x: number; y: number; w: number; h: number }[]): { mean: number; bad: number } {
  let sum = 0,
    n = 0,
    bad = 0;
  for (const box of boxes) {
    for (let y = Math.max(0, Math.floor(box.y)); y < Math.min(a.height, Math.ceil(box.y + box.h)); y++) {
      for (let x = Math.max(0, Math.floor(box.x)); x < Math.min(a.width, Math.ceil(box.x + box.w)); x++) {
        const i = (y * a.width + x) * 4;
        let worst = 0;
        for (let c = 0; c < 3; c++) {
          const d = Math.abs(a.data[i + c]! - b.data[i + c]!);
          sum += d;
          worst = Math.max(worst, d);
        }
        n += 3;
        if (worst > 60) bad++;
      }
    }
  }
  return { mean: sum / Math.max(1, n), bad: bad / Math.max(1, n / 3) };
}

/** Inpainting input from recognition: each region's box and its line boxes. */
export function regionsOf(text: PageText): InpaintRegion[] {
  return text.regions.map((r) => ({ box: r.box, lines: r.lines.map((l) => l.box), vertical: !!r.vertical, frame: r.frame }));
}

export async function pageText(key: string): Promise<PageText> {
  const obj = await env.FILES.get(key);
  if (!obj) throw new Error(`no page text at ${key}`);
  return (await obj.json()) as PageText;
}

/**
 * OCR of an image already in FILES (a clean plate or a rendered page). A plate on which nothing
 * reads at all (the engine's `no_text_found`) gives an empty reading.
 */
export async function readBack(imageKey: string, languages: string[]): Promise<PageText> {
  try {
    const rec = await env.ENGINE.recognize({ pageKey: imageKey, languages, outKey: `${imageKey}.ocr.json` });
    return pageText(rec.key);
  } catch (err) {
    if (!String(err).includes("[no_text_found]")) throw err;
    return { width: 0, height: 0, languages, text: "", confidence: 0, regions: [] };
  }
}

/** Bounding box of the pixels that differ from the background by more than `t` inside a rectangle. */
export function inkBox(img: Rgba, bg: Rgba, area: { x: number; y: number; w: number; h: number }, t = 80) {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -1,
    y1 = -1,
    n = 0;
  for (let y = area.y; y < area.y + area.h; y++) {
    for (let x = area.x; x < area.x + area.w; x++) {
      const i = (y * img.width + x) * 4;
      const d = Math.max(
        Math.abs(img.data[i]! - bg.data[i]!),
        Math.abs(img.data[i + 1]! - bg.data[i + 1]!),
        Math.abs(img.data[i + 2]! - bg.data[i + 2]!),
      );
      if (d > t) {
        n++;
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
    }
  }
  return { n, x0, y0, x1, y1 };
}

/** A PNG upload with processing options, as POST /process takes it. */
export function upload(bytes: Uint8Array, name: string, options: Record<string, unknown>): FormData {
  const form = new FormData();
  form.append("file", new File([bytes], name, { type: "image/png" }));
  form.append("options", JSON.stringify(options));
  return form;
}

/**
 * Reads an image with the engine's recogniser (as a user would read the result): empty when the
 * engine finds no text (`no_text_found`: ink, but nothing readable).
 */
export async function ocr(bytes: Uint8Array, key: string, languages: string[]): Promise<string> {
  await env.FILES.put(key, bytes);
  try {
    const rec = await env.ENGINE.recognize({ pageKey: key, languages, outKey: `${key}.json` });
    return ((await (await env.FILES.get(rec.key))!.json()) as { text: string }).text;
  } catch (err) {
    if (parseEngineError(err)?.code === "no_text_found") return "";
    throw err;
  }
}

/** Mean chroma (max − min of R, G, B) over the image's pixels. */
export function chroma(img: Rgba): number {
  let sum = 0;
  for (let i = 0; i < img.data.length; i += 4) {
    const r = img.data[i]!,
      g = img.data[i + 1]!,
      b = img.data[i + 2]!;
    sum += Math.max(r, g, b) - Math.min(r, g, b);
  }
  return sum / (img.data.length / 4);
}
