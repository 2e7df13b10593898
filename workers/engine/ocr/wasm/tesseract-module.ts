/**
 * The engine's own tesseract WebAssembly build (scripts/build-tesseract.mjs: tesseract 5.3.0 and
 * Leptonica 1.82.0, the versions of the native tesseract the benchmarks compare with) and the
 * class that drives it, with tesseract-wasm 0.11's OCREngine interface.
 *
 * Two modules: int8 LSTM products on relaxed SIMD (tesseract-relaxed.wasm), and the same on plain
 * SIMD128 (tesseract-simd.wasm) for a runtime that cannot validate relaxed SIMD. This file imports
 * neither: the engine (ocr/tesseract.ts) imports both compiled, benchmarks in Node compile them.
 */

export type TextUnit = "line" | "word";
export interface IntRect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}
export interface BoxItem {
  rect: IntRect;
  flags: number;
}
export interface TextItem extends BoxItem {
  confidence: number;
  text: string;
}
export interface Orientation {
  rotation: number;
  confidence: number;
}
/** A raster as tesseract takes it: RGBA, 4 bytes a pixel (the DOM ImageData shape). */
export interface RasterImage {
  data: Uint8ClampedArray | Uint8Array;
  width: number;
  height: number;
}

/** Which module an engine runs, for the health check. */
export interface TesseractBuild {
  /** "relaxed-simd" or "simd128": the int8 kernel the loaded module was built with. */
  kernel: string;
  /** tesseract's version string. */
  tesseract: string;
}

// (module (func (result v128) v128.const 0 v128.const 0 v128.const 0 i32x4.relaxed_dot_i8x16_i7x16_add_s))
const ZERO16 = new Array<number>(16).fill(0);
const RELAXED_SIMD_PROBE = Uint8Array.from([
  0,
  97,
  115,
  109,
  1,
  0,
  0,
  0,
  1,
  5,
  1,
  96,
  0,
  1,
  123,
  3,
  2,
  1,
  0,
  10,
  61,
  1,
  59,
  0,
  253,
  12,
  ...ZERO16,
  253,
  12,
  ...ZERO16,
  253,
  12,
  ...ZERO16,
  253,
  147,
  2,
  11,
]);

/** True when the runtime accepts relaxed SIMD's int8 dot product. */
export function relaxedSimdSupported(): boolean {
  try {
    return WebAssembly.validate(RELAXED_SIMD_PROBE);
  } catch {
    return false;
  }
}

/** The tesseract version the modules are built from (each module reports it too: `build.tesseract`). */
export const TESSERACT_VERSION = "5.3.0";

export type Kernel = "relaxed-simd" | "simd128";
/** A compiled module of the build and the int8 kernel it was built with. */
export interface TesseractModule {
  module: WebAssembly.Module;
  kernel: Kernel;
}

/** The module file of each kernel, in this directory. */
export const MODULE_FILES: Record<Kernel, string> = { "relaxed-simd": "tesseract-relaxed.wasm", simd128: "tesseract-simd.wasm" };

/** Relaxed SIMD when the runtime validates it, plain SIMD otherwise. */
export function chooseModule(modules: Record<Kernel, WebAssembly.Module>): TesseractModule {
  const kernel: Kernel = relaxedSimdSupported() ? "relaxed-simd" : "simd128";
  return { module: modules[kernel], kernel };
}

interface Exports {
  memory: WebAssembly.Memory;
  _initialize(): void;
  ocr_kernel(): number;
  ocr_version(): number;
  ocr_malloc(n: number): number;
  ocr_free(p: number): void;
  ocr_create(): number;
  ocr_destroy(e: number): void;
  ocr_load_model(e: number, data: number, size: number): number;
  ocr_set_variable(e: number, name: number, value: number): number;
  ocr_get_variable(e: number, name: number): number;
  ocr_load_image(e: number, rgba: number, width: number, height: number, asNative: number): number;
  ocr_kernel_selftest(seed: number): number;
  ocr_clear_image(e: number): void;
  ocr_bounding_boxes(e: number, unit: number): number;
  ocr_text_boxes(e: number, unit: number): number;
  ocr_text(e: number): number;
  ocr_hocr(e: number): number;
  ocr_orientation(e: number): number;
}

class ExitError extends Error {}

/**
 * The WASI calls the module makes: tesseract writes diagnostics to stderr (forwarded to the
 * console a line at a time) and asks the time; it opens no files (models arrive as bytes).
 */
