import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { OCR_MODELS } from "../../workers/shared/ocr-models";
import { api, body } from "../helpers/api";

/**
 * Production seeds every catalogued model (`npm run deploy` → `seed:models --remote`). The listing
 * is built from the keys in MODELS and the catalogue, so each key here holds the same small
 * marker instead of its model file (123 real models weigh 174 MB); nothing here reads a model.
 */
describe("/languages with every catalogued model seeded", () => {
  beforeAll(async () => {
    for (const m of OCR_MODELS) await env.MODELS.put(`tessdata/${m.code}.traineddata.gz`, "listing test: not a model");
  });

  it("lists each catalogued model once, with the catalogue's name, script and direction (well over 100)", async () => {
    const langs = await body(await api("/api/v1/languages"));
    expect(langs.ocr.length).toBeGreaterThanOrEqual(100);
    expect(langs.ocr.map((l: any) => l.ocr_code).sort()).toEqual(OCR_MODELS.map((m) => m.code).sort());
    for (const m of OCR_MODELS) {
      const l = langs.ocr.find((x: any) => x.ocr_code === m.code);
      expect(l, m.code).toMatchObject({
        name: m.name,
        script: m.script,
        direction: m.direction,
        vertical: !!m.vertical,
        code: m.iso && !m.variant ? m.iso : m.code,
      });
    }
    const codes = langs.ocr.map((l: any) => l.code);
    expect(new Set(codes).size, "each source_language code selects one model").toBe(codes.length);
    expect((await body(await api("/api/v1/config"))).languages.ocr).toEqual(langs.ocr);
  });

  it("readiness counts every seeded model", async () => {
    const b = await body(await api("/health/ready"));
    expect(b.checks.models, JSON.stringify(b)).toEqual(
      expect.objectContaining({ status: "ok", detail: `${OCR_MODELS.length} OCR models` }),
    );
  });
});
