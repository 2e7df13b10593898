import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { TEXTS } from "../bench/ocr-texts.mjs";
import { failure } from "../engine/helpers";
import { characterErrorRate } from "../helpers/text-image";
import { decodeKey, inkBox, readBack, seedModels } from "./helpers";

const BG = "work/typeset-scripts/white.png";
const box = { x: 40, y: 40, w: 1500, h: 90 };

async function typeset(text: string, out: string) {
  return env.ENGINE.typeset({ backgroundKey: BG, regions: [{ box, text, style: { font_size: 44 } }], outKey: out });
}

describe("typesetting other scripts", () => {
  beforeAll(async () => {
    await seedModels(
      ["ara", "kor"],
      ["fonts/NotoSansKR-Regular.ttf", "fonts/NotoSansArabic-Regular.ttf", "fonts/NotoSansHebrew-Regular.ttf"],
    );
    const { PhotonImage } = await import("@cf-wasm/photon");
    const img = new PhotonImage(new Uint8Array(1600 * 180 * 4).fill(255), 1600, 180);
    try {
      await env.FILES.put(BG, img.get_bytes());
    } finally {
      img.free();
    }
  });

  it("draws Arabic from the right edge, in reading order", async () => {
    const text = TEXTS.ara[0]!;
    const out = await typeset(text, "work/typeset-scripts/ara.png");
    const img = await decodeKey(out.key);
    const bg = await decodeKey(BG);
    const ink = inkBox(img, bg, box);
    expect(box.x + box.w - ink.x1, JSON.stringify(ink)).toBeLessThan(20);
    expect(ink.x0 - box.x, JSON.stringify(ink)).toBeGreaterThan(200);
    const read = await readBack(out.key, ["ara"]);
    expect(characterErrorRate(text, read.text), read.text).toBeLessThanOrEqual(0.1);
  });

  it("draws Korean with the Hangul face", async () => {
    const text = TEXTS.kor[0]!;
    const out = await typeset(text, "work/typeset-scripts/kor.png");
    expect(out.regions[0]!.fonts).toContain("Noto Sans KR");
    // The syllables drawn are the ones given (word spacing is the reader's, not the drawing's).
    const read = await readBack(out.key, ["kor"]);
    const squash = (s: string) => s.replace(/\s+/g, "");
    expect(characterErrorRate(squash(text), squash(read.text)), read.text).toBeLessThanOrEqual(0.1);
  });

  it("refuses Devanagari, which the renderer cannot shape", async () => {
    const err = await failure(typeset(TEXTS.hin[0]!, "work/typeset-scripts/hin.png"));
    expect(err.code).toBe("unsupported_language");
    expect(err.message).toContain("Devanagari");
  });
});
