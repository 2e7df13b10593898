import { env } from "cloudflare:workers";
import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { decodeToGray } from "../../workers/engine/image/decode";
import { credibleDpi, credibleResolution, declaredResolution } from "../../workers/engine/image/resolution";
import { ocrRasterFromGray } from "../../workers/engine/ocr/page-raster";
import { withEngine } from "../../workers/engine/ocr/recognize";
import { put, realFixture } from "./helpers";

/** The resolution tesseract read the raster at, from its hOCR page (`scan_res`). */
async function scanResolution(dpi: number | undefined): Promise<number> {
  const gray = await decodeToGray(realFixture("tjs_simple.jpg"), "jpeg");
  const raster = ocrRasterFromGray(dpi ? { ...gray, dpi } : gray);
  const hocr = await withEngine(env.MODELS, "eng", raster, (engine) => engine.getHOCR());
  const match = /scan_res (\d+) (\d+)/.exec(hocr);
  if (!match) throw new Error(`no scan_res in ${hocr.slice(0, 300)}`);
  return Number(match[2]);
}

describe("a page's resolution, from its file to tesseract", () => {
  it("reads what PNG, JPEG, TIFF files state, and nothing where they state none", () => {
    // pHYs 7874 pixels a metre, JFIF 37 a centimetre, TIFF 300 an inch.
    expect(declaredResolution(realFixture("amiri_documentation-arabic-p2.png"), "png")).toBeCloseTo(200, 0);
    expect(declaredResolution(realFixture("tjs_simple.jpg"), "jpeg")).toBeCloseTo(94, 0);
    expect(declaredResolution(realFixture("tess_8087_054.3B.tif"), "tiff")).toBe(300);
    // A JFIF density in no unit (an aspect ratio), and a PBM, state no resolution.
    expect(declaredResolution(realFixture("tjs_simple-exif2.jpg"), "jpeg")).toBeNull();
    expect(declaredResolution(realFixture("tjs_simple.pbm"), "pnm")).toBeNull();
  });

  it("believes a resolution only where it makes the image page-sized", () => {
    expect(credibleResolution(200, 1654, 2339)).toBe(200);
    // 72 ppi on a 4000-pixel photo, or on a 2560-pixel fax strip, would be a page 35 inches long or more.
    expect(credibleResolution(72, 4000, 3000)).toBeNull();
    expect(credibleResolution(72, 2560, 1000)).toBeNull();
    // Below tesseract's least credible resolution: left for it to estimate.
    expect(credibleResolution(50, 400, 500)).toBeNull();
    expect(credibleDpi(undefined)).toBe(0);
    expect(credibleDpi(200.4)).toBe(200);
    expect(credibleDpi(3000)).toBe(0);
  });

  it("keeps a page's resolution with its transform: stated by an image, drawn for a PDF, none for a fax strip at 72", async () => {
    const png = await put("uploads/resolution/amiri.png", realFixture("amiri_documentation-arabic-p2.png"));
    const pre = await env.ENGINE.preprocess({ sourceKey: png, page: 0, outKey: "work/resolution/amiri.png", languages: ["eng"] });
    expect(pre.transform.resolution).toBeCloseTo(200, 0);
    const pdf = await put("uploads/resolution/camelot.pdf", realFixture("camelot_image.pdf"));
    const page = await env.ENGINE.preprocess({ sourceKey: pdf, page: 0, outKey: "work/resolution/camelot.png", languages: ["eng"] });
    // A PDF page is drawn at 300 dpi, or less to fit the engine's largest page: its pixels over its inches.
    const { width: points } = (await PDFDocument.load(realFixture("camelot_image.pdf"))).getPage(0).getSize();
    expect(page.transform.resolution).toBeCloseTo(page.transform.sourceWidth / (points / 72), 0);
    expect(page.transform.resolution).toBeLessThanOrEqual(300);
    const fax = await put("uploads/resolution/fax.tif", realFixture("8087_054-top.g4.tif"));
    const strip = await env.ENGINE.preprocess({ sourceKey: fax, page: 0, outKey: "work/resolution/fax.png", languages: ["eng"] });
    expect(strip.transform.resolution).toBeUndefined();
  });

  it("gives tesseract the raster's resolution, and leaves it to estimate one where none is known", { timeout: 120_000 }, async () => {
    expect(await scanResolution(150)).toBe(150);
    // 70 is tesseract's stand-in when it is to estimate the resolution from the text.
    expect(await scanResolution(undefined)).toBe(70);
    expect(await scanResolution(150)).toBe(150);
  });
});
