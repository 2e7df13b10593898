import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { decodePngToGray } from "../../workers/engine/image/png";
import { ocrRasterFromGray } from "../../workers/engine/ocr/page-raster";
import { recognizeWith } from "../../workers/engine/ocr/recognize";
import { renderTextPng } from "../helpers/text-image";

const LINES = ["THE TICKET IS £5 TODAY", "COPYRIGHT © 1951 BY THE PRESS", "HE SAID «STOP» AND LEFT"];
const NEVER_LETTERED = /[£©«»]/u;

describe("a reading of lettering", { timeout: 300_000 }, () => {
  it("leaves out signs never lettered, and the next reading of the shared engine reads them again", async () => {
    const raster = ocrRasterFromGray((await decodePngToGray(await renderTextPng(LINES)))!);
    const plain = await recognizeWith(env.MODELS, raster, ["eng"], "block", { invert: false });
    // Read as text, the signs are there.
    expect(plain.text).toMatch(/£/u);
    expect(plain.text).toMatch(/©/u);
    expect(plain.text).toMatch(/«/u);
    const lettering = await recognizeWith(env.MODELS, raster, ["eng"], "block", { invert: false, lettering: true });
    expect(lettering.text).not.toMatch(NEVER_LETTERED);
    // The words around them read as before.
    for (const word of ["TICKET", "TODAY", "COPYRIGHT", "1951", "PRESS", "LEFT"]) expect(lettering.text).toContain(word);
    const after = await recognizeWith(env.MODELS, raster, ["eng"], "block", { invert: false });
    expect(after.text).toBe(plain.text);
  });
});
