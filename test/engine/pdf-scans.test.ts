import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { decodePngToGray } from "../../workers/engine/image/png";
import { characterErrorRate } from "./cer";
import { fixture, put, readPage } from "./helpers";

const text = (name: string) => new TextDecoder().decode(fixture(name));

/** Share of dark pixels of a stored page image. */
async function inkShare(key: string): Promise<number> {
  const img = await decodePngToGray(new Uint8Array(await (await env.FILES.get(key))!.arrayBuffer()));
  let dark = 0;
  for (const v of img!.data) if (v < 128) dark++;
  return dark / img!.data.length;
}

describe("scanned PDF pages in every encoding pdf.js decodes (real files from OCRmyPDF's tests)", () => {
  it.each([
    ["JBIG2", "ocrmypdf_linn.pdf"],
    ["CCITT G4", "ocrmypdf_ccitt.pdf"],
  ])("%s: the page is read, not blank (CER against OCRmyPDF's linn.txt)", async (_, name) => {
    const key = await put(`uploads/scans/${name}`, fixture(`real/${name}`));
    const page = await readPage(name, key, 0, ["eng"]);
    expect(page.pre.path).toBe("ocr");
    expect(await inkShare(page.pre.key)).toBeGreaterThan(0.02);
    const cer = characterErrorRate(text("real/ocrmypdf_linn.txt"), page.text.text);
    expect(cer, page.text.text).toBeLessThan(0.05);
  });

  it("JPEG 2000: the picture is drawn (not a white page)", async () => {
    const key = await put("uploads/scans/lichtenstein.pdf", fixture("real/ocrmypdf_lichtenstein.pdf"));
    const pre = await env.ENGINE.preprocess({ sourceKey: key, page: 0, outKey: "work/scans/lichtenstein.png", languages: ["eng"] });
    expect(pre.path).toBe("ocr");
    expect(await inkShare(pre.key)).toBeGreaterThan(0.1);
  });

  it("composes every image draw: a JPEG with a CCITT soft mask and a stencil mask (masks.pdf)", async () => {
    const key = await put("uploads/scans/masks.pdf", fixture("real/ocrmypdf_masks.pdf"));
    const page = await readPage("masks", key, 0, ["eng"]);
    expect(page.pre.path).toBe("ocr");
    expect(page.rec.chars, page.text.text).toBeGreaterThan(2000);
    for (const word of ["Linux", "Wikipedia", "Betriebssysteme", "GNU-Software", "Linux-Kernel"]) expect(page.text.text).toContain(word);
  });
});