function wasiImports(memory: () => WebAssembly.Memory): Record<string, (...args: number[]) => number> {
  const ENOSYS = 52;
  const EBADF = 8;
  const decoder = new TextDecoder();
  let line = "";
  const view = () => new DataView(memory().buffer);
  return {
    fd_write(fd, iovs, iovsLen, nwritten) {
      const dv = view();
      let n = 0;
      for (let i = 0; i < iovsLen; i++) {
        const ptr = dv.getUint32(iovs + i * 8, true);
        const len = dv.getUint32(iovs + i * 8 + 4, true);
        if (fd === 1 || fd === 2) line += decoder.decode(new Uint8Array(memory().buffer, ptr, len));
        n += len;
      }
      dv.setUint32(nwritten, n, true);
      let nl: number;
      while ((nl = line.indexOf("\n")) >= 0) {
        const text = line.slice(0, nl);
        line = line.slice(nl + 1);
        if (text.trim()) console.warn(`tesseract: ${text}`);
      }
      return 0;
    },
    fd_close: () => 0,
    fd_seek: () => ENOSYS,
    fd_read: () => EBADF,
    fd_fdstat_get: (fd, stat) => {
      if (fd > 2) return EBADF;
      const dv = view();
      dv.setUint8(stat, 2); // character device
      dv.setUint16(stat + 2, 0, true);
      dv.setBigUint64(stat + 8, 0n, true);
      dv.setBigUint64(stat + 16, 0n, true);
      return 0;
    },
    fd_fdstat_set_flags: () => ENOSYS,
    fd_prestat_get: () => EBADF,
    fd_prestat_dir_name: () => EBADF,
    fd_filestat_get: () => EBADF,
    path_open: () => 44, // ENOENT
    path_filestat_get: () => 44,
    path_unlink_file: () => 44,
    environ_sizes_get: (count, size) => {
      const dv = view();
      dv.setUint32(count, 0, true);
      dv.setUint32(size, 0, true);
      return 0;
    },
    environ_get: () => 0,
    args_sizes_get: (count, size) => {
      const dv = view();
      dv.setUint32(count, 0, true);
      dv.setUint32(size, 0, true);
      return 0;
    },
    args_get: () => 0,
    clock_res_get: (_id, res) => {
      view().setBigUint64(res, 1000n, true);
      return 0;
    },
    clock_time_get: (_id, _precision, out) => {
      view().setBigUint64(out, BigInt(Math.round(Date.now() * 1e6)), true);
      return 0;
    },
    random_get: (buf, len) => {
      crypto.getRandomValues(new Uint8Array(memory().buffer, buf, len));
      return 0;
    },
    sched_yield: () => 0,
    poll_oneoff: () => ENOSYS,
    proc_raise: () => ENOSYS,
    proc_exit: (code) => {
      throw new ExitError(`tesseract exited (${code})`);
    },
  };
}

/**
 * One tesseract instance in its own WebAssembly instance (its own heap), with tesseract-wasm
 * 0.11's OCREngine methods.
 */
export class TesseractEngine {
  readonly memory: WebAssembly.Memory;
  readonly build: TesseractBuild;
  private readonly x: Exports;
  private engine: number;
  private modelLoaded = false;
  private imageLoaded = false;

  private constructor(instance: WebAssembly.Instance, kernel: string) {
    this.x = instance.exports as unknown as Exports;
    this.memory = this.x.memory;
    this.x._initialize();
    this.engine = this.x.ocr_create();
    const built = this.cString(this.x.ocr_kernel());
    if (built !== kernel) throw new Error(`tesseract module reports kernel ${built}, expected ${kernel}`);
    this.build = { kernel: built, tesseract: this.cString(this.x.ocr_version()) };
  }

  /** Instantiates `choice` and creates an engine in it. */
  static async create(choice: TesseractModule): Promise<TesseractEngine> {
    let memory: WebAssembly.Memory | null = null;
    const wasi = wasiImports(() => memory as WebAssembly.Memory);
    // Any other WASI call (directories, for Leptonica's file utilities) has no file system to reach.
    for (const i of WebAssembly.Module.imports(choice.module)) {
      if (i.module === "wasi_snapshot_preview1" && i.kind === "function") wasi[i.name] ??= () => 52; // ENOSYS
    }
    const instance = await WebAssembly.instantiate(choice.module, { wasi_snapshot_preview1: wasi });
    memory = (instance.exports as unknown as Exports).memory;
    return new TesseractEngine(instance, choice.kernel);
  }

  destroy(): void {
    if (this.engine) this.x.ocr_destroy(this.engine);
    this.engine = 0;
  }

  getVariable(name: string): string {
    const n = this.putString(name);
    const p = this.x.ocr_get_variable(this.live(), n);
    this.x.ocr_free(n);
    if (!p) throw new Error(`Unable to get variable ${name}`);
    const value = this.cString(p);
    this.x.ocr_free(p);
    return value;
  }

  setVariable(name: string, value: string): void {
    const n = this.putString(name);
    const v = this.putString(value);
    const ok = this.x.ocr_set_variable(this.live(), n, v);
    this.x.ocr_free(n);
    this.x.ocr_free(v);
    if (!ok) throw new Error(`Unable to set variable ${name}`);
  }

