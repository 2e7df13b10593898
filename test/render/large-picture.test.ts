import { PhotonImage, SamplingFilter, resize } from "@cf-wasm/photon";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { ExportDocument, PageText, PreprocessResult } from "../../workers/shared/engine-contract";
import { picture } from "../engine/helpers";
import { chroma, decode, decodeKey, meanDiff, pageText, seedModels, type Rgba } from "./helpers";

/** `bytes` (an image photon decodes) enlarged to width × height and saved as a JPEG of quality 85. */
function enlargedJpeg(bytes: Uint8Array, width: number, height: number): Uint8Array {
  const img = PhotonImage.new_from_byteslice(bytes);
  const big = resize(img, width, height, SamplingFilter.CatmullRom);
  try {
    return big.get_bytes_jpeg(85);
  } finally {
    img.free();
    big.free();
  }
}

// The comic page of pictures.test.ts enlarged to 2535 × 3840 (9.7 MP), above the 9 MP photon holds:
// read at 7/8 of its size (2219 × 3360) and given back at its own.
describe("a comic page above 9 megapixels", () => {
  const sourceKey = "pictures/large/006013.jpg";
  let source: Rgba;
  let pre: PreprocessResult;
  let page: PageText;

  beforeAll(async () => {
    await seedModels(["eng"], ["fonts/DejaVuSans.ttf"]);
    const bytes = enlargedJpeg(await picture("ctd_006013.jpg"), 2535, 3840);
    source = decode(bytes);
    await env.FILES.put(sourceKey, bytes);
    pre = (await env.ENGINE.preprocess({ sourceKey, page: 0, outKey: "pictures/large/page.png", languages: ["eng"] })) as PreprocessResult;
    const rec = await env.ENGINE.recognize({ pageKey: pre.key, languages: ["eng"], outKey: "pictures/large/text.json" });
    page = await pageText(rec.key);
  }, 240_000);

  it("is read as a picture at 7/8 of its size, its own size recorded", () => {
    expect(pre.path).toBe("picture");
    expect([pre.width, pre.height]).toEqual([2219, 3360]);
    expect(pre.transform).toMatchObject({ sourceWidth: 2219, sourceHeight: 3360, original: { width: 2535, height: 3840 } });
    expect(page.text.toUpperCase()).toContain("HOLD STILL");
  });

  it("comes back as PNG and JPEG at the upload's size, in its colours; as WebP at the size it was read at", async () => {
    const doc: ExportDocument = {
      title: "large",
      pages: [{ index: 0, width: pre.width, height: pre.height, imageKey: pre.key, renderKey: null, regions: [] }],
    };
    await env.FILES.put("pictures/large/document.json", JSON.stringify(doc));
    const out = await env.ENGINE.buildExports({
      documentKey: "pictures/large/document.json",
      formats: ["png", "jpg", "webp"],
      outPrefix: "exports/large/",
      baseName: "page",
    });
    const png = await decodeKey(out.find((o) => o.format === "png")!.key);
    expect([png.width, png.height]).toEqual([2535, 3840]);
    const diff = meanDiff(png, source);
    console.log("enlarged PNG against the upload: mean difference", diff.toFixed(2));
    // Read at 7/8 and enlarged back, a halftone page loses its finest dots: 5.3 levels on average here.
    expect(diff).toBeLessThan(8);
    // JPEG is encoded strip by strip from the same enlarged rows: quality 90 adds little to that.
    const jpg = await decodeKey(out.find((o) => o.format === "jpg")!.key);
    expect([jpg.width, jpg.height]).toEqual([2535, 3840]);
    const jpgDiff = meanDiff(jpg, source);
    console.log("enlarged JPEG against the upload: mean difference", jpgDiff.toFixed(2));
    expect(jpgDiff).toBeLessThan(diff + 2);
    expect(chroma(jpg) / chroma(source)).toBeGreaterThan(0.9);
    // WebP is encoded by photon, which holds at most 9 MP: it keeps the size the page was read at.
    const webp = await decodeKey(out.find((o) => o.format === "webp")!.key);
    expect([webp.width, webp.height]).toEqual([2219, 3360]);
  });
});
