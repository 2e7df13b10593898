// `npm run dev`'s engine processes reach the api process's R2 over RPC (workers/dev/storage-bridge.ts),
// and Workers RPC refuses arguments and results over 32 MiB. Uploads go up to 50 MiB and exports of
// long documents beyond it: their bodies must cross as streams. The bridge is served here from a
// Worker of its own (LocalStorage, vitest.config.mts), so every call crosses a real RPC boundary.
import { env } from "cloudflare:workers";
import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { LIMITS } from "../../src/lib/limits";
import { remoteBucket, type StorageCalls } from "../../workers/dev/storage-bridge";
import { sniffFormat } from "../../workers/engine/image/sniff";
import { readBytes, writeObject } from "../../workers/engine/storage/r2";
import { realFixture } from "../engine/helpers";
import { digest, MiB, randomBytes, scannedJpegPdf } from "../helpers/large-files";

const storage = (env as unknown as { DEV_STORAGE: StorageCalls }).DEV_STORAGE;
const files = remoteBucket(storage, "FILES");

describe("storage bridge, objects over RPC's 32 MiB", () => {
  it("an engine process reads a 45 MiB scanned PDF the api stored, whole", { timeout: 120_000 }, async () => {
    const pdf = await scannedJpegPdf(realFixture("tjs_simple.jpg"), 3, 45 * MiB);
    expect(pdf.byteLength).toBeGreaterThan(44 * MiB);
    await env.FILES.put("uploads/bridge/scan.pdf", pdf);
    const read = await readBytes(files, "uploads/bridge/scan.pdf");
    expect(read.byteLength).toBe(pdf.byteLength);
    expect(await digest(read)).toBe(await digest(pdf));
    expect(sniffFormat(read)).toBe("pdf");
    expect((await PDFDocument.load(read)).getPageCount()).toBe(3);
  });

  it("reads an upload of exactly the upload limit, and its body as a stream", { timeout: 120_000 }, async () => {
    const upload = randomBytes(LIMITS.max_upload_bytes);
    await env.FILES.put("uploads/bridge/limit.bin", upload);
    const object = await files.get("uploads/bridge/limit.bin");
    expect(object!.size).toBe(LIMITS.max_upload_bytes);
    expect(await digest(await new Response(object!.body).arrayBuffer())).toBe(await digest(upload));
  });

  it("an engine process writes a 40 MiB export the api then serves, with its content type", { timeout: 120_000 }, async () => {
    const exported = randomBytes(40 * MiB);
    // A view into a larger buffer: only its own bytes are stored.
    const view = new Uint8Array(exported.byteLength + 16);
    view.set(exported, 8);
    expect(await writeObject(files, "exports/bridge/long.pdf", view.subarray(8, 8 + exported.byteLength), "application/pdf")).toBe(
      exported.byteLength,
    );
    const stored = await env.FILES.get("exports/bridge/long.pdf");
    expect(stored!.size).toBe(exported.byteLength);
    expect(stored!.httpMetadata?.contentType).toBe("application/pdf");
    expect(await digest(await stored!.arrayBuffer())).toBe(await digest(exported));
  });
});
