import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { ocrLanguagesOf } from "../../src/modules/jobs/job-intake";
import { CreateJobRequest } from "../../src/modules/jobs/jobs.schemas";
import { OCR_MODELS } from "../../workers/shared/ocr-models";
import { api, body, seedAccount } from "../helpers/api";
import { renderTextPng } from "../helpers/text-image";
import { seedOcrModels } from "../engine/helpers";

const options = (source_language: string) => CreateJobRequest.parse({ source_language });

describe("OCR languages", () => {
  beforeAll(async () => {
    await seedOcrModels(["ara", "heb", "jpn_vert"]);
  });

  it("the catalogue names every tesseract model once, an ISO code selecting one model", () => {
    expect(OCR_MODELS.length).toBeGreaterThanOrEqual(120);
    expect(new Set(OCR_MODELS.map((m) => m.code)).size).toBe(OCR_MODELS.length);
    const main = OCR_MODELS.filter((m) => m.iso && !m.variant).map((m) => m.iso);
    expect(new Set(main).size).toBe(main.length);
    expect(OCR_MODELS.filter((m) => m.direction === "rtl").map((m) => m.code)).toEqual(
      expect.arrayContaining(["ara", "heb", "fas", "urd", "yid"]),
    );
  });

  it("/languages and /config list each seeded model with its name, script and direction", async () => {
    const langs = await body(await api("/api/v1/languages"));
    const config = await body(await api("/api/v1/config"));
    expect(config.languages.ocr).toEqual(langs.ocr);
    const byCode = Object.fromEntries(langs.ocr.map((l: any) => [l.ocr_code, l]));
    expect(Object.keys(byCode).sort()).toEqual(["ara", "eng", "heb", "jpn_vert"]);
    expect(byCode.ara).toEqual({ code: "ar", name: "Arabic", ocr_code: "ara", script: "Arabic", direction: "rtl", vertical: false });
    expect(byCode.heb).toMatchObject({ code: "he", direction: "rtl", script: "Hebrew" });
    expect(byCode.jpn_vert).toEqual({
      code: "jpn_vert",
      name: "Japanese (vertical)",
      ocr_code: "jpn_vert",
      script: "Japanese",
      direction: "ltr",
      vertical: true,
    });
    expect(byCode.eng).toMatchObject({ code: "en", direction: "ltr", vertical: false });
  });

  it.each([
    ["ar", ["ara"]],
    ["ara", ["ara"]],
    ["he", ["heb"]],
    ["jpn_vert", ["jpn_vert"]],
    ["en+ar", ["eng", "ara"]],
    ["auto", ["auto"]],
  ])("source_language %s reads with %j", async (source, expected) => {
    expect(await ocrLanguagesOf(env, options(source))).toEqual(expected);
  });

  it.each([
    ["zz", ["zz"]],
    ["ky", ["kir"]],
    ["en+ru", ["rus"]],
  ])("source_language %s is refused: %j missing", async (source, missing) => {
    const err = await ocrLanguagesOf(env, options(source)).then(
      () => null,
      (e: any) => e,
    );
    expect(err?.code).toBe("unsupported_language");
    expect(err.details.missing).toEqual(missing);
  });

  it.each([
    ["hi", "Devanagari"],
    ["bn", "Bengali"],
    ["ta", "Tamil"],
  ])("a translation into %s (%s) is refused before anything is stored: its pages cannot be drawn", async (target, script) => {
    const { auth } = await seedAccount();
    const form = new FormData();
    form.set("file", new File([await renderTextPng(["x"])], "a.png", { type: "image/png" }));
    form.set("options", JSON.stringify({ tool: "translate", source_language: "ar", target_language: target }));
    const res = await api("/api/v1/process", { method: "POST", headers: auth, body: form });
    const b = await body(res);
    expect(res.status, JSON.stringify(b)).toBe(422);
    expect(b.error).toMatchObject({ code: "unsupported_language", details: { language: target, script } });
    expect(b.error.message).toContain(script);
  });

  it("a job in a language whose model is not installed is refused with the catalogued error", async () => {
    const { auth } = await seedAccount();
    const form = new FormData();
    form.set("file", new File([await renderTextPng(["x"])], "a.png", { type: "image/png" }));
    form.set("options", JSON.stringify({ source_language: "ko" }));
    const res = await api("/api/v1/process", { method: "POST", headers: auth, body: form });
    const b = await body(res);
    expect(res.status, JSON.stringify(b)).toBe(422);
    expect(b.error).toMatchObject({ code: "unsupported_language", retryable: false, details: { language: "ko", missing: ["kor"] } });
    expect(b.error.message).toContain("/api/v1/languages");
  });
});
