// Uploads up to the 50 MiB limit against `npm run dev`, whose engine processes read uploads and
// write pages and exports through the api process's storage (workers/dev/storage-bridge.ts):
// nothing over Workers RPC's 32 MiB may cross as one buffer. A scanned PDF of 45 MiB is read to the
// end; a file of exactly the limit that is no document is refused as such, not as a server fault.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MiB, randomBytes, scannedJpegPdf } from "../../test/helpers/large-files";
import { LingoscanError } from "../src/index.js";
import { client, root } from "./helpers";

const jpeg = new Uint8Array(readFileSync(path.join(root, "test/fixtures/real/tjs_simple.jpg")));
const LIMIT = 50 * MiB;

describe("uploads between RPC's 32 MiB and the 50 MiB limit", () => {
  it("a 45 MiB scanned PDF is recognised page by page and its text downloads", { timeout: 300_000 }, async () => {
    const pdf = await scannedJpegPdf(jpeg, 3, 45 * MiB);
    expect(pdf.byteLength).toBeGreaterThan(44 * MiB);
    // No retries: a request that fails must say so at once, not be sent again.
    const ls = client({ maxRetries: 0 });
    const job = await ls.process({ name: "scan.pdf", data: pdf, type: "application/pdf" }, { tool: "ocr", export_formats: ["txt"] });
    expect(job.source, JSON.stringify(job)).toMatchObject({ bytes: pdf.byteLength, type: "pdf" });
    const done = await ls.waitForJob(job.id);
    expect(done, JSON.stringify(done)).toMatchObject({ status: "completed", pages: { total: 3, succeeded: 3, failed: 0 } });
    const text = new TextDecoder().decode((await ls.download(done.output.exports.find((e) => e.format === "txt")!)).bytes);
    expect(text.match(/Tesseract\.js/g), text).toHaveLength(3);
  });

  it("a file of exactly 50 MiB that is no document is refused with 415, not retryable", { timeout: 300_000 }, async () => {
    const ls = client({ maxRetries: 0 });
    const err = await ls.process({ name: "noise.bin", data: randomBytes(LIMIT), type: "application/octet-stream" }).catch((e) => e);
    expect(err, String(err)).toBeInstanceOf(LingoscanError);
    expect({ code: err.code, status: err.status, retryable: err.retryable }, err.message).toEqual({
      code: "unsupported_media_type",
      status: 415,
      retryable: false,
    });
  });
});
