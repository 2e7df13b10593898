import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
it("pings", async () => {
  expect(await env.ENGINE.ping()).toEqual({ ok: true });
  await env.FILES.put("x", "hello");
});
