import { env } from "cloudflare:workers";
import { expect, it } from "vitest";

it("health lists the seeded OCR languages and fonts", async () => {
  const health = await env.ENGINE.health();
  expect(health.ok).toBe(true);
  expect(health.ocrLanguages).toEqual(["eng"]);
  expect(health.fonts).toContain("DejaVuSans.ttf");
});

it("health names the tesseract build the engine loads: relaxed SIMD, which workerd validates", async () => {
  const health = await env.ENGINE.health();
  expect(health.tesseract, JSON.stringify(health)).toEqual({ version: "5.3.0", kernel: "relaxed-simd", module: "tesseract-relaxed.wasm" });
});
