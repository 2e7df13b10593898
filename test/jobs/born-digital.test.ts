import { env } from "cloudflare:workers";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { keys } from "../../src/lib/storage";
import { decodePngToGray } from "../../workers/engine/image/png";
import { api, body, seedAccount, waitForJob } from "../helpers/api";
import { download, LINES } from "./fixtures";

/** Dark pixels of the stored page image (0 for a blank canvas). */
async function darkPixels(key: string): Promise<number> {
  const obj = await env.FILES.get(key);
  const img = await decodePngToGray(new Uint8Array(await obj!.arrayBuffer()));
  return img!.data.reduce((n, v) => n + (v < 128 ? 1 : 0), 0);
}

describe("a born-digital (text-layer) PDF through an ocr job", { timeout: 180_000 }, () => {
  it("completes with its exports complete, and its page image is drawn once the job is done", async () => {
    const { userId, auth } = await seedAccount({ credits: 10 });
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([595, 842]);
    LINES.forEach((l, i) => page.drawText(l, { x: 60, y: 760 - i * 24, size: 14, font }));
    const form = new FormData();
    form.append("file", new File([await doc.save()], "letter.pdf"));
    form.append("options", JSON.stringify({ tool: "ocr" }));
    const created = await body(await api("/api/v1/process", { method: "POST", headers: auth, body: form }));
    const job = await waitForJob(created.id, auth);
    expect(job.status, JSON.stringify(job)).toBe("completed");
    // What the user downloads is complete when the job says completed.
    const txt = job.output.exports.find((e: any) => e.format === "txt");
    expect(new TextDecoder().decode(await download(txt, auth)).trim()).toBe(LINES.join("\n"));
    // The text layer is read in one step: one progress event for the three page stages, and the
    // job skips the stages no page ran on its own (detection and recognition read the layer).
    const { events } = await body(await api(`/api/v1/jobs/${created.id}/timeline`, { headers: auth }));
    const progress = events.filter((e: any) => e.type === "progress");
    expect(
      progress.map((e: any) => e.data.stages),
      JSON.stringify(events),
    ).toEqual([["preprocessing", "detecting", "recognizing"]]);
    expect(progress[0].data.percent).toBeLessThanOrEqual(99);
    const states = events.filter((e: any) => e.type === "status").map((e: any) => e.status);
    expect(states).toEqual(["created", "uploading", "queued", "preprocessing", "exporting", "completed"]);
    // The editor's page image: drawn by the browser after completion, over the blank canvas.
    const key = keys.pageImage(userId, created.id, 0);
    let dark = 0;
    for (let waited = 0; dark === 0 && waited < 120_000; waited += 500) {
      await new Promise((r) => setTimeout(r, 500));
      dark = await darkPixels(key);
    }
    expect(dark).toBeGreaterThan(1000);
  });
});
