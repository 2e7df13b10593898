import { env } from "cloudflare:workers";
import { expect, it } from "vitest";

it("health lists the seeded OCR languages and fonts", async () => {
  const health = await env.ENGINE.health();
  expect(health.ok).toBe(true);
  expect(health.ocrLanguages).toEqual(["eng"]);
  expect(health.fonts).toContain("DejaVuSans.ttf");
});
