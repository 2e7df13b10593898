import { env } from "cloudflare:workers";
import { inject } from "vitest";
import { parseEngineError, type PageText } from "../../workers/shared/engine-contract";

/** A fixture rendered by fixtures-global-setup.ts, as bytes. */
export function fixture(name: string): Uint8Array {
  const b64 = inject("engineFixtures")[name];
  if (!b64) throw new Error(`no engine fixture ${name}`);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

/** A picture of test/fixtures/pictures (served by the readers server: too large to hand over with the real fixtures). */
export async function picture(name: string): Promise<Uint8Array> {
  const res = await fetch(`${inject("readersUrl")}/pictures/${name}`);
  if (!res.ok) throw new Error(`no picture ${name}: ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

/** A real document from test/fixtures/real (origins in its README), as bytes. */
export function realFixture(name: string): Uint8Array {
  const b64 = inject("realFixtures")[name];
  if (!b64) throw new Error(`no real fixture ${name}`);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

/** A real fixture's text (reference transcriptions shipped with the documents). */
export function realText(name: string): string {
  return new TextDecoder().decode(realFixture(name));
}

/**
 * Seeds OCR models beyond the shared setup's eng: those of the test texts, served by the readers
 * server (test/exports/tools-global-setup.ts; too large to hand over with `provide`).
 */
export async function seedOcrModels(languages: string[]): Promise<void> {
  for (const lang of languages) {
    const key = `tessdata/${lang}.traineddata.gz`;
    if (await env.MODELS.head(key)) continue;
    const res = await fetch(`${inject("readersUrl")}/models/${encodeURIComponent(key)}`);
    if (!res.ok) throw new Error(`the readers server has no ${key}: ${res.status}`);
    await env.MODELS.put(key, await res.arrayBuffer());
  }
}

export async function put(key: string, bytes: Uint8Array | string): Promise<string> {
  await env.FILES.put(key, bytes);
  return key;
}

export async function failure(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (err) {
    const parsed = parseEngineError(err);
    if (!parsed) throw new Error(`uncoded engine error: ${String(err)}`);
    return parsed;
  }
  throw new Error("expected the call to fail");
}

export async function pageText(key: string): Promise<PageText> {
  const obj = await env.FILES.get(key);
  if (!obj) throw new Error(`no page text at ${key}`);
  return (await obj.json()) as PageText;
}

/** preprocess → recognize for one page; returns both results and the page text. */
export async function readPage(name: string, sourceKey: string, page: number, languages: string[]) {
  const pre = await env.ENGINE.preprocess({ sourceKey, page, outKey: `work/${name}/page-${page}.png`, languages });
  const rec = await env.ENGINE.recognize({ pageKey: pre.key, languages, outKey: `work/${name}/text-${page}.json` });
  return { pre, rec, text: await pageText(rec.key) };
}

/** A bucket without models: any reading from it fails (shows that a path reads nothing). */
export const NO_MODELS = { get: async () => null, head: async () => null } as unknown as R2Bucket;
