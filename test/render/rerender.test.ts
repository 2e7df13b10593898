import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { expectWalletMatchesLedger, snapshot } from "../hardening/invariants";
import { form, scannedPdf } from "../jobs/fixtures";
import { api, body, seedAccount, waitForJob } from "../helpers/api";
import { characterErrorRate, renderTextPng } from "../helpers/text-image";
import { decode, ocr, scene, seedModels, upload } from "./helpers";
import { TEXT } from "./scenes.mjs";

/**
 * POST /projects/{id}/rerender: redraws pages from the stored, edited regions — text removal,
 * typesetting and exports only — for free.
 */

type Auth = Record<string, string>;

async function finishedJob(auth: Auth, bytes: Uint8Array, options: Record<string, unknown>) {
  const created = await body(await api("/api/v1/process", { method: "POST", headers: auth, body: upload(bytes, "page.png", options) }));
  const job = await waitForJob(created.id, auth);
  expect(job.status, JSON.stringify(job)).toBe("completed");
  return job;
}

function json(auth: Auth, method: string, payload: unknown, extra: Record<string, string> = {}): RequestInit {
  return { method, headers: { ...auth, ...extra, "Content-Type": "application/json" }, body: JSON.stringify(payload) };
}

const rerender = (auth: Auth, projectId: string, payload: unknown = {}, extra: Record<string, string> = {}) =>
  api(`/api/v1/projects/${projectId}/rerender`, json(auth, "POST", payload, extra));

async function project(auth: Auth, id: string) {
  return body(await api(`/api/v1/projects/${id}`, { headers: auth }));
}

/** The status changes of a job in order (the timeline's `status` events). */
async function statuses(auth: Auth, jobId: string): Promise<string[]> {
  const timeline = await body(await api(`/api/v1/jobs/${jobId}/timeline`, { headers: auth }));
  return timeline.events.filter((e: any) => e.type === "status").map((e: any) => e.status);
}

async function progressStages(auth: Auth, jobId: string): Promise<string[]> {
  const timeline = await body(await api(`/api/v1/jobs/${jobId}/timeline`, { headers: auth }));
  return [...new Set<string>(timeline.events.filter((e: any) => e.type === "progress").map((e: any) => e.stage))];
}

