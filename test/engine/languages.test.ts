import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { TEXTS } from "../bench/ocr-texts.mjs";
import { unshapedScript } from "../../workers/shared/shaping";
import { ocrModel } from "../../workers/shared/ocr-models";
import { characterErrorRate } from "./cer";
import { fixture, put, readPage, seedOcrModels } from "./helpers";

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const texts = TEXTS as Record<string, string[]>;

describe("recognition in every seeded language", () => {
  beforeAll(async () => {
    await seedOcrModels(Object.keys(texts));
  });

  it("health lists the seeded languages", async () => {
    const health = await env.ENGINE.health();
    expect(health.ocrLanguages).toEqual(expect.arrayContaining(Object.keys(texts)));
  });

  // Pages are drawn by resvg (fixtures-global-setup.ts), which cannot draw the Indic scripts.
  for (const lang of Object.keys(texts).filter((l) => !unshapedScript(texts[l]!.join("")))) {
    // CJK glyphs at 18 pt / 200 dpi are ~50 px: best_int models miss about one in twenty.
    // Columns (vertical models) are compared like CJK, without spaces: a column has no word gaps to read.
    const cjk = CJK.test(texts[lang]![0]!) || !!ocrModel(lang)?.vertical;
    const limit = cjk ? 0.1 : 0.03;
    it(`${lang}: CER ≤ ${limit * 100} % with its model`, async () => {
      const key = await put(`uploads/lang/${lang}.png`, fixture(`lang_${lang}`));
      const { rec, text } = await readPage(`lang-${lang}`, key, 0, [lang]);
      // CJK: compared without spaces and with full-width punctuation folded (NFKC: "？" = "?").
      const expected = cjk ? texts[lang]!.join("").replace(/\s+/g, "").normalize("NFKC") : texts[lang]!.join(" ");
      const got = cjk ? text.text.replace(/\s+/g, "").normalize("NFKC") : text.text;
      const cer = characterErrorRate(expected, got);
      expect(cer, `${lang}: ${text.text}`).toBeLessThanOrEqual(limit);
      expect(rec.languages).toEqual([lang]);
      if (CJK.test(expected)) {
        // No spurious spaces between CJK characters inside a line.
        for (const line of text.regions.flatMap((r) => r.lines))
          expect(line.text, line.text).not.toMatch(
            /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}] [\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u,
          );
      }
    });
  }

  for (const lang of ["fra", "deu", "jpn", "chi_sim"]) {
    it(`auto picks ${lang} by script and language detection`, async () => {
      const key = await put(`uploads/auto/${lang}.png`, fixture(`lang_${lang}`));
      const { rec } = await readPage(`auto-${lang}`, key, 0, ["auto"]);
      expect(rec.languages).toEqual([lang]);
    });
  }
});
