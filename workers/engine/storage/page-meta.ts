import type { PagePath, PageText, PageTransform } from "../../shared/engine-contract";
import { engineError } from "../errors";
import { readJson } from "./r2";

/**
 * What preprocess learnt about a page, kept as R2 custom metadata on the normalised page image so
 * that detect, recognize, extractTables and reocr (which get only the image's key) follow the same
 * path: the text layer's `PageText` sits beside the image.
 */
export interface PageMeta {
  path: PagePath;
  transform: PageTransform | null;
  textLayerKey: string | null;
  /** The model the page was found written in while it was turned upright (`NormalisedPage.pageLanguage`; absent when it was turned). */
  pageLanguage?: string;
  /** The page image's etag: what a reading kept beside it was made from. */
  etag: string;
}

/** A page's text read by `detect`, kept for `recognize`: valid for the same image and languages. */
export interface KeptReading {
  etag: string;
  /** The languages asked for, and those read (`auto` resolved). */
  requested: string[];
  languages: string[];
  page: PageText;
}

export function readingKeyFor(pageKey: string): string {
  return `${pageKey}.reading.json`;
}

/** The reading `detect` kept for this page image and these languages, if any. */
export async function keptReading(files: R2Bucket, pageKey: string, meta: PageMeta, languages: string[]): Promise<KeptReading | null> {
  const obj = await files.get(readingKeyFor(pageKey));
  if (!obj) return null;
  const kept = await obj.json<KeptReading>();
  return kept.etag === meta.etag && kept.requested.join("+") === languages.join("+") ? kept : null;
}

export function textLayerKeyFor(pageKey: string): string {
  return `${pageKey}.text-layer.json`;
}

export function pageMetadata(
  path: PagePath,
  transform: PageTransform,
  textLayerKey: string | null,
  pageLanguage?: string,
): Record<string, string> {
  return {
    path,
    transform: JSON.stringify(transform),
    ...(textLayerKey ? { textLayerKey } : {}),
    ...(pageLanguage ? { pageLanguage } : {}),
  };
}

/** Pixels per inch of the normalised page image, where its source's resolution is known (`PageTransform.resolution`). */
export function pageResolution(transform: PageTransform | null): number | undefined {
  return transform?.resolution ? transform.resolution * transform.scale : undefined;
}

/** The page's metadata; images not written by preprocess are plain `ocr` pages. */
export async function readPageMeta(files: R2Bucket, pageKey: string): Promise<PageMeta> {
  const head = await files.head(pageKey);
  if (!head) throw engineError("not_found", `No page image at key ${JSON.stringify(pageKey)}.`);
  const m = head.customMetadata ?? {};
  const path: PagePath = m.path === "text_layer" || m.path === "rasterized" || m.path === "picture" ? m.path : "ocr";
  let transform: PageTransform | null = null;
  try {
    transform = m.transform ? (JSON.parse(m.transform) as PageTransform) : null;
  } catch {
    transform = null;
  }
  return {
    path,
    transform,
    textLayerKey: m.textLayerKey ?? null,
    etag: head.etag,
    ...(m.pageLanguage ? { pageLanguage: m.pageLanguage } : {}),
  };
}

export async function readTextLayer(files: R2Bucket, meta: PageMeta): Promise<PageText> {
  if (!meta.textLayerKey)
    throw engineError("corrupt_file", "The page was read from a text layer that is no longer stored; preprocess it again.");
  return readJson<PageText>(files, meta.textLayerKey, "text layer");
}
