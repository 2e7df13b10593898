import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { db as makeDb } from "../../src/db/client";
import { inpaintingStage } from "../../src/pipeline/stages/inpainting";
import { api, body, seedAccount, waitForJob } from "../helpers/api";
import { characterErrorRate } from "../helpers/text-image";
import { read } from "../exports/readers";
import { decode, ocr, scene, seedModels, upload } from "./helpers";
import { TEXT } from "./scenes.mjs";

/** Downloads an export of a finished job through its signed URL. */
async function download(job: any, format: string, auth: Record<string, string>): Promise<{ bytes: Uint8Array; res: Response }> {
  const exp = job.output.exports.find((e: any) => e.format === format);
  if (!exp) throw new Error(`no ${format} export in ${JSON.stringify(job.output)}`);
  const link = await body(await api(exp.download, { headers: auth }));
  const url = new URL(link.url);
  const res = await api(url.pathname + url.search);
  return { bytes: new Uint8Array(await res.clone().arrayBuffer()), res };
}

describe("translate and erase jobs, end to end", () => {
  beforeAll(async () => {
    await seedModels(["spa"]);
  });

  it("translate: removes the text, typesets the Spanish translation, exports PNG, PDF and text", async () => {
    const { auth } = await seedAccount({ credits: 20 });
    const res = await api("/api/v1/process", {
      method: "POST",
      headers: auth,
      body: upload(scene("flat").page, "bakery.png", {
        tool: "translate",
        source_language: "en",
        target_language: "es",
        export_formats: ["png", "pdf", "txt", "json"],
      }),
    });
    const created = await body(res);
    expect(res.status, JSON.stringify(created)).toBe(202);
    const job = await waitForJob(created.id, auth);
    expect(job.status, JSON.stringify(job)).toBe("completed");

    const project = await body(await api(`/api/v1/projects/${job.project_id}`, { headers: auth }));
    const regions = project.regions;
    expect(regions.length).toBeGreaterThan(0);
    for (const r of regions) {
      expect(r.translation, JSON.stringify(r)).toBeTruthy();
      expect(["fitted", "shrunk"]).toContain(r.overflow);
      expect(r.leftover_text).toBe(false);
      expect(r.style.color).toMatch(/^#[0-9a-f]{6}$/);
    }
    const translation = regions.map((r: any) => r.translation).join(" ");
    expect(project.pages[0].render_url, JSON.stringify(project.pages[0])).toMatch(/render\.png/);

    const png = await download(job, "png", auth);
    expect(png.res.headers.get("Content-Type")).toBe("image/png");
    expect(png.res.headers.get("Content-Disposition")).toContain("bakery.png");
    const img = decode(png.bytes);
    expect([img.width, img.height]).toEqual([1100, 380]);
    const read1 = await ocr(png.bytes, "work/jobs/render.png", ["spa"]);
    expect(characterErrorRate(translation, read1), `${read1} vs ${translation}`).toBeLessThanOrEqual(0.1);
    expect(characterErrorRate(TEXT.flat.lines.join(" "), read1)).toBeGreaterThan(0.5);

    const pdf = await download(job, "pdf", auth);
    expect(pdf.res.headers.get("Content-Type")).toBe("application/pdf");
    const txt = await read("pdftotext", pdf.bytes);
    expect(txt.code, txt.stderr).toBe(0);
    expect(txt.stdout.replace(/\s+/g, " ").trim()).toBe(translation.replace(/\s+/g, " ").trim());
    expect(
      new TextDecoder()
        .decode((await download(job, "txt", auth)).bytes)
        .trim()
        .replace(/\s+/g, " "),
    ).toBe(translation.replace(/\s+/g, " "));

    const timeline = await body(await api(`/api/v1/jobs/${job.id}/timeline`, { headers: auth }));
    const stages = timeline.events.filter((e: any) => e.type === "progress").map((e: any) => e.stage);
    expect(stages).toEqual(expect.arrayContaining(["translating", "inpainting", "rendering"]));
    expect(timeline.events.filter((e: any) => e.type === "warning")).toEqual([]);
  });

  it("erase: the exported page re-reads empty", async () => {
    const { auth } = await seedAccount({ credits: 20 });
    const created = await body(
      await api("/api/v1/process", {
        method: "POST",
        headers: auth,
        body: upload(scene("gradient").page, "sale.png", { tool: "erase", export_formats: ["png", "jpg"] }),
      }),
    );
    const job = await waitForJob(created.id, auth);
    expect(job.status, JSON.stringify(job)).toBe("completed");
    const png = await download(job, "png", auth);
    const text = await ocr(png.bytes, "work/jobs/erased.png", ["eng"]);
    expect(text.replace(/\s+/g, ""), text).toBe("");
    const jpg = await download(job, "jpg", auth);
    expect(jpg.res.headers.get("Content-Type")).toBe("image/jpeg");
    expect(decode(jpg.bytes).width).toBe(1100);
    const project = await body(await api(`/api/v1/projects/${job.project_id}`, { headers: auth }));
    expect(project.regions.length).toBeGreaterThan(0);
    expect(project.regions.every((r: any) => r.leftover_text === false)).toBe(true);
  });

  it("flags leftover text on the region and as a stage warning", async () => {
    const { auth, userId } = await seedAccount({ credits: 20 });
    // A finished translate job of the flat scene gives a real project; its first region's lines are
    // then cut down to the first, so inpainting that page again leaves the second line.
    const created = await body(
      await api("/api/v1/process", {
        method: "POST",
        headers: auth,
        body: upload(scene("flat").page, "bakery.png", {
          tool: "translate",
          source_language: "en",
          target_language: "es",
          export_formats: ["json"],
        }),
      }),
    );
    const job = await waitForJob(created.id, auth);
    expect(job.status, JSON.stringify(job)).toBe("completed");
    const row = await env.DB.prepare("SELECT id, lines FROM regions WHERE project_id = ? ORDER BY reading_order LIMIT 1")
      .bind(job.project_id)
      .first<{ id: string; lines: string }>();
    const lines = JSON.parse(row!.lines);
    expect(lines.length).toBe(2);
    await env.DB.prepare("UPDATE regions SET lines = ? WHERE id = ?")
      .bind(JSON.stringify(lines.slice(0, 1)), row!.id)
      .run();
    const plan = {
      jobId: job.id,
      attempt: 0,
      kind: "single" as const,
      userId,
      projectId: job.project_id,
      tool: "translate" as const,
      pages: 1,
      pagesToRun: [0],
      exportPages: [0],
      sourceKey: `uploads/${userId}/${job.id}/source`,
      languages: ["eng"],
      targetLanguage: "es",
      formats: ["json"],
      baseName: "bakery",
      concurrency: 1,
    };
    const result = await inpaintingStage(env, makeDb(env.DB), plan, 0);
    expect(
      result.warnings?.map((x) => x.code),
      JSON.stringify(result),
    ).toEqual(["leftover_text"]);
    expect(result.warnings![0]!.message).toContain(row!.id);
    const project = await body(await api(`/api/v1/projects/${job.project_id}`, { headers: auth }));
    expect(project.regions.find((r: any) => r.id === row!.id).leftover_text).toBe(true);
  });
});
