import { env } from "cloudflare:workers";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { api, body, seedAccount, waitForJob } from "../helpers/api";
import { renderTextPng } from "../helpers/text-image";
import { download, form, ledger, corruptPng, walletOf } from "./fixtures";

function parseCsv(text: string): string[][] {
  return text
    .trim()
    .split("\r\n")
    .map((line) => {
      const out: string[] = [];
      let cur = "";
      let quoted = false;
      for (let i = 0; i < line.length; i++) {
        const ch = line[i]!;
        if (quoted) {
          if (ch === '"' && line[i + 1] === '"') ((cur += '"'), i++);
          else if (ch === '"') quoted = false;
          else cur += ch;
        } else if (ch === '"') quoted = true;
        else if (ch === ",") (out.push(cur), (cur = ""));
        else cur += ch;
      }
      out.push(cur);
      return out;
    });
}

describe("POST /api/v1/batch", () => {
  it(
    "runs each file as its own job; one corrupt file fails alone; ZIP and CSV report; retry-failed re-runs only that file",
    { timeout: 180_000 },
    async () => {
      const { userId, auth } = await seedAccount({ credits: 20, plan: "pro" });
      const good1 = await renderTextPng(["Alpha file text"]);
      const good2 = await renderTextPng(["Gamma file text"]);
      const res = await api("/api/v1/batch", {
        method: "POST",
        headers: auth,
        body: form(
          [
            { bytes: good1, name: "alpha.png" },
            { bytes: await corruptPng(), name: "broken.png" },
            { bytes: good2, name: "gamma.png" },
          ],
          { tool: "ocr", export_formats: ["txt"] },
        ),
      });
      const parent = await body(res);
      expect(res.status, JSON.stringify(parent)).toBe(202);
      expect(parent).toMatchObject({ kind: "batch", status: "queued", parent_job_id: null, batch: { files_total: 3, files_pending: 3 } });

      const children = await body(await api(`/api/v1/jobs?parent_job_id=${parent.id}&limit=10`, { headers: auth }));
      expect(children.total).toBe(3);
      expect(children.items.every((c: any) => c.parent_job_id === parent.id && c.kind === "single")).toBe(true);

      const done = await waitForJob(parent.id, auth, 150_000);
      expect(done.status, JSON.stringify(done)).toBe("partially_completed");
      expect(done.batch).toEqual({ files_total: 3, files_completed: 2, files_partially_completed: 0, files_failed: 1, files_pending: 0 });
      expect(done.pages).toEqual({ total: 3, succeeded: 2, failed: 1 });
      expect(done.cost).toMatchObject({ estimated: 3, charged: 2, reserved: 0 });
      const kids = (await body(await api(`/api/v1/jobs?parent_job_id=${parent.id}`, { headers: auth }))).items;
      const broken = kids.find((c: any) => c.source.name === "broken.png");
      expect(broken.status, JSON.stringify(broken)).toBe("failed");
      expect(broken.error.code).toBe("corrupt_file");

      // The ZIP: a folder per file with its exports, and the report.
      const zip = unzipSync(
        await download(
          done.output.exports.find((e: any) => e.format === "zip"),
          auth,
        ),
      );
      expect(Object.keys(zip).sort()).toEqual(["001-alpha.png/alpha.txt", "003-gamma.png/gamma.txt", "report.csv"]);
      expect(new TextDecoder().decode(zip["001-alpha.png/alpha.txt"])).toContain("Alpha");
      expect(new TextDecoder().decode(zip["003-gamma.png/gamma.txt"])).toContain("Gamma");
      const csvText = new TextDecoder().decode(
        await download(
          done.output.exports.find((e: any) => e.format === "csv"),
          auth,
        ),
      );
      expect(new TextDecoder().decode(zip["report.csv"])).toBe(csvText);
      const csv = parseCsv(csvText);
      expect(csv[0]).toEqual([
        "file",
        "child_job_id",
        "status",
        "pages",
        "pages_succeeded",
        "pages_failed",
        "credits",
        "error_code",
        "error_message",
      ]);
      expect(csv.slice(1).map((r) => [r[0], r[2], r[3], r[6], r[7]])).toEqual([
        ["alpha.png", "completed", "1", "1", ""],
        ["broken.png", "failed", "1", "0", "corrupt_file"],
        ["gamma.png", "completed", "1", "1", ""],
      ]);
      expect(csv[2]![1]).toBe(broken.id);
      expect(csv[2]![8]!.length).toBeGreaterThan(0);

      // retry-failed: only the broken file runs again (a new attempt of that child alone), then the archive is rebuilt.
      const attemptsBefore = Object.fromEntries(kids.map((c: any) => [c.id, c.attempt]));
      const retry = await api(`/api/v1/jobs/${parent.id}/retry-failed`, { method: "POST", headers: auth });
      const retried = await body(retry);
      expect(retry.status, JSON.stringify(retried)).toBe(200);
      expect(retried).toMatchObject({ status: "queued", attempt: 1 });
      const again = await waitForJob(parent.id, auth, 150_000);
      expect(again.status).toBe("partially_completed");
      const kidsAfter = (await body(await api(`/api/v1/jobs?parent_job_id=${parent.id}`, { headers: auth }))).items;
      for (const c of kidsAfter) expect(c.attempt, c.source.name).toBe(attemptsBefore[c.id] + (c.id === broken.id ? 1 : 0));
      const rebuilt = parseCsv(
        new TextDecoder().decode(
          await download(
            again.output.exports.find((e: any) => e.format === "csv"),
            auth,
          ),
        ),
      );
      expect(rebuilt.slice(1).map((r) => r[2])).toEqual(["completed", "failed", "completed"]);

      // Money: each good file charged once; the broken one held and released twice.
      const rows = await ledger(userId);
      expect(rows.filter((l) => l.job_id === broken.id).map((l) => `${l.kind}:${l.reserved_delta}`)).toEqual([
        "hold:1",
        "release:-1",
        "hold:1",
        "release:-1",
      ]);
      expect(rows.filter((l) => l.kind === "charge").length).toBe(2);
      const { wallet, ledger: sums } = await walletOf(userId);
      expect(wallet).toEqual({ balance: 18, reserved: 0 });
      expect(sums).toEqual(wallet);

      // retry-failed on a batch whose files all completed fails clearly; cancel of a finished batch is 409.
      const cancel = await api(`/api/v1/jobs/${parent.id}/cancel`, { method: "POST", headers: auth });
      expect(cancel.status).toBe(409);
      expect((await body(cancel)).error.code).toBe("invalid_transition");
    },
  );

  it(
    "refuses batches over the file limit, plans without batches, and a file the engine cannot read fails alone at once",
    { timeout: 90_000 },
    async () => {
      const free = await seedAccount({ plan: "free" });
      // A page with real text (a lone glyph is ink without readable text: no_text_found).
      const png = await renderTextPng(["A readable page in a batch."]);
      const refused = await api("/api/v1/batch", { method: "POST", headers: free.auth, body: form([{ bytes: png, name: "a.png" }]) });
      expect(refused.status).toBe(403);
      expect((await body(refused)).error.details).toMatchObject({ plan: "free", feature: "batch" });

      const { userId, auth } = await seedAccount({ plan: "pro" });
      const config = await body(await api("/api/v1/config"));
      expect(config.limits).toMatchObject({ max_batch_files: 50, max_batch_bytes: 50 * 1024 * 1024 });
      const tooMany = await api("/api/v1/batch", {
        method: "POST",
        headers: auth,
        body: form(Array.from({ length: 51 }, (_, i) => ({ bytes: "x", name: `${i}.txt` }))),
      });
      expect(tooMany.status).toBe(422);
      expect((await body(tooMany)).error.details.limit).toBe(50);
      const none = await api("/api/v1/batch", { method: "POST", headers: auth, body: form([], { tool: "ocr" }) });
      expect(none.status).toBe(422);

      const mixed = await api("/api/v1/batch", {
        method: "POST",
        headers: auth,
        body: form(
          [
            { bytes: "plain text, not an image", name: "notes.txt" },
            { bytes: png, name: "ok.png" },
          ],
          { tool: "ocr" },
        ),
      });
      const parent = await body(mixed);
      expect(mixed.status, JSON.stringify(parent)).toBe(202);
      const done = await waitForJob(parent.id, auth);
      expect(done.status).toBe("partially_completed");
      const kids = (await body(await api(`/api/v1/jobs?parent_job_id=${parent.id}`, { headers: auth }))).items;
      const txt = kids.find((c: any) => c.source.name === "notes.txt");
      expect(txt).toMatchObject({ status: "failed", error: { code: "unsupported_media_type" }, cost: { estimated: 0, charged: 0 } });
      // Nothing of the refused file is stored.
      expect((await env.FILES.list({ prefix: `uploads/${userId}/${txt.id}/` })).objects).toHaveLength(0);
      const retry = await api(`/api/v1/jobs/${parent.id}/retry-failed`, { method: "POST", headers: auth });
      expect(retry.status).toBe(409);
      expect((await body(retry)).error.code).toBe("conflict");
    },
  );
});
