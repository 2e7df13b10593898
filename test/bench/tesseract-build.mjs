// The tesseract WebAssembly build a Node-side benchmark reads with: the engine's own
// (workers/engine/ocr/wasm, relaxed SIMD where Node's V8 validates it, as the engine picks in
// workerd), or with WASM=package the tesseract-wasm 0.11 package the engine used before, for
// comparison. KERNEL=simd128 forces the engine build's plain-SIMD module; WASM_FILE=<path> reads with
// another module of the engine build (one an earlier commit shipped: before-and-after figures).
import { readFileSync } from "node:fs";
import path from "node:path";
import { root } from "../../scripts/models.mjs";
import { MODULE_FILES, relaxedSimdSupported, TesseractEngine } from "../../workers/engine/ocr/wasm/tesseract-module.ts";

const usePackage = process.env.WASM === "package";
const kernel = process.env.KERNEL ?? (relaxedSimdSupported() ? "relaxed-simd" : "simd128");
if (!usePackage && !MODULE_FILES[kernel]) throw new Error(`KERNEL=${kernel}: not one of ${Object.keys(MODULE_FILES).join(", ")}`);

const moduleFile = process.env.WASM_FILE ?? path.join(root, "workers/engine/ocr/wasm", MODULE_FILES[kernel] ?? "");
/** What the benchmark reads with, for its report. */
export const benchBuild = usePackage
  ? "tesseract-wasm 0.11 (package)"
  : `engine build, tesseract 5.3.0, ${kernel}, ${path.basename(moduleFile)}`;

let compiled = null;

/** A new engine of the benchmark's build (one per model: a second model in one engine reads wrong). */
export async function createBenchEngine() {
  if (usePackage) {
    const { createOCREngine } = await import("../../node_modules/tesseract-wasm/dist/lib.js");
    return createOCREngine({ wasmBinary: readFileSync(path.join(root, "node_modules/tesseract-wasm/dist/tesseract-core.wasm")) });
  }
  compiled ??= await WebAssembly.compile(readFileSync(moduleFile));
  return TesseractEngine.create({ module: compiled, kernel });
}
