import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { rgbaToGray } from "../../workers/engine/image/gray";
import { groundToWhite, leftoverWords } from "../../workers/engine/inpaint/leftover";
import { decode, scene } from "./helpers";

/** A 60×40 crop of grainy paper (luma 200 ± up to 20, like an aged page's fibre) with a dark stroke and a gray one. */
function grainyCrop() {
  const [width, height] = [60, 40];
  const data = new Uint8Array(width * height);
  let s = 12345;
  for (let i = 0; i < data.length; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    const u = ((s >>> 16) & 0xffff) / 0xffff;
    // Mostly fine grain, now and then a darker fibre.
    data[i] = Math.round(200 + (u - 0.5) * (u > 0.97 ? 40 : 16));
  }
  for (let y = 10; y < 30; y++) {
    for (let x = 10; x < 13; x++) data[y * width + x] = 40; // a dark stroke
    for (let x = 30; x < 33; x++) data[y * width + x] = 130; // a faded one
  }
  return { width, height, data };
}

describe("the leftover check's view of a cleaned region", () => {
  it("makes the ground's grain white and keeps the strokes that stand out of it", () => {
    const crop = grainyCrop();
    const out = groundToWhite(crop);
    const strokes = (x: number, y: number) => y >= 10 && y < 30 && ((x >= 10 && x < 13) || (x >= 30 && x < 33));
    let grain = 0;
    for (let y = 0; y < crop.height; y++) {
      for (let x = 0; x < crop.width; x++) {
        const i = y * crop.width + x;
        if (strokes(x, y)) expect(out.data[i]).toBe(crop.data[i]);
        else if (out.data[i] !== 255) grain++;
      }
    }
    expect(grain).toBe(0);
    // The grain itself is not flat: there was something to remove.
    expect(new Set(crop.data).size).toBeGreaterThan(20);
  });

  it("leaves a crop without a light ground as it is", () => {
    const crop = grainyCrop();
    const dark = { ...crop, data: crop.data.map((v) => 255 - v) };
    expect(groundToWhite(dark)).toBe(dark);
  });

  it("still reads dark text left on striped paper", async () => {
    // The check on the textured scene's page as it was before removal: every word is still there to read.
    const page = decode(scene("textured").page);
    const gray = rgbaToGray(page.data, page.width, page.height);
    const words = await leftoverWords(env.MODELS, gray, { x: 0, y: 0, w: gray.width, h: gray.height }, ["eng"], undefined, true);
    const read = words.map((w) => w.text).join(" ");
    expect(read).toMatch(/Handmade.*pottery.*gifts/);
    expect(read).toMatch(/Visit.*studio.*week/);
  });
});