async function fileOf(url: string): Promise<Uint8Array> {
  const u = new URL(url);
  const res = await api(u.pathname + u.search);
  expect(res.status, url).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

describe("POST /projects/{id}/rerender", () => {
  beforeAll(async () => {
    await seedModels(["spa"]);
  });

  it("redraws an edited translation for free, without recognising or translating again", async () => {
    const { auth, userId } = await seedAccount({ credits: 20 });
    const first = await finishedJob(auth, scene("flat").page, {
      tool: "translate",
      source_language: "en",
      target_language: "es",
      export_formats: ["png", "txt"],
    });
    const before = await project(auth, first.project_id);
    const [r0] = before.regions;
    const edited = "Pan caliente cada mañana";
    expect((await api(`/api/v1/projects/${first.project_id}/regions/${r0.id}`, json(auth, "PATCH", { translation: edited }))).status).toBe(
      200,
    );
    // A region only a user made: recognition would drop it (it rewrites the page's regions) and translation would fill its translation.
    const added = await body(
      await api(
        `/api/v1/projects/${first.project_id}/regions`,
        json(auth, "POST", { page_index: 0, box: { x: 1000, y: 330, w: 60, h: 30 }, text: "extra" }),
      ),
    );
    expect(added.id, JSON.stringify(added)).toMatch(/^rgn_/);
    const ledgerBefore = await snapshot(userId);

    const res = await rerender(auth, first.project_id);
    const job = await body(res);
    expect(res.status, JSON.stringify(job)).toBe(202);
    expect(job).toMatchObject({
      kind: "rerender",
      tool: "translate",
      project_id: first.project_id,
      cost: { estimated: 0, reserved: 0, charged: 0 },
      pages: { total: 1 },
    });
    expect(job.options.export_formats).toEqual(["png", "txt"]);

    // While it runs the project is locked: edits and a second re-render are refused.
    const busy = await rerender(auth, first.project_id);
    expect(busy.status, await busy.clone().text()).toBe(409);
    expect((await body(busy)).error.code).toBe("conflict");
    const edit = await api(`/api/v1/projects/${first.project_id}/regions/${r0.id}`, json(auth, "PATCH", { translation: "otra cosa" }));
    expect(edit.status, await edit.clone().text()).toBe(409);

    const done = await waitForJob(job.id, auth);
    expect(done.status, JSON.stringify(done)).toBe("completed");
    expect(done.cost).toEqual({ estimated: 0, reserved: 0, charged: 0 });
    expect(done.pages).toEqual({ total: 1, succeeded: 1, failed: 0 });
    expect(await statuses(auth, job.id)).toEqual(["created", "queued", "inpainting", "rendering", "exporting", "completed"]);
    expect(await progressStages(auth, job.id)).toEqual(["inpainting", "rendering"]);

    // Free: not one ledger entry, the wallet as it was, and still equal to the sum of its ledger.
    expect(await snapshot(userId)).toEqual({ ...ledgerBefore, jobs: ledgerBefore.jobs + 1 });
    await expectWalletMatchesLedger(userId);

    const after = await project(auth, first.project_id);
    expect(after.status).toBe("ready");
    // Recognition did not run (the user's region is still there, the recognised text unchanged) nor translation (its translation is still empty).
    expect(after.regions.map((r: any) => r.id).sort()).toEqual([...before.regions.map((r: any) => r.id), added.id].sort());
    for (const r of before.regions) {
      const now = after.regions.find((x: any) => x.id === r.id);
      expect(now.text).toBe(r.text);
      expect(now.translation).toBe(r.translation);
    }
    expect(after.regions.find((r: any) => r.id === added.id)).toMatchObject({
      user_text: "extra",
      translation: null,
      user_translation: null,
    });

    // The new page shows the edited translation.
    expect(after.pages[0].render_url).toContain(job.id);
    const rendered = await fileOf(after.pages[0].render_url);
    const expected = [edited, ...before.regions.slice(1).map((r: any) => r.translation)].join(" ");
    const read = await ocr(rendered, "work/rerender/page.png", ["spa"]);
    expect(characterErrorRate(expected, read), `${read} vs ${expected}`).toBeLessThanOrEqual(0.15);
    const old = decode(await fileOf(before.pages[0].render_url));
    const now = decode(rendered);
    expect([now.width, now.height]).toEqual([old.width, old.height]);
    expect(Buffer.compare(Buffer.from(now.data), Buffer.from(old.data))).not.toBe(0);

    // Its exports are rebuilt from the edited regions and listed with the project's.
    const txt = done.output.exports.find((e: any) => e.format === "txt");
    const link = await body(await api(txt.download, { headers: auth }));
    expect(new TextDecoder().decode(await fileOf(link.url))).toContain(edited);
    const listed = await body(await api(`/api/v1/projects/${first.project_id}/exports`, { headers: auth }));
    expect(listed.map((e: any) => e.id)).toContain(txt.export_id);
  });

  it("re-exports an ocr project with the corrected text (exporting only) and replays an Idempotency-Key", async () => {
    const { auth } = await seedAccount({ credits: 20 });
    const first = await finishedJob(auth, await renderTextPng(["The house is red.", "The dog is old."]), {
      tool: "ocr",
      export_formats: ["txt", "json"],
    });
    const p = await project(auth, first.project_id);
    expect(
      (await api(`/api/v1/projects/${p.id}/regions/${p.regions[0].id}`, json(auth, "PATCH", { text: "The castle is blue." }))).status,
    ).toBe(200);

    const headers = { "Idempotency-Key": `rr-${p.id}` };
    const res = await rerender(auth, p.id, { export_formats: ["txt"] }, headers);
    const job = await body(res);
    expect(res.status, JSON.stringify(job)).toBe(202);
    const again = await rerender(auth, p.id, { export_formats: ["txt"] }, headers);
    expect(again.status).toBe(202);
    expect((await body(again)).id).toBe(job.id);

    const done = await waitForJob(job.id, auth);
    expect(done.status, JSON.stringify(done)).toBe("completed");
    expect(done.pages).toEqual({ total: 1, succeeded: 1, failed: 0 });
    expect(await statuses(auth, job.id)).toEqual(["created", "queued", "exporting", "completed"]);
    expect(done.output.exports.map((e: any) => e.format)).toEqual(["txt"]);
    const link = await body(await api(done.output.exports[0].download, { headers: auth }));
    const text = new TextDecoder().decode(await fileOf(link.url));
    expect(text).toContain("The castle is blue.");
    expect(text).not.toContain("The house is red.");
    expect((await project(auth, p.id)).status).toBe("ready");
  });

  it("redraws only the pages asked for, and exports the whole document", async () => {
    const { auth } = await seedAccount({ credits: 20 });
    const created = await body(
      await api("/api/v1/process", {
        method: "POST",
        headers: auth,
        body: form([{ bytes: await scannedPdf(2), name: "scan.pdf" }], { tool: "ocr", export_formats: ["txt"] }),
      }),
    );
    const first = await waitForJob(created.id, auth, 150_000);
    expect(first.status, JSON.stringify(first)).toBe("completed");
    const p = await project(auth, first.project_id);
    const onPage = (i: number) => p.regions.filter((r: any) => r.page_index === i);
    expect(
      (await api(`/api/v1/projects/${p.id}/regions/${onPage(0)[0].id}`, json(auth, "PATCH", { text: "First page edited." }))).status,
    ).toBe(200);
    expect(
      (await api(`/api/v1/projects/${p.id}/regions/${onPage(1)[0].id}`, json(auth, "PATCH", { text: "Second page edited." }))).status,
    ).toBe(200);

    const job = await body(await rerender(auth, p.id, { pages: [1] }));
    expect(job.pages.total, JSON.stringify(job)).toBe(1);
    const done = await waitForJob(job.id, auth);
    expect(done.status, JSON.stringify(done)).toBe("completed");
    expect(done.pages).toEqual({ total: 1, succeeded: 1, failed: 0 });
    const pages = await env.DB.prepare("SELECT page_index FROM job_pages WHERE job_id = ?").bind(job.id).all<{ page_index: number }>();
    expect(pages.results.map((r) => r.page_index)).toEqual([1]);
    const link = await body(await api(done.output.exports[0].download, { headers: auth }));
    const text = new TextDecoder().decode(await fileOf(link.url));
    expect(text).toContain("First page edited.");
    expect(text).toContain("Second page edited.");
  });

  it("redraws an erase project from its regions as edited, not from a new detection", async () => {
    const { auth } = await seedAccount({ credits: 20 });
    const first = await finishedJob(auth, scene("flat").page, { tool: "erase", export_formats: ["png"] });
    const before = await project(auth, first.project_id);
    expect(before.regions.length, JSON.stringify(before.regions)).toBeGreaterThan(0);
    const erased = await ocr(await fileOf(before.pages[0].render_url), "work/rerender/erase-before.png", ["eng"]);
    expect(characterErrorRate(TEXT.flat.lines.join(" "), erased), erased).toBeGreaterThan(0.8);
    // The user keeps the text: with no region left, nothing is removed (a new detection would find the text again).
    for (const r of before.regions)
      expect((await api(`/api/v1/projects/${before.id}/regions/${r.id}`, { method: "DELETE", headers: auth })).status).toBe(204);

    const job = await body(await rerender(auth, before.id));
    const done = await waitForJob(job.id, auth);
    expect(done.status, JSON.stringify(done)).toBe("completed");
    const after = await project(auth, before.id);
    expect(after.regions).toEqual([]);
    const read = await ocr(await fileOf(after.pages[0].render_url), "work/rerender/erase-after.png", ["eng"]);
    expect(characterErrorRate(TEXT.flat.lines.join(" "), read), read).toBeLessThanOrEqual(0.1);
  });

  it("redraws a region stored with a frame that is no box: set in its own box", async () => {
    // The API refuses such a frame; a region stored before it did (its style is open) keeps one,
    // and is then set and erased in its box, as a document's.
    const { auth } = await seedAccount({ credits: 20 });
    const first = await finishedJob(auth, scene("flat").page, { tool: "translate", source_language: "en", target_language: "es" });
    const before = await project(auth, first.project_id);
    const res = await api(
      `/api/v1/projects/${first.project_id}/regions/${before.regions[0].id}`,
      json(auth, "PATCH", { style: { frame: { x: 10, y: "top", w: -5 } } }),
    );
    expect(res.status, await res.clone().text()).toBe(422);
    await env.DB.prepare("UPDATE regions SET style = ? WHERE project_id = ?")
      .bind(JSON.stringify({ frame: { x: 10, y: "top", w: -5 } }), first.project_id)
      .run();
    const job = await body(await rerender(auth, first.project_id));
    const done = await waitForJob(job.id, auth);
    expect(done.status, JSON.stringify(done)).toBe("completed");
    const after = await project(auth, first.project_id);
    expect(after.regions[0].style.frame).toEqual({ x: 10, y: "top", w: -5 });
    const read = await ocr(await fileOf(after.pages[0].render_url), "work/rerender/odd-frame.png", ["spa"]);
    const expected = before.regions.map((r: any) => r.translation).join(" ");
    expect(characterErrorRate(expected, read), `${read} vs ${expected}`).toBeLessThanOrEqual(0.15);
  });

  it("refuses other accounts, bad pages and formats, unknown fields and trashed projects", async () => {
    const { auth } = await seedAccount({ credits: 20 });
    const other = await seedAccount({ credits: 5 });
    const first = await finishedJob(auth, await renderTextPng(["A short line of text."]), { tool: "ocr" });
    const id = first.project_id;

    const foreign = await rerender(other.auth, id);
    expect(foreign.status).toBe(404);
    expect((await body(foreign)).error.code).toBe("not_found");

    const page = await rerender(auth, id, { pages: [0, 4] });
    const pageErr = await body(page);
    expect(page.status, JSON.stringify(pageErr)).toBe(422);
    expect(pageErr.error.details).toMatchObject({ pages: [4], ready_pages: [0] });

    const format = await rerender(auth, id, { export_formats: ["png"] });
    const formatErr = await body(format);
    expect(format.status, JSON.stringify(formatErr)).toBe(422);
    expect(formatErr.error.message).toContain("png");

    expect((await rerender(auth, id, { pages: [0], force: true })).status).toBe(422);
    expect((await rerender(auth, id, { pages: [-1] })).status).toBe(422);

    expect((await api(`/api/v1/projects/${id}`, { method: "DELETE", headers: auth })).status).toBe(204);
    const trashed = await rerender(auth, id);
    expect(trashed.status).toBe(409);
    expect((await body(trashed)).error.details).toMatchObject({ trashed: true });
    // Nothing was started by any refusal.
    const jobs = await env.DB.prepare("SELECT COUNT(*) AS n FROM jobs WHERE project_id = ? AND kind = 'rerender'")
      .bind(id)
      .first<{ n: number }>();
    expect(jobs!.n).toBe(0);
  });
});
