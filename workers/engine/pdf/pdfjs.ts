import { getDocument, type PDFDocumentProxy } from "pdfjs-dist";
import { MAX_IMAGE_PIXELS } from "../memory";
import * as pdfjsWorker from "pdfjs-dist/build/pdf.worker.mjs";
// pdf.js decodes CCITT and JBIG2 (jbig2.wasm) and JPEG 2000 (openjpeg.wasm) images with wasm.
// workerd refuses to compile wasm from bytes at run time, so both are imported as compiled
// modules (wrangler's CompiledWasm rule) and instantiated from there.
import jbig2Wasm from "../../../node_modules/pdfjs-dist/wasm/jbig2.wasm";
import openjpegWasm from "../../../node_modules/pdfjs-dist/wasm/openjpeg.wasm";

// No Worker threads in workerd: pdf.js runs its parser in this isolate (its "fake worker"),
// taking the message handler from this global instead of importing a script by URL.
(globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = pdfjsWorker;

const MODULES: Record<string, WebAssembly.Module> = { "jbig2.wasm": jbig2Wasm, "openjpeg.wasm": openjpegWasm };
const TAG = "lingoscan-wasm:";

/**
 * pdf.js asks its `BinaryDataFactory` for a decoder's wasm bytes, then calls
 * `WebAssembly.instantiate(bytes, imports)`. The factory answers with a small tag naming the
 * file; the wrapped `instantiate` below recognises the tag and instantiates the imported module.
 * Any other call goes to the original `instantiate` unchanged.
 */
class CompiledWasmFactory {
  async fetch({ kind, filename }: { kind: string; filename: string }): Promise<Uint8Array> {
    if (kind !== "wasmUrl" || !MODULES[filename]) throw new Error(`No ${kind} data ${filename} is bundled with the engine.`);
    return new TextEncoder().encode(TAG + filename);
  }
}

function taggedModule(source: unknown): WebAssembly.Module | null {
  if (!(source instanceof Uint8Array) || source.length > 64) return null;
  const text = new TextDecoder().decode(source);
  return text.startsWith(TAG) ? (MODULES[text.slice(TAG.length)] ?? null) : null;
}

const originalInstantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async function instantiate(source: unknown, imports?: WebAssembly.Imports) {
  const module = taggedModule(source);
  if (!module) return (originalInstantiate as (s: unknown, i?: WebAssembly.Imports) => Promise<unknown>).call(WebAssembly, source, imports);
  return { module, instance: await originalInstantiate.call(WebAssembly, module, imports ?? {}) };
} as typeof WebAssembly.instantiate;

export type { PDFDocumentProxy, PDFPageProxy } from "pdfjs-dist";

/** Opens a PDF with pdf.js in this isolate, with its wasm image decoders available. */
export function loadPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  return getDocument({
    // pdf.js takes ownership of the buffer it is given: hand it a copy.
    data: bytes.slice(),
    useSystemFonts: false,
    disableFontFace: true,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    stopAtErrors: false,
    useWasm: true,
    useWorkerFetch: false,
    BinaryDataFactory: CompiledWasmFactory,
    verbosity: 0,
    // Second line of the decompression-bomb guard (assertPageImagesFit checks dictionaries first,
    // where pdf-lib can read them): pdf.js decodes no image above the engine's pixel limit.
    maxImageSize: MAX_IMAGE_PIXELS,
  }).promise;
}
