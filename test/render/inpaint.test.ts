import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { characterErrorRate } from "../helpers/text-image";
import { TEXT } from "./scenes.mjs";
import { decode, decodeKey, difference, ocr, pageText, regionsOf, rgbTiff, scene } from "./helpers";

/** Upload a scene (a PNG, or as a scanner's colour TIFF), normalise and recognise it as the pipeline does. */
async function prepared(scenery: string, format: "PNG" | "TIFF" = "PNG") {
  const s = scene(scenery);
  const name = format === "PNG" ? scenery : `${scenery}.tif`;
  await env.FILES.put(`uploads/r/${name}`, format === "PNG" ? s.page : rgbTiff(decode(s.page)));
  const pre = await env.ENGINE.preprocess({ sourceKey: `uploads/r/${name}`, page: 0, outKey: `work/${name}/page.png`, languages: ["eng"] });
  const rec = await env.ENGINE.recognize({ pageKey: pre.key, languages: ["eng"], outKey: `work/${name}/text.json` });
  return { s, name, pre, text: await pageText(rec.key) };
}

describe("text removal (inpainting)", () => {
  beforeAll(async () => {
    for (const name of ["flat", "gradient", "textured", "bold"]) await prepared(name);
  });

  // Limits (mean absolute difference / share of pixels off by > 60) a little above what these scenes
  // measure: flat and gradient backgrounds come back exactly, striped paper within its grain.
  it.each([
    ["flat", "PNG", 1, 0.001],
    ["gradient", "PNG", 1, 0.001],
    ["textured", "PNG", 5, 0.01],
    ["gradient", "TIFF", 1, 0.001],
  ] as const)(
    "clears the %s background of a %s to the true background, with no readable text left",
    async (scenery, format, maxMean, maxBad) => {
      const { s, name, pre, text } = await prepared(scenery, format);
      const truth = TEXT[scenery as keyof typeof TEXT].lines.join(" ");
      expect(characterErrorRate(truth, text.text), text.text).toBeLessThanOrEqual(0.05);
      const out = await env.ENGINE.inpaint({
        pageKey: pre.key,
        sourceKey: `uploads/r/${name}`,
        page: 0,
        regions: regionsOf(text),
        maskKey: `work/${name}/mask.png`,
        cleanKey: `work/${name}/clean.png`,
        languages: ["eng"],
      });
      expect(
        out.regions.map((r) => r.leftover),
        JSON.stringify(out.regions),
      ).toEqual(text.regions.map(() => false));
      const clean = await decodeKey(out.cleanKey);
      const diff = difference(
        clean,
        decode(s.background),
        text.regions.map((r) => r.box),
      );
      expect(diff.mean, JSON.stringify(diff)).toBeLessThanOrEqual(maxMean);
      expect(diff.bad, JSON.stringify(diff)).toBeLessThanOrEqual(maxBad);
      // The colour base is the original's: the clean plate is not the gray page image.
      const i = (Math.round(text.regions[0]!.box.y) * clean.width + 20) * 4;
      expect([clean.data[i], clean.data[i + 1], clean.data[i + 2]]).toEqual([...decode(s.background).data.subarray(i, i + 3)]);
      // Re-OCR of the whole clean plate reads nothing at all, not even a stray character (striped
      // paper is filled by patch matching, which carries the stripes through).
      const again = await ocr(await (await env.FILES.get(out.cleanKey))!.bytes(), `work/${name}/clean-again.png`, ["eng"]);
      expect(again.replace(/\s+/g, ""), again).toBe("");
    },
  );

  it("removes letters a reading lost at a line's start with the rest of the line", async () => {
    // The textured scene's words as recognition read them, but the first line and its first word
    // cut to start after their first letter ("andmade" for "Handmade"), as a reading can lose it.
    const { s, pre, text } = await prepared("textured");
    const regions = text.regions.map((r, i) => {
      const lines = r.lines.map((l) => ({ ...l, box: { ...l.box }, words: l.words.map((w) => ({ ...w, box: { ...w.box } })) }));
      if (i === 0) {
        const first = lines[0]!.words[0]!;
        const cut = Math.ceil(first.box.w / first.text.length) + 1;
        first.box.x += cut;
        first.box.w -= cut;
        first.text = first.text.slice(1);
        lines[0]!.box.x += cut;
        lines[0]!.box.w -= cut;
      }
      return { box: r.box, lines: lines.map((l) => l.box), words: lines.flatMap((l) => l.words) };
    });
    const out = await env.ENGINE.inpaint({
      pageKey: pre.key,
      sourceKey: "uploads/r/textured",
      page: 0,
      regions,
      maskKey: "work/textured/m-cut.png",
      cleanKey: "work/textured/c-cut.png",
      languages: ["eng"],
    });
    const first = text.regions[0]!.lines[0]!.words[0]!.box;
    const diff = difference(await decodeKey(out.cleanKey), decode(s.background), [first]);
    expect(diff.mean, JSON.stringify(diff)).toBeLessThanOrEqual(5);
    expect(diff.bad, JSON.stringify(diff)).toBeLessThanOrEqual(0.01);
  });

  it("masks glyph pixels only, not whole boxes", async () => {
    const { pre, text } = await prepared("flat");
    const out = await env.ENGINE.inpaint({
      pageKey: pre.key,
      regions: regionsOf(text),
      maskKey: "work/flat/mask2.png",
      cleanKey: "work/flat/clean2.png",
    });
    const mask = await decodeKey(out.maskKey);
    let on = 0,
      all = 0;
    for (const r of text.regions) {
      for (let y = Math.floor(r.box.y); y < r.box.y + r.box.h; y++) {
        for (let x = Math.floor(r.box.x); x < r.box.x + r.box.w; x++) {
          all++;
          if (mask.data[(y * mask.width + x) * 4]! > 127) on++;
        }
      }
    }
    expect(on / all).toBeGreaterThan(0.05);
    expect(on / all).toBeLessThan(0.6);
    expect(out.regions.every((r) => r.masked > 0)).toBe(true);
  });

  it("reads the original's colour, weight and alignment", async () => {
    const flat = await prepared("flat");
    const bold = await prepared("bold");
    const a = await env.ENGINE.inpaint({
      pageKey: flat.pre.key,
      sourceKey: "uploads/r/flat",
      page: 0,
      regions: regionsOf(flat.text),
      maskKey: "work/flat/m3.png",
      cleanKey: "work/flat/c3.png",
    });
    const b = await env.ENGINE.inpaint({
      pageKey: bold.pre.key,
      sourceKey: "uploads/r/bold",
      page: 0,
      regions: regionsOf(bold.text),
      maskKey: "work/bold/m3.png",
      cleanKey: "work/bold/c3.png",
    });
    const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    const want = rgb(TEXT.flat.color);
    const got = rgb(a.regions[0]!.style.color!);
    got.forEach((v, i) => expect(Math.abs(v - want[i]!), `${a.regions[0]!.style.color} vs ${TEXT.flat.color}`).toBeLessThanOrEqual(40));
    expect(a.regions[0]!.style.font_weight, JSON.stringify([a.regions, b.regions])).toBe(400);
    expect(b.regions[0]!.style.font_weight).toBe(700);
    expect(a.regions[0]!.style.align).toBe("left");
    expect(a.regions[0]!.style.font_size).toBeGreaterThan(30);
  });

  it("flags a region whose text was not all removed", async () => {
    const { pre, text } = await prepared("flat");
    // Only the first of its two lines is given: the second stays.
    const r = text.regions[0]!;
    expect(r.lines).toHaveLength(2);
    const out = await env.ENGINE.inpaint({
      pageKey: pre.key,
      regions: [{ box: r.box, lines: [r.lines[0]!.box] }],
      maskKey: "work/flat/m4.png",
      cleanKey: "work/flat/c4.png",
      languages: ["eng"],
    });
    expect(out.regions[0]!.leftover, JSON.stringify(out.regions[0])).toBe(true);
    expect(out.regions[0]!.leftoverText).toMatch(/Open|daily|from|seven/);
  });
});
