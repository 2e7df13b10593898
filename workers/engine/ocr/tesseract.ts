// The engine's own tesseract build (scripts/build-tesseract.mjs). wrangler's CompiledWasm rule hands
// both modules over compiled (workerd refuses to compile wasm from bytes at run time); the engine
// runs the relaxed-SIMD one where the runtime validates relaxed SIMD, the plain-SIMD one elsewhere.
import relaxedModule from "./wasm/tesseract-relaxed.wasm";
import simdModule from "./wasm/tesseract-simd.wasm";
import {
  chooseModule,
  MODULE_FILES,
  TESSERACT_VERSION,
  TesseractEngine,
  type TesseractBuild,
  type TesseractModule,
} from "./wasm/tesseract-module";
import { engineError } from "../errors";
import { MAX_OCR_ENGINES, OCR_HEAP_BUDGET, OCR_PAGE_HEAP_ESTIMATE, registerCache } from "../memory";
import { modelKey } from "./models";
import { ocrModel } from "../../shared/ocr-models";

/**
 * The page segmentation mode a model reads pages with: automatic layout (3), except for
 * - vertical models: one block of vertical text (5). The engine's tesseract is built without the legacy
 *   engine, and tesseract 5.3 compiles the detection of vertical text in automatic layout
 *   (SetupPageSegAndDetectOrientation) out with it: automatic layout reads the columns unturned,
 *   as garbage. Mode 5 turns the block in the text ordering itself, so it reads them as native
 *   tesseract does (the same characters on the bench pages; see `readColumns` for kor_vert).
 * - Hangul, whose lines tesseract's automatic layout mostly drops (native tesseract alike: 1 line
 *   of 8 on clean pages at 150–300 dpi); those pages are read as one column of text (4), which
 *   reads them whole.
 */
export function pageSegmentation(language: string): string {
  const m = ocrModel(language);
  return m?.vertical ? "5" : m?.script === "Hangul" ? "4" : "3";
}

/** A tesseract instance with one language loaded (loading a second model corrupts results). */
export interface CachedEngine {
  language: string;
  engine: TesseractEngine;
  memory: WebAssembly.Memory | null;
  lastUsed: number;
}

/**
 * Engines are kept per isolate while the heaps, plus room for one page's growth in the engine
 * about to run, fit the OCR heap budget (memory.ts); least recently used ones are evicted first.
 * In practice one large engine stays warm; two only while small.
 */

const engines = new Map<string, CachedEngine>();
const pending = new Map<string, Promise<CachedEngine>>();

export function heapBytes(e: CachedEngine): number {
  return e.memory?.buffer.byteLength ?? 0;
}

let chosen: TesseractModule | null = null;

/** The module this isolate runs, chosen once by feature detection. */
function engineModule(): TesseractModule {
  chosen ??= chooseModule({ "relaxed-simd": relaxedModule, simd128: simdModule });
  return chosen;
}

/** Which tesseract build the engines of this isolate load (the health check reports it). */
export function tesseractBuild(): TesseractBuild & { module: string } {
  const m = engineModule();
  return { kernel: m.kernel, tesseract: TESSERACT_VERSION, module: MODULE_FILES[m.kernel] };
}

async function instantiateEngine(): Promise<{ engine: TesseractEngine; memory: WebAssembly.Memory | null }> {
  const engine = await TesseractEngine.create(engineModule());
  return { engine, memory: engine.memory };
}

/** Fetches and gunzips a traineddata model from R2 MODELS. */
async function loadModelBytes(models: R2Bucket, language: string): Promise<Uint8Array> {
  const obj = await models.get(modelKey(language));
  if (!obj) throw engineError("unsupported_language", `No OCR model is installed for language ${JSON.stringify(language)}.`);
  const gz = new Uint8Array(await obj.arrayBuffer());
  if (gz[0] !== 0x1f || gz[1] !== 0x8b) return gz; // stored uncompressed
  const stream = new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function evict(language: string): void {
  const e = engines.get(language);
  engines.delete(language);
  try {
    e?.engine.destroy();
  } catch {
    // a trapped instance cannot be cleaned up; dropping the reference frees its heap
  }
}

// Every cached engine is dropped when a large decode or fill needs the room.
registerCache(() => {
  for (const language of [...engines.keys()]) evict(language);
});

/** Drops an engine that failed mid-recognition: its heap may be inconsistent. */
export function discardEngine(language: string): void {
  evict(language);
}

/**
 * Evicts least recently used engines other than `keep` (null: an engine about to be created)
 * until, counting `keep`, at most MAX_OCR_ENGINES remain and the others' heaps plus `keep`'s heap
 * after a page fit the budget.
 */
function trim(keep: string | null): void {
  const kept = keep ? engines.get(keep) : undefined;
  const running = Math.max(kept ? heapBytes(kept) : 0, OCR_PAGE_HEAP_ESTIMATE);
  const others = [...engines.values()].filter((e) => e.language !== keep).sort((a, b) => a.lastUsed - b.lastUsed);
  let total = others.reduce((n, e) => n + heapBytes(e), 0);
  let count = others.length;
  for (const e of others) {
    if (count + 1 <= MAX_OCR_ENGINES && total + running <= OCR_HEAP_BUDGET) break;
    evict(e.language);
    total -= heapBytes(e);
    count--;
  }
}

async function createEngine(models: R2Bucket, language: string): Promise<CachedEngine> {
  const model = await loadModelBytes(models, language);
  trim(null); // make room before allocating a new heap
  const { engine, memory } = await instantiateEngine();
  try {
    engine.loadModel(model);
  } catch (err) {
    engine.destroy();
    throw engineError("ocr_failed", `The OCR model for ${language} failed to load: ${err instanceof Error ? err.message : String(err)}`);
  }
  return { language, engine, memory, lastUsed: Date.now() };
}

/** The isolate's engine for `language`, created (model from R2 MODELS) on first use. */
export async function getEngine(models: R2Bucket, language: string): Promise<CachedEngine> {
  const cached = engines.get(language);
  if (cached) {
    cached.lastUsed = Date.now();
    trim(language);
    return cached;
  }
  let p = pending.get(language);
  if (!p) {
    p = createEngine(models, language).finally(() => pending.delete(language));
    pending.set(language, p);
  }
  const created = await p;
  engines.set(language, created);
  created.lastUsed = Date.now();
  trim(language);
  return created;
}

/** The largest wasm heap among the isolate's cached engines, bytes. */
export function largestHeap(): number {
  let n = 0;
  for (const e of engines.values()) n = Math.max(n, heapBytes(e));
  return n;
}

/** Any cached engine (layout analysis needs no particular model), most recently used first. */
export function anyCachedEngine(): CachedEngine | null {
  let best: CachedEngine | null = null;
  for (const e of engines.values()) if (!best || e.lastUsed > best.lastUsed) best = e;
  return best;
}

/** After a page: evict other engines if this one's heap grew. */
export function afterPage(language: string): void {
  trim(language);
}

/** Hands an RGBA raster to tesseract. */
export function loadRaster(engine: TesseractEngine, image: { data: Uint8ClampedArray; width: number; height: number }): void {
  if (image.data.byteOffset !== 0 || image.data.buffer.byteLength !== image.width * image.height * 4) {
    throw new Error("tesseract needs a pixel buffer of exactly width*height*4 bytes at offset 0");
  }
  engine.loadImage(image);
}
