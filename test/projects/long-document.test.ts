import { env } from "cloudflare:workers";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { keys } from "../../src/lib/storage";
import { api, body, seedAccount, waitForJob } from "../helpers/api";
import { download, form } from "../jobs/fixtures";
import { json, seedProject } from "./seed";

/**
 * D1 binds at most 100 parameters to a statement. A document of more pages than that goes through
 * every step that reads or writes it by list — processing, export, re-render, project export,
 * duplicate, delete — and a merge sends more region ids than that in one request.
 */

const PAGES = 150;

/** A PDF of `pages` small pages, each with a text layer naming its page (read exactly, no OCR). */
async function textLayerPdf(pages: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) pdf.addPage([300, 100]).drawText(`Chapter ${i} begins here.`, { x: 20, y: 50, size: 14, font });
  return pdf.save();
}

async function count(sql: string, ...args: unknown[]): Promise<number> {
  return (await env.DB.prepare(sql)
    .bind(...args)
    .first<number>("n"))!;
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe(`a ${PAGES}-page document`, () => {
  it("is processed, exported, re-rendered, exported again, duplicated and deleted", { timeout: 900_000 }, async () => {
    const { userId, auth } = await seedAccount({ credits: 1000, plan: "pro" });
    const created = await api("/api/v1/process", {
      method: "POST",
      headers: auth,
      body: form([{ bytes: await textLayerPdf(PAGES), name: "book.pdf" }], { tool: "ocr", export_formats: ["txt"] }),
    });
    const job = await body(created);
    expect(created.status, JSON.stringify(job)).toBe(202);
    const done = await waitForJob(job.id, auth, 840_000);
    expect(done, JSON.stringify(done)).toMatchObject({ status: "completed", pages: { total: PAGES, succeeded: PAGES, failed: 0 } });
    const txt = text(
      await download(
        done.output.exports.find((e: any) => e.format === "txt"),
        auth,
      ),
    );
    expect(txt).toContain("Chapter 1 begins here.");
    expect(txt).toContain(`Chapter ${PAGES} begins here.`);

    const projectId = done.project_id as string;
    expect(await count("SELECT COUNT(*) AS n FROM pages WHERE project_id = ? AND status = 'ready'", projectId)).toBe(PAGES);
    const last = await env.DB.prepare(
      "SELECT r.id FROM regions r JOIN pages p ON p.id = r.page_id WHERE p.project_id = ? AND p.page_index = ? LIMIT 1",
    )
      .bind(projectId, PAGES - 1)
      .first<string>("id");
    const edited = await api(
      `/api/v1/projects/${projectId}/regions/${last}`,
      json("PATCH", auth, { text: "The last chapter, corrected." }),
    );
    expect(edited.status, await edited.clone().text()).toBe(200);

    const rerender = await api(`/api/v1/projects/${projectId}/rerender`, json("POST", auth, {}));
    const rerenderJob = await body(rerender);
    expect(rerender.status, JSON.stringify(rerenderJob)).toBe(202);
    const redrawn = await waitForJob(rerenderJob.id, auth, 600_000);
    expect(redrawn, JSON.stringify(redrawn)).toMatchObject({ status: "completed", pages: { total: PAGES, succeeded: PAGES } });
    expect(
      text(
        await download(
          redrawn.output.exports.find((e: any) => e.format === "txt"),
          auth,
        ),
      ),
    ).toContain("The last chapter, corrected.");

    const exported = await api(`/api/v1/projects/${projectId}/exports`, json("POST", auth, { format: "txt" }));
    const exp = await body(exported);
    expect(exported.status, JSON.stringify(exp)).toBe(201);
    const link = await body(await api(`/api/v1/exports/${exp.id}/download`, { headers: auth }));
    const rebuilt = text(new Uint8Array(await (await api(new URL(link.url).pathname + new URL(link.url).search)).arrayBuffer()));
    expect(rebuilt).toContain("Chapter 1 begins here.");
    expect(rebuilt).toContain("The last chapter, corrected.");

    const copy = await api(`/api/v1/projects/${projectId}/duplicate`, { method: "POST", headers: auth });
    const copied = await body(copy);
    expect(copy.status, JSON.stringify(copied)).toBe(200);
    expect(await count("SELECT COUNT(*) AS n FROM pages WHERE project_id = ?", copied.id)).toBe(PAGES);
    expect(await count("SELECT COUNT(*) AS n FROM regions WHERE project_id = ?", copied.id)).toBe(
      await count("SELECT COUNT(*) AS n FROM regions WHERE project_id = ?", projectId),
    );

    for (const id of [projectId, copied.id]) {
      const gone = await api(`/api/v1/projects/${id}?permanent=true`, { method: "DELETE", headers: auth });
      expect(gone.status, await gone.clone().text()).toBe(204);
      expect(await count("SELECT COUNT(*) AS n FROM pages WHERE project_id = ?", id)).toBe(0);
      expect((await env.FILES.list({ prefix: keys.projectPrefix(userId, id) })).objects).toEqual([]);
    }
  });

  it("merges more regions than a statement can bind in one request", async () => {
    const { userId, auth } = await seedAccount();
    const p = await seedProject(userId, {
      pages: [
        {
          width: 2000,
          height: 8000,
          regions: Array.from({ length: PAGES }, (_, i) => ({ text: `Line ${i + 1}`, box: { x: 10, y: 10 + i * 50, w: 400, h: 40 } })),
        },
      ],
    });
    const ids = p.regionIds[0]!;
    const merged = await api(`/api/v1/projects/${p.projectId}/regions/merge`, json("POST", auth, { region_ids: ids }));
    const out = await body(merged);
    expect(merged.status, JSON.stringify(out).slice(0, 500)).toBe(200);
    expect(out.text.split("\n")).toHaveLength(PAGES);
    expect(await count("SELECT COUNT(*) AS n FROM regions WHERE project_id = ?", p.projectId)).toBe(1);
  });
});
