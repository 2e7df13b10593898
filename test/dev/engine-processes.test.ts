// The local engine processes' plumbing (workers/dev/): the storage bridge the engine reads and
// writes through in an engine process, over the real local R2 of the test pool, and the pool's
// choice of engine process.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { readBytes, readJson, listKeys, writeJson, writeObject } from "../../workers/engine/storage/r2";
import { readPageMeta } from "../../workers/engine/storage/page-meta";
import { pickEngine } from "../../workers/dev/engine-pool";
import { remoteBucket, storageCalls } from "../../workers/dev/storage-bridge";

const calls = storageCalls({ FILES: env.FILES, MODELS: env.MODELS });
const files = remoteBucket(calls, "FILES");

describe("storage bridge (an engine process's FILES and MODELS)", () => {
  it("writes objects the api process reads, with their content type and custom metadata, and reads them back", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    // A view that does not start at offset 0 of its buffer: only its bytes cross.
    const view = new Uint8Array([9, 9, ...png]).subarray(2);
    const size = await writeObject(files, "bridge/p1.png", view, "image/png", { path: "rasterized", transform: '{"rotate":90}' });
    expect(size).toBe(png.byteLength);

    const direct = await env.FILES.get("bridge/p1.png");
    expect(new Uint8Array(await direct!.arrayBuffer())).toEqual(png);
    expect(direct!.httpMetadata?.contentType).toBe("image/png");
    expect(direct!.customMetadata).toEqual({ path: "rasterized", transform: '{"rotate":90}' });

    expect(await readBytes(files, "bridge/p1.png")).toEqual(png);
    const meta = await readPageMeta(files, "bridge/p1.png");
    expect(meta).toMatchObject({ path: "rasterized", transform: { rotate: 90 }, textLayerKey: null, etag: direct!.etag });
    const head = await files.head("bridge/p1.png");
    expect(head!.uploaded).toBeInstanceOf(Date);
    expect(head!.size).toBe(png.byteLength);
  });

  it("reads what the api process wrote, as JSON and text, and answers null or not_found for a missing key", async () => {
    await env.FILES.put("bridge/doc.json", JSON.stringify({ pages: 3 }));
    expect(await readJson(files, "bridge/doc.json", "document")).toEqual({ pages: 3 });
    expect(await (await files.get("bridge/doc.json"))!.text()).toBe('{"pages":3}');
    expect(await files.get("bridge/missing")).toBeNull();
    expect(await files.head("bridge/missing")).toBeNull();
    await expect(readBytes(files, "bridge/missing", "page")).rejects.toThrow(/^\[not_found\] No page at key "bridge\/missing"/);
  });

  it("lists every key under a prefix across pages of the listing, and deletes", async () => {
    const keys = Array.from({ length: 7 }, (_, i) => `bridge/list/k${i}`);
    for (const k of keys) await writeJson(files, k, { k });
    const firstPage = await files.list({ prefix: "bridge/list/", limit: 3 });
    expect(firstPage.objects.map((o) => o.key)).toEqual(keys.slice(0, 3));
    expect(firstPage.truncated).toBe(true);
    const rest = await files.list({ prefix: "bridge/list/", limit: 10, cursor: firstPage.truncated ? firstPage.cursor : undefined });
    expect(rest.objects.map((o) => o.key)).toEqual(keys.slice(3));
    expect(await listKeys(files, "bridge/list/")).toEqual(keys);
    await files.delete(keys.slice(0, 2));
    expect(await listKeys(env.FILES, "bridge/list/")).toEqual(keys.slice(2));
  });

  it("reaches MODELS as its own bucket", async () => {
    await env.MODELS.put("bridge/model.bin", new Uint8Array([1, 2, 3]));
    const models = remoteBucket(calls, "MODELS");
    expect(await readBytes(models, "bridge/model.bin")).toEqual(new Uint8Array([1, 2, 3]));
    expect(await files.head("bridge/model.bin")).toBeNull();
  });
});

describe("pickEngine (which engine process takes a call)", () => {
  const names = ["ENGINE_0", "ENGINE_1", "ENGINE_2"];
  it("takes the process with the fewest calls in flight", () => {
    const busy = new Map([
      ["ENGINE_0", 2],
      ["ENGINE_1", 0],
      ["ENGINE_2", 1],
    ]);
    for (let start = 0; start < 6; start++) expect(pickEngine(names, busy, start)).toBe("ENGINE_1");
  });
  it("shares idle processes round-robin", () => {
    expect([0, 1, 2, 3].map((start) => pickEngine(names, new Map(), start))).toEqual(["ENGINE_0", "ENGINE_1", "ENGINE_2", "ENGINE_0"]);
  });
});
