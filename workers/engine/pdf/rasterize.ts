import puppeteer from "@cloudflare/puppeteer";
import { engineError, isEngineError } from "../errors";
import type { GrayImage } from "../image/gray";
import { decodePngToGray } from "../image/png";
import { PDFJS_SOURCE } from "./pdfjs-source";

/** The slice of a DOM canvas the page script uses. */
interface HTMLCanvasLike {
  width: number;
  height: number;
  getContext(kind: "2d"): { fillStyle: string; fillRect(x: number, y: number, w: number, h: number): void };
  toDataURL(type: string): string;
}

function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

type Browser = Awaited<ReturnType<typeof puppeteer.launch>>;
type BrowserBinding = Parameters<typeof puppeteer.launch>[0];

/**
 * The browser session this isolate keeps alive between pages: a launch costs seconds, connecting
 * to a running browser a fraction of one. A Worker's socket belongs to the request that opened it,
 * so each rendering connects anew and disconnects after (the browser stays up for `keep_alive`).
 * A session that cannot be joined (expired or closed) is replaced by a new one; the isolate's
 * drawings take turns with it (`inTurn`).
 */
let sessionId: string | null = null;

async function openBrowser(binding: BrowserBinding): Promise<Browser> {
  if (sessionId) {
    try {
      return await puppeteer.connect(binding, sessionId);
    } catch {
      sessionId = null;
    }
  }
  try {
    const browser = await puppeteer.launch(binding, { keep_alive: 600_000 });
    sessionId = browser.sessionId();
    return browser;
  } catch (err) {
    throw engineError(
      "rasterizer_unavailable",
      `Browser Rendering could not start a browser: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

type Page = Awaited<ReturnType<Browser["newPage"]>>;

/** Where the browser tab keeps pdf.js once loaded (a global of the tab's page script). */
const PDFJS_GLOBAL = "__lingoscanPdfjs";

/**
 * The session's tab with pdf.js already loaded, or a new tab it is loaded into. Tabs outlive the
 * connection, so every rendering after the first in a session skips opening a tab, sending pdf.js
 * (1.7 MB of source) and compiling it: 0.5–1.2 s of each drawing.
 */
async function warmPage(browser: Browser): Promise<Page> {
  for (const tab of await browser.pages()) {
    const ready = await tab.evaluate((k: string) => k in globalThis, PDFJS_GLOBAL).catch(() => false);
    if (ready) return tab;
  }
  const tab = await browser.newPage();
  await tab.evaluate(
    async (src: string, k: string) => {
      const url = URL.createObjectURL(new Blob([src], { type: "text/javascript" }));
      (globalThis as Record<string, unknown>)[k] = await import(url);
      URL.revokeObjectURL(url);
    },
    PDFJS_SOURCE,
    PDFJS_GLOBAL,
  );
  return tab;
}

/**
 * The isolate's drawings take turns with its one browser session: a session busy with another
 * page cannot be joined, and a second browser costs a launch (about a second locally) where
 * waiting costs a drawing (0.1–0.5 s). A page whose job follows a text-layer document's drawings
 * in the background (`drawPendingPage`) waits for them instead of launching a browser.
 */
let lastTurn: Promise<unknown> = Promise.resolve();

/**
 * How long a drawing waits for the one before it at most: a drawing whose request was cancelled
 * (a step's timeout) may never settle, and must not hold up the isolate's later drawings.
 */
const TURN_WAIT_MS = 15_000;

function inTurn<T>(fn: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = new Promise((resolve) => (timer = setTimeout(resolve, TURN_WAIT_MS)));
  const previous = Promise.race([lastTurn, waited]).finally(() => clearTimeout(timer));
  const run = previous.then(fn, fn);
  lastTurn = run.catch(() => {});
  return run;
}

/**
 * Opens the browser session and its tab with pdf.js loaded, so that the first page drawn after a
 * start does not wait for a browser launch (about a second locally). Without a browser binding,
 * nothing to do.
 */
export async function warmRasterizer(browserBinding: unknown): Promise<void> {
  if (!browserBinding) return;
  await inTurn(async () => {
    const browser = await openBrowser(browserBinding as BrowserBinding);
    try {
      await warmPage(browser);
    } finally {
      await browser.disconnect();
    }
  });
}

/**
 * Renders page 1 of `pdf` at `scale` (pixels per PDF point) with Browser Rendering: pdf.js draws
 * it on a canvas in the page, which comes back as gray pixels. Without a reachable browser the
 * page fails with `[rasterizer_unavailable]`.
 */
export async function rasterizePdfPage(browserBinding: unknown, pdf: Uint8Array, scale: number): Promise<GrayImage> {
  const gray = await decodePngToGray(await rasterizePdfPagePng(browserBinding, pdf, scale));
  if (!gray) throw engineError("rasterizer_unavailable", "The browser returned an unexpected image.");
  return gray;
}

/** `rasterizePdfPage`, answered as the 8-bit gray PNG the browser encoded (for storing as it is). */
export async function rasterizePdfPagePng(browserBinding: unknown, pdf: Uint8Array, scale: number): Promise<Uint8Array> {
  if (!browserBinding)
    throw engineError(
      "rasterizer_unavailable",
      "This PDF page has no text layer and no scanned image; rendering it needs Browser Rendering, which is not configured.",
    );
  return inTurn(() => drawWithBrowser(browserBinding as BrowserBinding, pdf, scale));
}

/** One drawing with the isolate's browser session (`rasterizePdfPagePng`), in its turn. */
async function drawWithBrowser(binding: BrowserBinding, pdf: Uint8Array, scale: number): Promise<Uint8Array> {
  const browser = await openBrowser(binding);
  let failed = false;
  try {
    const page = await warmPage(browser);
    const b64 = await page.evaluate(
      async (k: string, data: string, s: number) => {
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        const pdfjs: any = (globalThis as Record<string, unknown>)[k];
        const bin = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
        const doc = await pdfjs.getDocument({ data: bin, isEvalSupported: false }).promise;
        try {
          const pg = await doc.getPage(1);
          const vp = pg.getViewport({ scale: s });
          // Runs in the browser page, where `document` exists (the Worker's typings have no DOM).
          const canvas = (globalThis as unknown as { document: { createElement(tag: "canvas"): HTMLCanvasLike } }).document.createElement(
            "canvas",
          );
          canvas.width = Math.round(vp.width);
          canvas.height = Math.round(vp.height);
          const ctx = canvas.getContext("2d");
          ctx.fillStyle = "#fff";
          ctx.fillRect(0, 0, canvas.width, canvas.height);
          await pg.render({ canvasContext: ctx, viewport: vp }).promise;
          // The page goes back as an 8-bit gray PNG made here, in the browser's process: the
          // engine then has a quarter of the pixels of an RGBA PNG to read, or none to store it.
          // Gray as the engine's PNG decoder takes it from RGB ((77 R + 150 G + 29 B) >> 8),
          // rows filtered with Sub as the engine's encoder does.
          const w = canvas.width,
            h = canvas.height;
          const rgba = (
            ctx as unknown as { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } }
          ).getImageData(0, 0, w, h).data;
          const rows = new Uint8Array(h * (w + 1));
          for (let y = 0; y < h; y++) {
            const o = y * (w + 1);
            rows[o] = 1;
            let prev = 0;
            for (let x = 0, i = y * w * 4; x < w; x++, i += 4) {
              const g = (rgba[i]! * 77 + rgba[i + 1]! * 150 + rgba[i + 2]! * 29) >> 8;
              rows[o + 1 + x] = (g - prev) & 0xff;
              prev = g;
            }
          }
          const idat = new Uint8Array(
            await new Response(new Blob([rows]).stream().pipeThrough(new CompressionStream("deflate"))).arrayBuffer(),
          );
          const crcTable = new Uint32Array(256).map((_, n) => {
            let c = n;
            for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
            return c >>> 0;
          });
          const ihdr = new Uint8Array(13);
          new DataView(ihdr.buffer).setUint32(0, w);
          new DataView(ihdr.buffer).setUint32(4, h);
          ihdr.set([8, 0, 0, 0, 0], 8);
          // No named functions in here: the bundler would wrap them in a helper the page lacks.
          const parts: Uint8Array[] = [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])];
          for (const [type, data] of [
            ["IHDR", ihdr],
            ["IDAT", idat],
            ["IEND", new Uint8Array(0)],
          ] as const) {
            const out = new Uint8Array(12 + data.length);
            const dv = new DataView(out.buffer);
            dv.setUint32(0, data.length);
            for (let k = 0; k < 4; k++) out[4 + k] = type.charCodeAt(k);
            out.set(data, 8);
            let c = 0xffffffff;
            for (let k = 4; k < 8 + data.length; k++) c = crcTable[(c ^ out[k]!) & 0xff]! ^ (c >>> 8);
            dv.setUint32(8 + data.length, (c ^ 0xffffffff) >>> 0);
            parts.push(out);
          }
          const png = new Uint8Array(await new Blob(parts).arrayBuffer());
          let bin = "";
          for (let i = 0; i < png.length; i += 0x8000) bin += String.fromCharCode(...png.subarray(i, i + 0x8000));
          return btoa(bin);
        } finally {
          await doc.loadingTask.destroy();
        }
      },
      PDFJS_GLOBAL,
      toBase64(pdf),
      scale,
    );
    const bin = atob(String(b64));
    const png = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) png[i] = bin.charCodeAt(i);
    return png;
  } catch (err) {
    if (isEngineError(err)) throw err;
    failed = true;
    throw engineError(
      "rasterizer_unavailable",
      `Rendering the PDF page in the browser failed: ${err instanceof Error ? err.message : String(err)}`,
    );
  } finally {
    // A browser that failed once is not trusted again: the next page launches a new one.
    if (failed) {
      sessionId = null;
      await browser.close().catch(() => {});
    } else await browser.disconnect();
  }
}
