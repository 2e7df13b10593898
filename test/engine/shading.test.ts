import { describe, expect, it } from "vitest";
import type { GrayImage } from "../../workers/engine/image/gray";
import { evenOutShading } from "../../workers/engine/image/shading";

const PAPER = 220;
const [W, H] = [800, 1100];
/** The hard shadow: a band 130 px wide running down the page from x = 330 at the top, leaning right. */
const inShadow = (x: number, y: number) => Math.abs(x - (330 + 0.25 * y)) < 65;
/** An illustration at the top right whose tones lighten from its far side (45) to the side the shadow crosses (125). */
const inFigure = (x: number, y: number) => y >= 40 && y < 300 && x >= 380 && x < 760;
const figureTone = (x: number) => 45 + ((760 - x) / 380) * 80;

/**
 * A photographed page of printed lines (dark bars of letter height) under a figure, with a hard
 * shadow (0.55 of the light) across both: where the shadow meets the figure, the figure's tones
 * lighten a few percent a cell up to the shadow's.
 */
function shadowedPage(): GrayImage {
  const data = new Uint8Array(W * H);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const line = y >= 340 && y < 1060 && y % 30 < 12 && x >= 40 && x < 760 && x % 14 < 9;
      let v = inFigure(x, y) ? figureTone(x) : line ? 40 : PAPER;
      if (inShadow(x, y)) v *= 0.55;
      data[y * W + x] = Math.round(v);
    }
  return { width: W, height: H, data };
}

/** Mean level of the pixels of `img` where `where` holds. */
function meanWhere(img: GrayImage, where: (x: number, y: number) => boolean): number {
  let sum = 0,
    n = 0;
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++)
      if (where(x, y)) {
        sum += img.data[y * img.width + x]!;
        n++;
      }
  return sum / n;
}

describe("evening out a photographed page's light", () => {
  it("evens a hard shadow that touches a figure's lighter side, and keeps the figure's dark side dark", () => {
    const page = shadowedPage();
    const evened = evenOutShading(page);
    expect(evened).not.toBeNull();
    // Paper between the printed lines, inside the shadow well away from its edges: 121 as taken.
    const shadedPaper = (x: number, y: number) =>
      y >= 360 && y < 1060 && y % 30 >= 16 && y % 30 < 26 && Math.abs(x - (330 + 0.25 * y)) < 40;
    expect(meanWhere(page, shadedPaper)).toBeLessThan(125);
    expect(meanWhere(evened!, shadedPaper)).toBeGreaterThan(235);
    // The printed lines in the shadow keep their contrast against that paper.
    const shadedInk = (x: number, y: number) => y >= 360 && y < 1060 && y % 30 < 12 && x % 14 < 9 && Math.abs(x - (330 + 0.25 * y)) < 40;
    expect(meanWhere(evened!, shadedInk)).toBeLessThan(80);
    // The figure's dark far side is a dark area, not dim paper: it is not divided up to white.
    expect(meanWhere(evened!, (x, y) => y >= 60 && y < 280 && x >= 640 && x < 740)).toBeLessThan(110);
  });
});
