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
 * A session that cannot be joined (expired, or busy with another page) is replaced by a new one.
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

/**
 * Renders page 1 of `pdf` at `scale` (pixels per PDF point) with Browser Rendering: pdf.js draws
 * it on a canvas in the page, which comes back as PNG. Without a reachable browser the page
 * fails with `[rasterizer_unavailable]`.
 */
export async function rasterizePdfPage(browserBinding: unknown, pdf: Uint8Array, scale: number): Promise<GrayImage> {
  if (!browserBinding)
    throw engineError(
      "rasterizer_unavailable",
      "This PDF page has no text layer and no scanned image; rendering it needs Browser Rendering, which is not configured.",
    );
  const browser = await openBrowser(browserBinding as BrowserBinding);
  let failed = false;
  try {
    const page = await browser.newPage();
    const dataUrl = await page.evaluate(
      async (src: string, data: string, s: number) => {
        const url = URL.createObjectURL(new Blob([src], { type: "text/javascript" }));
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        const pdfjs: any = await import(url);
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
          return canvas.toDataURL("image/png");
        } finally {
          await doc.loadingTask.destroy();
        }
      },
      PDFJS_SOURCE,
      toBase64(pdf),
      scale,
    );
    await page.close();
    const b64 = String(dataUrl).replace(/^data:image\/png;base64,/, "");
    const png = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const gray = await decodePngToGray(png);
    if (!gray) throw new Error("the browser returned an unexpected image");
    return gray;
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
