import { env } from "cloudflare:workers";
import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { api, body, seedAccount, waitForJob } from "../helpers/api";
import { characterErrorRate, renderTextPng } from "../helpers/text-image";

const LINES = [
  "The quick brown fox jumps over the lazy dog.",
  "Invoice number 4821 is due on 12 March 2026.",
  "Please pay the total amount of 1,250 euros.",
];

function upload(file: Uint8Array | string, name: string, options?: unknown) {
  const form = new FormData();
  form.append("file", new File([file], name));
  if (options !== undefined) form.append("options", typeof options === "string" ? options : JSON.stringify(options));
  return form;
}

async function countRows(table: string, userId: string) {
  const row = await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE user_id = ?`).bind(userId).first<{ n: number }>();
  return row!.n;
}

async function uploadsOf(userId: string) {
  return (await env.FILES.list({ prefix: `uploads/${userId}/` })).objects.length;
}

describe("POST /api/v1/process, ocr end to end", () => {
  it("runs the real pipeline to completed and exports the recognised text", async () => {
    const { userId, auth } = await seedAccount({ credits: 10 });
    const png = await renderTextPng(LINES);
    const res = await api("/api/v1/process", {
      method: "POST",
      headers: auth,
      body: upload(png, "letter.png", { tool: "ocr", export_formats: ["txt", "json"] }),
    });
    const created = await body(res);
    expect(res.status, JSON.stringify(created)).toBe(202);
    expect(created.id).toMatch(/^job_/);
    expect(created.status).toBe("queued");
    expect(created.cost).toEqual({ estimated: 1, reserved: 1, charged: 0 });
    expect(created.source).toEqual({ name: "letter.png", bytes: png.byteLength, type: "png" });

    const job = await waitForJob(created.id, auth);
    expect(job.status, JSON.stringify(job)).toBe("completed");
    expect(job.progress).toEqual({ percent: 100 });
    expect(job.pages).toEqual({ total: 1, succeeded: 1, failed: 0 });
    expect(job.cost).toEqual({ estimated: 1, reserved: 0, charged: 1 });
    expect(job.output.exports.map((e: any) => e.format).sort()).toEqual(["json", "txt"]);

    // Every state was passed through, in order, with a timestamp.
    const timeline = await body(await api(`/api/v1/jobs/${job.id}/timeline`, { headers: auth }));
    const states = timeline.events.filter((e: any) => e.type === "status").map((e: any) => e.status);
    expect(states).toEqual(["created", "uploading", "queued", "preprocessing", "detecting", "recognizing", "exporting", "completed"]);
    expect(timeline.events.every((e: any) => !Number.isNaN(Date.parse(e.at)))).toBe(true);

    // The SSE stream replays the whole progress after the fact and ends with `done`.
    const sse = await api(`/api/v1/jobs/${job.id}/events`, { headers: auth });
    expect(sse.headers.get("Content-Type")).toContain("text/event-stream");
    const stream = await sse.text();
    expect(stream).toMatch(/id: 1\nevent: status\ndata: \{[^\n]*"status":"created"/);
    expect(stream).toContain('"stage":"recognizing"');
    expect(stream.trimEnd()).toMatch(/event: done\ndata: \{"job_id":"job_[a-z0-9]+","status":"completed"\}$/);
    const resumed = await (await api(`/api/v1/jobs/${job.id}/events`, { headers: { ...auth, "Last-Event-ID": "3" } })).text();
    expect(resumed).not.toContain('"status":"queued"');
    expect(resumed).toContain('"status":"preprocessing"');

    // Download through a short-lived signed URL served by the api Worker.
    const txt = job.output.exports.find((e: any) => e.format === "txt");
    const link = await body(await api(txt.download, { headers: auth }));
    expect(link.url).toMatch(/\/files\/exports\/.+\?exp=\d+&name=.+&sig=[0-9a-f]{64}$/);
    const file = await api(new URL(link.url).pathname + new URL(link.url).search);
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Disposition")).toContain("letter.txt");
    const text = await file.text();
    const cer = characterErrorRate(LINES.join("\n"), text.trim().replace(/\n{2,}/g, "\n"));
    expect(cer, `recognised:\n${text}`).toBeLessThanOrEqual(0.02);

    // A tampered signature is refused.
    const forged = new URL(link.url);
    forged.searchParams.set("name", "other.txt");
    expect((await api(forged.pathname + forged.search)).status).toBe(403);

    // The JSON export carries regions with boxes and confidences.
    const jsonLink = await body(await api(job.output.exports.find((e: any) => e.format === "json").download, { headers: auth }));
    const doc = await body(await api(new URL(jsonLink.url).pathname + new URL(jsonLink.url).search));
    const regions = doc.pages[0].regions;
    expect(regions.length).toBeGreaterThan(0);
    expect(regions[0].box.w).toBeGreaterThan(0);
    expect(regions[0].confidence).toBeGreaterThan(0.5);

    // Credits: one page charged, through the ledger; the balance equals the ledger's sum.
    const wallet = await env.DB.prepare("SELECT balance, reserved FROM wallets WHERE user_id = ?")
      .bind(userId)
      .first<{ balance: number; reserved: number }>();
    expect(wallet).toEqual({ balance: 9, reserved: 0 });
    const sum = await env.DB.prepare("SELECT SUM(amount) AS b, SUM(reserved_delta) AS r FROM ledger_entries WHERE user_id = ?")
      .bind(userId)
      .first<{ b: number; r: number }>();
    expect(sum).toEqual({ b: 9, r: 0 });

    // The project holds the recognised regions.
    const stored = await env.DB.prepare("SELECT COUNT(*) AS n FROM regions WHERE project_id = ?")
      .bind(job.project_id)
      .first<{ n: number }>();
    expect(stored!.n).toBe(regions.length);
  });

  it("lists the job, newest first", async () => {
    const { auth } = await seedAccount();
    const res = await api("/api/v1/process", { method: "POST", headers: auth, body: upload(await renderTextPng(["Hello"]), "a.png") });
    const created = await body(res);
    await waitForJob(created.id, auth);
    const list = await body(await api("/api/v1/jobs?limit=5", { headers: auth }));
    expect(list).toMatchObject({ total: 1, limit: 5, offset: 0 });
    expect(list.items[0].id).toBe(created.id);
  });
});

describe("POST /api/v1/process refusals leave nothing behind", () => {
  it("refuses a disguised file with 415", async () => {
    const { userId, auth } = await seedAccount();
    const res = await api("/api/v1/process", { method: "POST", headers: auth, body: upload("just some text, not an image", "photo.png") });
    const b = await body(res);
    expect(res.status, JSON.stringify(b)).toBe(415);
    expect(b.error.code).toBe("unsupported_media_type");
    expect(await countRows("jobs", userId)).toBe(0);
    expect(await countRows("projects", userId)).toBe(0);
    expect(await uploadsOf(userId)).toBe(0);
  });

  it("refuses invalid options with 422 naming the field", async () => {
    const { auth } = await seedAccount();
    const png = await renderTextPng(["x"]);
    let b = await body(await api("/api/v1/process", { method: "POST", headers: auth, body: upload(png, "a.png", { tool: "paint" }) }));
    expect(b.error.code).toBe("validation_error");
    expect(b.error.details.fields[0].field).toBe("options.tool");
    b = await body(await api("/api/v1/process", { method: "POST", headers: auth, body: upload(png, "a.png", "{not json") }));
    expect(b.error.details.fields[0].field).toBe("options");
    b = await body(
      await api("/api/v1/process", {
        method: "POST",
        headers: auth,
        body: upload(png, "a.png", { tool: "ocr", export_formats: ["xlsx"] }),
      }),
    );
    expect(b.error.details.fields[0].field).toBe("options.export_formats"); // xlsx exists, but not for ocr
    b = await body(
      await api("/api/v1/process", { method: "POST", headers: auth, body: upload(png, "a.png", { tool: "ocr", export_formats: ["exe"] }) }),
    );
    expect(b.error.details.fields[0].field).toBe("options.export_formats.0");
    const form = new FormData();
    form.append("options", "{}");
    b = await body(await api("/api/v1/process", { method: "POST", headers: auth, body: form }));
    expect(b.error.details.fields[0].field).toBe("file");
  });

  it("refuses a document over the plan's page limit with page_limit_exceeded", async () => {
    const { userId, auth } = await seedAccount({ plan: "free" });
    const pdf = await PDFDocument.create();
    for (let i = 0; i < 11; i++) pdf.addPage([200, 200]);
    const res = await api("/api/v1/process", { method: "POST", headers: auth, body: upload(await pdf.save(), "long.pdf") });
    const b = await body(res);
    expect(res.status, JSON.stringify(b)).toBe(402);
    expect(b.error).toMatchObject({ code: "page_limit_exceeded", retryable: false, details: { pages: 11, limit: 10, plan: "free" } });
    expect(await countRows("jobs", userId)).toBe(0);
    expect(await uploadsOf(userId)).toBe(0);
  });

  it("refuses a job the wallet cannot pay for, moving no credit", async () => {
    const { userId, auth } = await seedAccount({ credits: 0 });
    const res = await api("/api/v1/process", { method: "POST", headers: auth, body: upload(await renderTextPng(["x"]), "a.png") });
    const b = await body(res);
    expect(res.status, JSON.stringify(b)).toBe(402);
    expect(b.error.code).toBe("insufficient_credits");
    expect(await countRows("jobs", userId)).toBe(0);
    expect(await countRows("projects", userId)).toBe(0);
    expect(await countRows("ledger_entries", userId)).toBe(1);
    expect(await uploadsOf(userId)).toBe(0);
  });

  it("refuses an OCR language that is not installed", async () => {
    const { auth } = await seedAccount();
    const b = await body(
      await api("/api/v1/process", {
        method: "POST",
        headers: auth,
        body: upload(await renderTextPng(["x"]), "a.png", { source_language: "ko" }),
      }),
    );
    expect(b.error.code).toBe("unsupported_language");
  });

  it("refuses a glossary the account does not have, before storing anything", async () => {
    const { userId, auth } = await seedAccount();
    const res = await api("/api/v1/process", {
      method: "POST",
      headers: auth,
      body: upload(await renderTextPng(["x"]), "a.png", { tool: "translate", target_language: "es", glossary_ids: ["gls_missing"] }),
    });
    const b = await body(res);
    expect(res.status, JSON.stringify(b)).toBe(404);
    expect(b.error.details.glossary_ids).toEqual(["gls_missing"]);
    expect(await countRows("jobs", userId)).toBe(0);
    expect(await uploadsOf(userId)).toBe(0);
  });
});
