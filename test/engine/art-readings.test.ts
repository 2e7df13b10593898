import { describe, expect, it } from "vitest";
import type { RegionText } from "../../workers/shared/engine-contract";
import { latinScrap, withoutScraps } from "../../workers/engine/picture/art-readings";

/** A region read as `text`, as surely as `confidence`. */
const region = (text: string, confidence: number): RegionText => ({
  box: { x: 0, y: 0, w: 100, h: 40 },
  text,
  confidence,
  lines: [],
});

describe("art read as text on a picture", () => {
  it("is a reading of Latin letters by models of another script, unless read surely or a Latin model reads too", () => {
    // Hatching and hair on manga pages, read by the Japanese models.
    expect(latinScrap(region("N N N N", 0.693), ["jpn_vert"])).toBe(true);
    expect(latinScrap(region("NN", 0.77), ["jpn"])).toBe(true);
    expect(latinScrap(region("\\ \\ KM しか", 0.624), ["jpn"])).toBe(true);
    // Japanese with a few Latin letters, Latin read surely, a page read in English too.
    expect(latinScrap(region("テレビはTVです", 0.7), ["jpn"])).toBe(false);
    expect(latinScrap(region("OK!", 0.9), ["jpn"])).toBe(false);
    expect(latinScrap(region("NN", 0.6), ["jpn", "eng"])).toBe(false);
    expect(latinScrap(region("HELLO", 0.6), ["eng"])).toBe(false);
  });

  it("is a short unsure reading in a script without capitals, and no page's Japanese is taken for capitals' scraps", () => {
    const kept = withoutScraps([
      region("紅魔のディナーへようこそ", 0.87),
      region("これ", 0.95),
      region("てて", 0.785),
      region("い(いき", 0.63),
      region("ククク…当てて", 0.79),
    ]).map((r) => r.text);
    expect(kept).toEqual(["紅魔のディナーへようこそ", "これ", "ククク…当てて"]);
    // On a page lettered in capitals, short lower-case readings go; a short shout stays.
    const caps = withoutScraps([
      region("HOLD STILL, TIM! I'LL HAVE YOU FREE IN A SECOND!", 0.89),
      region("oe m!", 0.6),
      region("NO!", 0.7),
      // No two letters together: strokes of the art ("“U4" beside a window).
      region("“U4", 0.71),
      region("I 7", 0.66),
    ]).map((r) => r.text);
    expect(caps).toEqual(["HOLD STILL, TIM! I'LL HAVE YOU FREE IN A SECOND!", "NO!"]);
  });
});
