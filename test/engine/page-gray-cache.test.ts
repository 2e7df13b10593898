import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { loadPageGray } from "../../workers/engine/ocr/page-raster";
import { renderTextPng } from "../helpers/text-image";

describe("page images decoded once per isolate (loadPageGray)", () => {
  it("serves the same version of a page from its decoded copy, and a new version decoded afresh", async () => {
    const key = "work/gray-cache/page.png";
    await env.FILES.put(key, await renderTextPng(["first version of the page"]));
    const etag = (await env.FILES.head(key))!.etag;
    const first = await loadPageGray(env.FILES, key, etag);
    expect(await loadPageGray(env.FILES, key, etag)).toBe(first);
    // Without an etag the caller gets a fresh decode of what is stored.
    const fresh = await loadPageGray(env.FILES, key);
    expect(fresh).not.toBe(first);
    expect(fresh.data).toEqual(first.data);

    await env.FILES.put(key, await renderTextPng(["the second, longer version of this page"]));
    const etag2 = (await env.FILES.head(key))!.etag;
    expect(etag2).not.toBe(etag);
    const second = await loadPageGray(env.FILES, key, etag2);
    expect(second.width).toBeGreaterThan(first.width);
    // A caller holding the old etag is not served the old pixels: the stored version is decoded.
    const stale = await loadPageGray(env.FILES, key, etag);
    expect(stale.width).toBe(second.width);
    // Another page in between releases the copy.
    await env.FILES.put("work/gray-cache/other.png", await renderTextPng(["another page"]));
    const other = (await env.FILES.head("work/gray-cache/other.png"))!.etag;
    await loadPageGray(env.FILES, "work/gray-cache/other.png", other);
    expect(await loadPageGray(env.FILES, key, etag2)).not.toBe(second);
  });
});
