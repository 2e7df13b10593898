import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { api, body, seedAccount, waitForJob } from "../helpers/api";
import { characterErrorRate, renderTextPng } from "../helpers/text-image";
import { detail, fetchSigned, json } from "./seed";

const LINES = ["Invoice number 4821 is due on 12 March 2026.", "Please pay the total amount of 1,250 euros."];

async function filesUnder(prefix: string): Promise<string[]> {
  return (await env.FILES.list({ prefix })).objects.map((o) => o.key);
}

describe("a project made by a real OCR job", () => {
  it("is listed, edited, re-read, exported from its edits, trashed, restored and deleted with its files", async () => {
    const { userId, auth } = await seedAccount({ credits: 10 });
    const form = new FormData();
    form.append("file", new File([await renderTextPng(LINES, { lineSpacing: 3 })], "invoice.png"));
    form.append("options", JSON.stringify({ tool: "ocr", export_formats: ["txt", "json"] }));
    const created = await body(await api("/api/v1/process", { method: "POST", headers: auth, body: form }));
    const job = await waitForJob(created.id, auth);
    expect(job.status, JSON.stringify(job)).toBe("completed");
    const projectId = job.project_id as string;
    // The project's status follows the job's terminal transition in a separate write: wait for it.
    for (let i = 0; i < 50 && (await detail(projectId, auth)).status === "processing"; i++) await new Promise((r) => setTimeout(r, 100));

    const listed = await body(await api("/api/v1/projects?tool=ocr", { headers: auth }));
    expect(listed.items.map((p: any) => [p.id, p.name, p.status, p.source_job_id])).toEqual([[projectId, "invoice.png", "ready", job.id]]);

    const project = await detail(projectId, auth);
    expect(project.pages).toHaveLength(1);
    const image = await fetchSigned(project.pages[0].image_url);
    expect(image.status).toBe(200);
    expect([...new Uint8Array(await image.arrayBuffer()).slice(1, 4)]).toEqual([0x50, 0x4e, 0x47]); // PNG
    expect(Date.parse(project.urls_expire_at)).toBeGreaterThan(Date.now());
    const recognised = project.regions.map((r: any) => r.text).join("\n");
    expect(project.regions).toHaveLength(1); // one block of two lines
    expect(characterErrorRate(LINES.join("\n"), recognised), recognised).toBeLessThanOrEqual(0.05);
    expect(project.regions[0]).toMatchObject({ page_index: 0, order: 0, user_text: null, source_language: "eng" });
    expect(project.regions[0].confidence).toBeGreaterThan(0.5);

    // Re-read the region at full resolution: the recognised text comes back, a correction is cleared.
    const region = project.regions[0];
    await api(`/api/v1/projects/${projectId}/regions/${region.id}`, json("PATCH", auth, { text: "garbage" }));
    const reocr = await api(`/api/v1/projects/${projectId}/regions/${region.id}/reocr`, json("POST", auth, {}));
    const reread = await body(reocr);
    expect(reocr.status, JSON.stringify(reread)).toBe(200);
    expect(reread).toMatchObject({ id: region.id, user_text: null, box: region.box });
    expect(characterErrorRate(LINES.join("\n"), reread.text), reread.text).toBeLessThanOrEqual(0.05);
    const badLang = await api(`/api/v1/projects/${projectId}/regions/${region.id}/reocr`, json("POST", auth, { languages: ["xx"] }));
    expect((await body(badLang)).error.code).toBe("unsupported_language");

    // Split the recognised block by line: each piece gets its recognised line's box.
    const split = await api(`/api/v1/projects/${projectId}/regions/${region.id}/split`, json("POST", auth, { mode: "lines" }));
    const pieces = await body(split);
    expect(split.status, JSON.stringify(pieces)).toBe(200);
    expect(pieces).toHaveLength(2);
    pieces.forEach((piece: any, i: number) => expect(characterErrorRate(LINES[i]!, piece.text), piece.text).toBeLessThanOrEqual(0.05));
    expect(pieces[1].box.y).toBeGreaterThanOrEqual(pieces[0].box.y + pieces[0].box.h);

    // Correct the first line; the recognised text stays.
    const first = pieces[0];
    const edited = await body(
      await api(`/api/v1/projects/${projectId}/regions/${first.id}`, json("PATCH", auth, { text: "CORRECTED BY HAND" })),
    );
    expect(edited).toMatchObject({ text: first.text, user_text: "CORRECTED BY HAND" });

    // An export built from the project uses the edits, without recognising again.
    const exp = await api(`/api/v1/projects/${projectId}/exports`, json("POST", auth, { format: "txt" }));
    const out = await body(exp);
    expect(exp.status, JSON.stringify(out)).toBe(201);
    expect(out).toMatchObject({ project_id: projectId, job_id: null, format: "txt", status: "ready", filename: "invoice.txt" });
    const link = await body(await api(out.download, { headers: auth }));
    const text = await (await fetchSigned(link.url)).text();
    expect(text).toContain("CORRECTED BY HAND");
    expect(text).not.toContain(first.text);
    expect(characterErrorRate(LINES[1]!, text.split("\n\n")[1]!.trim())).toBeLessThanOrEqual(0.05);
    const jsonExport = await body(await api(`/api/v1/projects/${projectId}/exports`, json("POST", auth, { format: "json" })));
    const doc = await body(await fetchSigned((await body(await api(jsonExport.download, { headers: auth }))).url));
    expect(doc.pages[0].regions[0].text).toBe("CORRECTED BY HAND");
    // Office formats come from the same edited document: the DOCX is a zip holding the correction.
    const docx = await body(await api(`/api/v1/projects/${projectId}/exports`, json("POST", auth, { format: "docx" })));
    expect(docx.format, JSON.stringify(docx)).toBe("docx");
    const docxBytes = new Uint8Array(
      await (await fetchSigned((await body(await api(docx.download, { headers: auth }))).url)).arrayBuffer(),
    );
    expect([...docxBytes.slice(0, 2)]).toEqual([0x50, 0x4b]);
    const { unzipSync, strFromU8 } = await import("fflate");
    expect(strFromU8(unzipSync(docxBytes)["word/document.xml"]!)).toContain("CORRECTED BY HAND");
    expect((await api(`/api/v1/projects/${projectId}/exports`, json("POST", auth, { format: "html" }))).status).toBe(422);
    const exports = await body(await api(`/api/v1/projects/${projectId}/exports`, { headers: auth }));
    expect(exports.map((e: any) => e.format).sort()).toEqual(["docx", "json", "json", "txt", "txt"]);
    expect(exports[0].id).toBe(docx.id); // newest first

    // Trash → restore → permanent delete → 404, with every file gone.
    expect((await api(`/api/v1/projects/${projectId}`, { method: "DELETE", headers: auth })).status).toBe(204);
    expect((await body(await api(`/api/v1/projects/${projectId}/restore`, { method: "POST", headers: auth }))).trashed_at).toBeNull();
    const prefixes = [
      `uploads/${userId}/${job.id}/`,
      `pages/${userId}/${job.id}/`,
      `exports/${userId}/${job.id}/`,
      `exports/${userId}/${projectId}/`,
    ];
    for (const p of prefixes) expect((await filesUnder(p)).length, p).toBeGreaterThan(0);
    expect((await api(`/api/v1/projects/${projectId}?permanent=true`, { method: "DELETE", headers: auth })).status).toBe(204);
    expect((await api(`/api/v1/projects/${projectId}`, { headers: auth })).status).toBe(404);
    for (const p of prefixes) expect(await filesUnder(p), p).toEqual([]);
    expect((await fetchSigned(project.pages[0].image_url)).status).toBe(404);
    // The job stays as history, without its project.
    const after = await body(await api(`/api/v1/jobs/${job.id}`, { headers: auth }));
    expect(after).toMatchObject({ id: job.id, status: "completed", project_id: null });
  });
});