  loadModel(model: Uint8Array | ArrayBuffer): void {
    const bytes = model instanceof ArrayBuffer ? new Uint8Array(model) : model;
    const p = this.x.ocr_malloc(bytes.length);
    new Uint8Array(this.memory.buffer, p, bytes.length).set(bytes);
    const r = this.x.ocr_load_model(this.live(), p, bytes.length);
    this.x.ocr_free(p);
    if (r !== 0) throw new Error("Text recognition model failed to load");
    this.modelLoaded = true;
  }

  /**
   * `asNative` (the default): tesseract gets the page as native tesseract reads the same picture
   * from a file (a gray page as 8-bit gray). false: as tesseract-wasm 0.11 handed it over (the
   * RGBA bytes as Leptonica words), for comparisons.
   */
  loadImage(image: RasterImage, { asNative = true }: { asNative?: boolean } = {}): void {
    const { width, height } = image;
    if (image.data.length < width * height * 4) throw new Error("Image data length does not match width/height");
    if (width <= 0 || height <= 0) throw new Error("Image width or height is zero");
    // Free the previous image first: lower peak memory.
    this.x.ocr_clear_image(this.live());
    const size = width * height * 4;
    const p = this.x.ocr_malloc(size);
    if (!p) throw new Error("Failed to load image");
    new Uint8Array(this.memory.buffer, p, size).set(new Uint8Array(image.data.buffer, image.data.byteOffset, size));
    const r = this.x.ocr_load_image(this.engine, p, width, height, asNative ? 1 : 0);
    this.x.ocr_free(p);
    if (r !== 0) throw new Error("Failed to load image");
    this.imageLoaded = true;
  }

  clearImage(): void {
    this.x.ocr_clear_image(this.live());
    this.imageLoaded = false;
  }

  getBoundingBoxes(unit: TextUnit): BoxItem[] {
    this.checkImage();
    return this.readBoxes(this.x.ocr_bounding_boxes(this.live(), unitCode(unit)));
  }

  getTextBoxes(unit: TextUnit, onProgress?: (progress: number) => void): TextItem[] {
    this.checkImage();
    this.checkModel();
    const boxes = this.readBoxes(this.x.ocr_text_boxes(this.live(), unitCode(unit)));
    onProgress?.(100);
    return boxes;
  }

  getText(onProgress?: (progress: number) => void): string {
    this.checkImage();
    this.checkModel();
    const text = this.cString(this.x.ocr_text(this.live()));
    onProgress?.(100);
    return text;
  }

  getHOCR(onProgress?: (progress: number) => void): string {
    this.checkImage();
    this.checkModel();
    const hocr = this.cString(this.x.ocr_hocr(this.live()));
    onProgress?.(100);
    return hocr;
  }

  /** Outputs of this module's int8 kernel that differ from tesseract's generic loop (0 when right). */
  kernelSelfTest(seed: number): number {
    return this.x.ocr_kernel_selftest(seed >>> 0);
  }

  getOrientation(): Orientation {
    this.checkImage();
    return { rotation: this.x.ocr_orientation(this.live()), confidence: 1 };
  }

  private live(): number {
    if (!this.engine) throw new Error("The OCR engine was destroyed");
    return this.engine;
  }

  private checkModel(): void {
    if (!this.modelLoaded) throw new Error("No text recognition model loaded");
  }

  private checkImage(): void {
    if (!this.imageLoaded) throw new Error("No image loaded");
  }

  private putString(s: string): number {
    const bytes = new TextEncoder().encode(s);
    const p = this.x.ocr_malloc(bytes.length + 1);
    const mem = new Uint8Array(this.memory.buffer, p, bytes.length + 1);
    mem.set(bytes);
    mem[bytes.length] = 0;
    return p;
  }

  private cString(p: number): string {
    const mem = new Uint8Array(this.memory.buffer);
    let end = p;
    while (mem[end] !== 0) end++;
    return new TextDecoder().decode(mem.subarray(p, end));
  }

  /** Decodes ocr-lib.cpp's box records. */
  private readBoxes(p: number): TextItem[] {
    const dv = new DataView(this.memory.buffer);
    const decoder = new TextDecoder();
    const count = dv.getInt32(p, true);
    let at = p + 4;
    const out: TextItem[] = [];
    for (let i = 0; i < count; i++) {
      const rect = {
        left: dv.getInt32(at, true),
        top: dv.getInt32(at + 4, true),
        right: dv.getInt32(at + 8, true),
        bottom: dv.getInt32(at + 12, true),
      };
      const flags = dv.getInt32(at + 16, true);
      const confidence = dv.getFloat32(at + 20, true);
      const len = dv.getInt32(at + 24, true);
      const text = decoder.decode(new Uint8Array(this.memory.buffer, at + 28, len));
      at += 28 + len;
      // tesseract-wasm gave layout boxes a confidence of 0 and empty text too.
      out.push({ rect, flags, confidence, text });
    }
    return out;
  }
}

function unitCode(unit: TextUnit): number {
  if (unit === "word") return 0;
  if (unit === "line") return 1;
  throw new Error("Invalid text unit");
}
