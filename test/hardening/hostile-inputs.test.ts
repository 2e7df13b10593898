import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_CATALOGUE, type ErrorCode } from "../../src/http/errors";
import { LIMITS } from "../../src/lib/limits";
import { TOOLS } from "../../src/modules/jobs/tools";
import { api, body, seedAccount, waitForJob } from "../helpers/api";
import { createEndpoint, RECEIVER } from "../webhooks/helpers";
import { mintApiKey } from "../../src/modules/auth/api-keys";
import { newId } from "../../src/lib/ids";
import { seedProject } from "../projects/seed";
import {
  BROKEN_PERCENT,
  JSON_CHARSETS,
  JSON_VALUES,
  withUtf8Bom,
  blankPdf,
  encryptedPdf,
  HOSTILE_STRINGS,
  jpegHeaderOnly,
  pngClaiming,
  scrambled,
  tiffClaiming,
  tiffDanglingIfd,
  truncated,
  validPng,
} from "./corpus";
import { expectHandled, expectRefused, expectWalletMatchesLedger, snapshot, type Snapshot } from "./invariants";

/**
 * Hostile inputs against the public API. Every case must end in a catalogued error whose status
 * matches the catalogue (never 5xx) and leave no trace: no job, project or ledger row, no object
 * under uploads/, the wallet unchanged and equal to the sum of its ledger. Text that is accepted
 * must come back exactly as sent (only trimmed where the field trims).
 */

const tally: Record<string, { passed: number; total: number }> = {};
/** Files intake accepted whose jobs then failed cleanly (reported with the summary). */
const lateAccepted: string[] = [];

/** Declares a case in a category and counts it in the summary printed at the end. */
function hostile(category: string, name: string, run: () => Promise<void>, timeout?: number) {
  (tally[category] ??= { passed: 0, total: 0 }).total++;
  it(
    `${category}: ${name}`,
    async () => {
      await run();
      tally[category]!.passed++;
    },
    timeout,
  );
}

afterAll(() => {
  const rows = Object.entries(tally).map(([category, t]) => `${category.padEnd(22)} ${String(t.passed).padStart(4)} / ${t.total}`);
  const passed = Object.values(tally).reduce((n, t) => n + t.passed, 0);
  const total = Object.values(tally).reduce((n, t) => n + t.total, 0);
  console.log(
    `hostile inputs: cases passed per category\n${rows.join("\n")}\n${"total".padEnd(22)} ${String(passed).padStart(4)} / ${total}\naccepted at intake, then failed cleanly: ${lateAccepted.join("; ") || "none"}`,
  );
});

let user: Awaited<ReturnType<typeof seedAccount>>;
let other: Awaited<ReturnType<typeof seedAccount>>;
/** Batches are a paid-plan feature: batch cases run on a pro account. */
let pro: Awaited<ReturnType<typeof seedAccount>>;
let project: Awaited<ReturnType<typeof seedProject>>;
let othersProject: Awaited<ReturnType<typeof seedProject>>;

beforeAll(async () => {
  user = await seedAccount({ credits: 50, plan: "free" });
  other = await seedAccount({ credits: 50, plan: "free" });
  pro = await seedAccount({ credits: 50, plan: "pro" });
  project = await seedProject(user.userId, { name: "Mine", pages: [{ regions: [{ text: "Hello world" }] }] });
  othersProject = await seedProject(other.userId, { name: "Secret of another account", pages: [{ regions: [{ text: "confidential" }] }] });
});

const json = (method: string, payload: unknown, auth = user.auth) => ({
  method,
  headers: { ...auth, "Content-Type": "application/json" },
  body: JSON.stringify(payload),
});
const raw = (method: string, text: string, contentType = "application/json") => ({
  method,
  headers: { ...user.auth, "Content-Type": contentType },
  body: text,
});

function uploadForm(bytes: Uint8Array, name: string, options: unknown = { tool: "ocr" }): FormData {
  const form = new FormData();
  form.append("file", new File([bytes], name));
  form.append("options", typeof options === "string" ? options : JSON.stringify(options));
  return form;
}

/** The account exactly as before: same rows, same objects, same wallet, wallet = Σ ledger. */
async function expectNoTrace(before: Snapshot, label: string, userId = user.userId) {
  expect(await snapshot(userId), `${label}: rows, objects or wallet changed`).toEqual(before);
  await expectWalletMatchesLedger(userId);
}

// ---------------------------------------------------------------------------------------------
// Files: each is refused at intake (nothing stored, nothing held) with the codes listed. `late`
// files carry a valid signature and header, so intake may accept them: the job must then fail
// with one of the codes, its hold released in full, and no page charged.

const FILES: { name: string; file: () => Promise<Uint8Array> | Uint8Array; filename: string; codes: ErrorCode[]; late?: true }[] = [
  { name: "zero-byte file", file: () => new Uint8Array(), filename: "empty.png", codes: ["corrupt_file"] },
  { name: "truncated PNG (half)", file: async () => truncated(await validPng()), filename: "half.png", codes: ["corrupt_file"] },
  { name: "PNG signature then noise", file: async () => scrambled(await validPng(), 8), filename: "noise.png", codes: ["corrupt_file"] },
  { name: "PNG cut inside its header", file: async () => truncated(await validPng(), 0.01), filename: "stub.png", codes: ["corrupt_file"] },
  { name: "JPEG header with no data", file: () => jpegHeaderOnly(640, 480), filename: "header.jpg", codes: ["corrupt_file"] },
  {
    name: "JPEG signature then noise",
    file: () => scrambled(new Uint8Array(4096).fill(0xff), 0).map((b, i) => (i < 3 ? [0xff, 0xd8, 0xff][i]! : b)),
    filename: "noise.jpg",
    codes: ["corrupt_file"],
  },
  { name: "TIFF with a dangling IFD offset", file: () => tiffDanglingIfd(), filename: "dangling.tiff", codes: ["corrupt_file"] },
  { name: "truncated PDF (half)", file: async () => truncated(await blankPdf(3)), filename: "half.pdf", codes: ["corrupt_file"] },
  { name: "PDF signature then noise", file: async () => scrambled(await blankPdf(1), 8), filename: "noise.pdf", codes: ["corrupt_file"] },
  { name: "encrypted PDF (/Encrypt in the trailer)", file: () => encryptedPdf(), filename: "locked.pdf", codes: ["encrypted_document"] },
  {
    name: "decompression bomb: PNG claiming 30000×30000",
    file: () => pngClaiming(30_000, 30_000),
    filename: "bomb.png",
    codes: ["image_too_large"],
  },
  {
    name: "decompression bomb: JPEG claiming 30000×30000",
    file: () => jpegHeaderOnly(30_000, 30_000),
    filename: "bomb.jpg",
    codes: ["image_too_large"],
  },
  {
    name: "decompression bomb: TIFF claiming 30000×30000",
    file: () => tiffClaiming(30_000, 30_000),
    filename: "bomb.tiff",
    codes: ["image_too_large"],
  },
  {
    name: "PNG claiming 1×40000000 (one side over the limit)",
    file: () => pngClaiming(1, 40_000_000),
    filename: "strip.png",
    codes: ["image_too_large"],
  },
  { name: "PDF with 3000 pages (free plan: 10)", file: () => blankPdf(3000), filename: "thick.pdf", codes: ["page_limit_exceeded"] },
  {
    name: "HTML disguised as PNG",
    file: () => new TextEncoder().encode("<!doctype html><html><body><script>alert(1)</script></body></html>"),
    filename: "page.png",
    codes: ["unsupported_media_type"],
  },
  {
    name: "SVG disguised as PNG",
    file: () => new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><text>x</text></svg>'),
    filename: "vector.png",
    codes: ["unsupported_media_type"],
  },
  {
    name: "ZIP disguised as PDF",
    file: () => new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...new Uint8Array(60)]),
    filename: "archive.pdf",
    codes: ["unsupported_media_type"],
  },
  {
    name: "ELF executable disguised as JPEG",
    file: () => new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, ...new Uint8Array(57)]),
    filename: "photo.jpg",
    codes: ["unsupported_media_type"],
  },
  {
    name: "GIF with a header and no image",
    file: () => new TextEncoder().encode("GIF89a\x01\x00\x01\x00\x00\x00\x00;"),
    filename: "anim.gif",
    codes: ["corrupt_file"],
    late: true,
  },
];

describe("hostile files on POST /api/v1/process", () => {
  for (const c of FILES) {
    hostile("files", c.name, async () => {
      const before = await snapshot(user.userId);
      const res = await api("/api/v1/process", { method: "POST", headers: user.auth, body: uploadForm(await c.file(), c.filename) });
      if (c.late && res.status === 202) {
        const job = await waitForJob((await body(res)).id, user.auth);
        expect(job.status, JSON.stringify(job)).toBe("failed");
        expect(c.codes, JSON.stringify(job)).toContain(job.error?.code);
        expect(job.cost, JSON.stringify(job)).toMatchObject({ reserved: 0, charged: 0 });
        const after = await snapshot(user.userId);
        expect({ balance: after.balance, reserved: after.reserved }, `${c.name}: credits lost`).toEqual({
          balance: before.balance,
          reserved: before.reserved,
        });
        await expectWalletMatchesLedger(user.userId);
        lateAccepted.push(c.name);
        return;
      }
      await expectRefused(res, c.codes, c.name);
      await expectNoTrace(before, c.name);
    });
  }

  hostile("files", "a batch on the free plan is refused before anything is stored", async () => {
    const before = await snapshot(user.userId);
    const form = new FormData();
    form.append("file", new File([await validPng()], "a.png"));
    form.append("options", JSON.stringify({ tool: "ocr" }));
    await expectRefused(await api("/api/v1/batch", { method: "POST", headers: user.auth, body: form }), ["forbidden"], "free batch");
    await expectNoTrace(before, "free batch");
  });

  hostile(
    "files",
    "a batch with a bomb fails that file alone and charges only the good page",
    async () => {
      const before = await snapshot(pro.userId);
      const form = new FormData();
      form.append("file", new File([await validPng()], "fine.png"));
      form.append("file", new File([await pngClaiming(30_000, 30_000)], "bomb.png"));
      form.append("options", JSON.stringify({ tool: "ocr" }));
      const res = await api("/api/v1/batch", { method: "POST", headers: pro.auth, body: form });
      const created = await body(res);
      expect(res.status, JSON.stringify(created)).toBe(202);
      const parent = await waitForJob(created.id, pro.auth);
      expect(parent.status, JSON.stringify(parent)).toBe("partially_completed");
      expect(parent.batch, JSON.stringify(parent)).toMatchObject({ files_total: 2, files_completed: 1, files_failed: 1, files_pending: 0 });
      const children = await body(await api(`/api/v1/jobs?parent_job_id=${created.id}`, { headers: pro.auth }));
      const bomb = children.items.find((j: any) => j.source?.name === "bomb.png");
      expect(bomb?.error?.code, JSON.stringify(children)).toBe("image_too_large");
      const after = await snapshot(pro.userId);
      expect({ balance: after.balance, reserved: after.reserved }, "one page charged, nothing held").toEqual({
        balance: before.balance - parent.cost.charged,
        reserved: before.reserved,
      });
      expect(parent.cost.charged, JSON.stringify(parent)).toBeLessThanOrEqual(TOOLS.ocr.credits_per_page);
      await expectWalletMatchesLedger(pro.userId);
    },
    120_000,
  );

  hostile("body size", "a multipart body beyond the upload limit", async () => {
    const before = await snapshot(user.userId);
    const big = new Uint8Array(LIMITS.max_upload_bytes + 2 * 1024 * 1024);
    big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const res = await api("/api/v1/process", { method: "POST", headers: user.auth, body: uploadForm(big, "huge.png") });
    await expectRefused(res, ["payload_too_large"], "huge multipart");
    await expectNoTrace(before, "huge multipart");
  });

  hostile("body size", "a batch with more files than allowed", async () => {
    const before = await snapshot(pro.userId);
    const png = await validPng();
    const form = new FormData();
    for (let i = 0; i <= LIMITS.max_batch_files; i++) form.append("file", new File([png], `p${i}.png`));
    form.append("options", JSON.stringify({ tool: "ocr" }));
    const res = await api("/api/v1/batch", { method: "POST", headers: pro.auth, body: form });
    await expectRefused(res, ["validation_error"], "oversized batch");
    await expectNoTrace(before, "oversized batch", pro.userId);
  });

  hostile("body size", "a JSON body beyond the body limit", async () => {
    const res = await api(
      "/api/v1/estimate?pages=1",
      raw("POST", `{"tool":"ocr","name":"${"x".repeat(LIMITS.max_upload_bytes + 2 * 1024 * 1024)}"}`),
    );
    await expectRefused(res, ["payload_too_large"], "huge JSON");
  });
});

// ---------------------------------------------------------------------------------------------
// Malformed JSON bodies and multipart options.

const OPTIONS: { name: string; options: string; codes: ErrorCode[] }[] = [
  { name: "options not JSON", options: "{tool: ocr", codes: ["validation_error"] },
  { name: "options a JSON array", options: "[]", codes: ["validation_error"] },
  { name: "options JSON null", options: "null", codes: ["validation_error"] },
  { name: "unknown tool", options: '{"tool":"exfiltrate"}', codes: ["validation_error"] },
  { name: "unknown option (strict)", options: '{"tool":"ocr","__proto__":{"admin":true},"debug":true}', codes: ["validation_error"] },
  { name: "export formats not offered", options: '{"tool":"ocr","export_formats":["exe"]}', codes: ["validation_error"] },
  {
    name: "1000 export formats",
    options: JSON.stringify({ tool: "ocr", export_formats: Array(1000).fill("txt") }),
    codes: ["validation_error"],
  },
  { name: "translate without a target", options: '{"tool":"translate"}', codes: ["validation_error"] },
  { name: "injected language code", options: JSON.stringify({ tool: "ocr", source_language: "../../eng" }), codes: ["validation_error"] },
  { name: "a glossary id of another account", options: "", codes: ["not_found"] },
  { name: "options nested 100000 deep", options: "[".repeat(100_000) + "]".repeat(100_000), codes: ["validation_error"] },
];

describe("malformed options and JSON bodies", () => {
  for (const c of OPTIONS) {
    hostile("malformed json", c.name, async () => {
      let options = c.options;
      if (c.name.startsWith("a glossary id")) {
        const g = await body(
          await api(
            "/api/v1/account/glossaries",
            json("POST", { name: "Theirs", source_language: "en", target_language: "es" }, other.auth),
          ),
        );
        expect(g.id, JSON.stringify(g)).toMatch(/^gls_/);
        options = JSON.stringify({ tool: "translate", source_language: "en", target_language: "es", glossary_ids: [g.id] });
      }
      const before = await snapshot(user.userId);
      const res = await api("/api/v1/process", {
        method: "POST",
        headers: user.auth,
        body: uploadForm(await validPng(), "page.png", options),
      });
      await expectRefused(res, c.codes, c.name);
      await expectNoTrace(before, c.name);
    });
  }

  const BODIES: { name: string; path: string; method: string; text: string; contentType?: string; codes: ErrorCode[] }[] = [
    { name: "estimate: truncated JSON", path: "/api/v1/estimate?pages=1", method: "POST", text: '{"tool":"ocr"', codes: ["invalid_json"] },
    {
      name: "estimate: JSON null",
      path: "/api/v1/estimate?pages=1",
      method: "POST",
      text: "null",
      codes: ["validation_error", "invalid_json"],
    },
    { name: "estimate: a bare string", path: "/api/v1/estimate?pages=1", method: "POST", text: '"ocr"', codes: ["validation_error"] },
    {
      name: "estimate: text/plain body",
      path: "/api/v1/estimate?pages=1",
      method: "POST",
      text: "tool=ocr",
      contentType: "text/plain",
      codes: ["validation_error", "unsupported_media_type", "bad_request"],
    },
    {
      name: "estimate: deeply nested JSON",
      path: "/api/v1/estimate?pages=1",
      method: "POST",
      text: '{"tool":' + "[".repeat(50_000) + "]".repeat(50_000) + "}",
      codes: ["validation_error", "invalid_json"],
    },
    {
      name: "glossary: trailing garbage",
      path: "/api/v1/account/glossaries",
      method: "POST",
      text: '{"name":"g","source_language":"en","target_language":"es"} trailing',
      codes: ["invalid_json"],
    },
    {
      name: "glossary: same languages",
      path: "/api/v1/account/glossaries",
      method: "POST",
      text: '{"name":"g","source_language":"en","target_language":"en"}',
      codes: ["validation_error"],
    },
    { name: "glossary terms: not an array", path: "", method: "PUT", text: '{"source":"a","target":"b"}', codes: ["validation_error"] },
    {
      name: "project patch: wrong types",
      path: "",
      method: "PATCH",
      text: '{"name":12345,"folder_id":{"$ne":null}}',
      codes: ["validation_error"],
    },
    {
      name: "region patch: NaN box",
      path: "",
      method: "PATCH",
      text: '{"box":{"x":"NaN","y":1e400,"w":-1,"h":null}}',
      codes: ["validation_error"],
    },
    {
      name: "webhook: not a URL",
      path: "/api/v1/account/webhooks",
      method: "POST",
      text: '{"url":"javascript:alert(1)","events":["job.completed"]}',
      codes: ["validation_error"],
    },
  ];
  for (const c of BODIES) {
    hostile("malformed json", c.name, async () => {
      let path = c.path;
      if (c.name.startsWith("glossary terms")) {
        const g = await body(
          await api("/api/v1/account/glossaries", json("POST", { name: "Mine", source_language: "en", target_language: "es" })),
        );
        path = `/api/v1/account/glossaries/${g.id}/terms`;
      } else if (c.name.startsWith("project patch")) path = `/api/v1/projects/${project.projectId}`;
      else if (c.name.startsWith("region patch")) path = `/api/v1/projects/${project.projectId}/regions/${project.regionIds[0]![0]}`;
      const before = await snapshot(user.userId);
      const res = await api(path, raw(c.method, c.text, c.contentType));
      await expectRefused(res, c.codes, c.name);
      await expectNoTrace(before, c.name);
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Unicode and injection strings in every text field and list filter.

/**
 * What a stored string must read back as. An unpaired surrogate cannot survive UTF-8 storage: it
 * comes back as replacement characters (one or three, by encoder), so runs of U+FFFD compare as one.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const stored = (s: string, trims: boolean) => (trims ? s.trim() : s).replace(LONE_SURROGATE, "\uFFFD").replace(/\uFFFD+/g, "\uFFFD");
const read = (s: string) => s.replace(/\uFFFD+/g, "\uFFFD");

describe("unicode and injection strings", () => {
  for (const [name, s] of Object.entries(HOSTILE_STRINGS)) {
    hostile("strings", `${name} as project search`, async () => {
      const { ok, body: b } = await expectHandled(
        await api(`/api/v1/projects?${new URLSearchParams({ search: s })}`, { headers: user.auth }),
        ["validation_error"],
        `${name} search`,
      );
      if (ok)
        expect(
          b.items.map((i: any) => i.id),
          JSON.stringify(b).slice(0, 500),
        ).not.toContain(othersProject.projectId);
      else expect(s.trim().length > 200, `${name} refused: ${JSON.stringify(b)}`).toBe(true);
    });

    hostile("strings", `${name} as list filters`, async () => {
      for (const path of [
        `/api/v1/projects?${new URLSearchParams({ folder_id: s })}`,
        `/api/v1/jobs?${new URLSearchParams({ parent_job_id: s })}`,
        `/api/v1/projects?${new URLSearchParams({ order: s })}`,
        `/api/v1/jobs?${new URLSearchParams({ job_status: s })}`,
      ]) {
        const { ok, body: b } = await expectHandled(
          await api(path, { headers: user.auth }),
          ["validation_error"],
          `${name} ${path.slice(0, 80)}`,
        );
        // A filter never widens the account's own listing, whatever it contains.
        if (ok)
          expect(
            b.items.every((i: any) => i.id !== othersProject.projectId),
            JSON.stringify(b).slice(0, 500),
          ).toBe(true);
      }
    });

    hostile("strings", `${name} as a project name`, async () => {
      const { ok, body: b } = await expectHandled(
        await api(`/api/v1/projects/${project.projectId}`, json("PATCH", { name: s })),
        ["validation_error"],
        name,
      );
      const row = await env.DB.prepare("SELECT name FROM projects WHERE id = ?").bind(project.projectId).first<{ name: string }>();
      if (ok) {
        expect(read(b.name)).toBe(stored(s, true));
        expect(read(row!.name)).toBe(stored(s, true));
      } else expect(s.trim().length > 200 || s.trim() === "", `${name} refused: ${JSON.stringify(b)}`).toBe(true);
    });

    hostile("strings", `${name} as a folder name`, async () => {
      const { ok, body: b } = await expectHandled(await api("/api/v1/folders", json("POST", { name: s })), ["validation_error"], name);
      if (ok) expect(read(b.name)).toBe(stored(s, true));
      else expect(s.trim().length > 200, `${name} refused: ${JSON.stringify(b)}`).toBe(true);
    });

    hostile("strings", `${name} as a glossary name and term`, async () => {
      const payload = { name: s, source_language: "en", target_language: "es", terms: [{ source: s, target: s }] };
      const { ok, body: b } = await expectHandled(
        await api("/api/v1/account/glossaries", json("POST", payload)),
        ["validation_error"],
        name,
      );
      if (ok) {
        expect(read(b.name)).toBe(stored(s, true));
        expect({ source: read(b.terms[0].source), target: read(b.terms[0].target) }).toEqual({
          source: stored(s, true),
          target: stored(s, true),
        });
      } else expect(s.trim().length > 100, `${name} refused: ${JSON.stringify(b)}`).toBe(true);
    });

    hostile("strings", `${name} as region text and translation`, async () => {
      const regionId = project.regionIds[0]![0]!;
      const { ok, body: b } = await expectHandled(
        await api(`/api/v1/projects/${project.projectId}/regions/${regionId}`, json("PATCH", { text: s, translation: s })),
        ["validation_error"],
        name,
      );
      expect(ok, `${name} refused: ${JSON.stringify(b)}`).toBe(true);
      const row = await env.DB.prepare("SELECT user_text, user_translation FROM regions WHERE id = ?")
        .bind(regionId)
        .first<{ user_text: string; user_translation: string }>();
      expect({ user_text: read(row!.user_text), user_translation: read(row!.user_translation) }).toEqual({
        user_text: stored(s, false),
        user_translation: stored(s, false),
      });
    });

    hostile("strings", `${name} as a job name in an estimate`, async () => {
      const { ok, body: b } = await expectHandled(
        await api("/api/v1/estimate?pages=1", json("POST", { tool: "ocr", name: s })),
        ["validation_error"],
        name,
      );
      if (ok) expect(b.credits).toBeGreaterThan(0);
      else expect(s.trim().length > 200, `${name} refused: ${JSON.stringify(b)}`).toBe(true);
    });
  }

  hostile("strings", "the other account's project never leaks through search", async () => {
    for (const q of ["Secret", "confidential", "%", "_", "' OR 1=1 --"]) {
      const b = await body(await api(`/api/v1/projects?${new URLSearchParams({ search: q })}`, { headers: user.auth }));
      expect(
        b.items.map((i: any) => i.id),
        JSON.stringify(b),
      ).not.toContain(othersProject.projectId);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Path traversal and hostile ids.

const IDS: { name: string; path: string; method?: string; codes: ErrorCode[] }[] = [
  {
    name: "encoded ../ in a job id",
    path: "/api/v1/jobs/..%2F..%2Fadmin%2Fstatus-overrides",
    codes: ["not_found", "route_not_found", "validation_error"],
  },
  {
    name: "raw ../ in a job id",
    path: "/api/v1/jobs/../../health/live/../../api/v1/account/wallet/../../jobs/x",
    codes: ["not_found", "route_not_found"],
  },
  { name: "double-encoded ../ in a project id", path: "/api/v1/projects/%252e%252e%252fusers", codes: ["not_found", "validation_error"] },
  { name: "NUL in a job id", path: "/api/v1/jobs/job_a%00b", codes: ["not_found", "validation_error"] },
  { name: "R2 key as an export id", path: "/api/v1/exports/uploads%2Fusr_x%2Fjob_y/download", codes: ["not_found", "validation_error"] },
  {
    name: "../ towards another account's upload",
    path: "/api/v1/exports/..%2F..%2Fuploads/download",
    codes: ["not_found", "route_not_found", "validation_error"],
  },
  { name: "10 kB project id", path: `/api/v1/projects/${"p".repeat(10_240)}`, codes: ["validation_error", "not_found"] },
  {
    name: "SQL in a glossary id (DELETE)",
    path: `/api/v1/account/glossaries/${encodeURIComponent("x' OR '1'='1")}`,
    method: "DELETE",
    codes: ["not_found", "validation_error"],
  },
  { name: "another account's project id", path: "", codes: ["not_found"] },
  {
    name: "signed file path with ../",
    path: "/files/..%2F..%2Fuploads%2Fx?exp=9999999999&name=a&sig=00",
    codes: ["forbidden", "not_found", "validation_error", "link_expired"],
  },
  ...Object.entries(BROKEN_PERCENT).map(([name, bad]) => ({
    name: `signed file path with broken percent-encoding (${name})`,
    path: `/files/${bad}?exp=1&sig=a`,
    codes: ["forbidden", "link_expired"] as ErrorCode[],
  })),
  ...Object.entries(BROKEN_PERCENT).map(([name, bad]) => ({
    name: `signed file path segment with broken percent-encoding (${name})`,
    path: `/files/uploads/${bad}/x?exp=9999999999&name=a&sig=00`,
    codes: ["forbidden"] as ErrorCode[],
  })),
];

describe("path traversal and hostile ids", () => {
  for (const c of IDS) {
    hostile("ids", c.name, async () => {
      const path = c.path || `/api/v1/projects/${othersProject.projectId}`;
      const before = await snapshot(user.userId);
      const res = await api(path, { method: c.method ?? "GET", headers: user.auth });
      await expectRefused(res, c.codes, c.name);
      await expectNoTrace(before, c.name);
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Every route of the OpenAPI document, with odd but possible shapes of requests: broken
// percent-encoding in each path and query parameter, JSON bodies with a UTF-8 byte-order mark or
// a declared charset, and every field of every JSON body with each JSON type. The answer is a
// success or a catalogued 4xx (415 for a charset other than UTF-8), never a 5xx. Ids are the
// fuzzing account's own where it has one of the kind, so handlers run past their lookups.

interface Operation {
  method: string;
  path: string;
  operationId: string;
  query: string[];
  /** For a JSON body: the shapes sent (one field at a time as each JSON type, and the whole body as each). */
  jsonShapes?: { label: string; value: unknown }[];
}

const ALL_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];
const INTERNAL = new Set<ErrorCode>(["internal_error", "ocr_failed"]);
const HANDLED = ALL_CODES.filter((c) => ERROR_CATALOGUE[c].status < 500);

/** Operations of the document (the OpenAPI path syntax turned into ours); the SSE stream would hold the connection open. */
async function operations(): Promise<Operation[]> {
  const doc = await body(await api("/api/v1/openapi.json"));
  const resolve = (s: any): any => (s?.$ref ? resolve(doc.components.schemas[s.$ref.split("/").pop()]) : s);
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (op.operationId === "streamJobEvents") continue;
      const params = (op.parameters ?? []) as { in: string; name: string }[];
      const schema = resolve(op.requestBody?.content?.["application/json"]?.schema);
      ops.push({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId,
        query: params.filter((p) => p.in === "query").map((p) => p.name),
        ...(schema ? { jsonShapes: fieldShapes(schema, resolve) } : {}),
      });
    }
  }
  // Deleting last keeps the fuzzing account's resources for the operations that need them.
  return ops.sort((a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE"));
}

/** Bodies setting one field (of the body, or of an item of an array body) to each JSON type, plus the whole body as each type. */
function fieldShapes(schema: any, resolve: (s: any) => any): { label: string; value: unknown }[] {
  const shapes = Object.entries(JSON_VALUES).map(([t, v]) => ({ label: `body as ${t}`, value: v }));
  const object = schema?.type === "array" ? resolve(schema.items) : schema;
  const wrap = (v: unknown) => (schema?.type === "array" ? [v] : v);
  for (const field of Object.keys(object?.properties ?? {})) {
    for (const [t, v] of Object.entries(JSON_VALUES)) shapes.push({ label: `${field} = ${t}`, value: wrap({ [field]: v }) });
  }
  return shapes;
}

describe("every route with odd request shapes", () => {
  let fuzz: Awaited<ReturnType<typeof seedAccount>>;
  let ids: Record<string, string>;
  let ops: Operation[];

  beforeAll(async () => {
    fuzz = await seedAccount({ credits: 50, plan: "pro" });
    const p = await seedProject(fuzz.userId, {
      tool: "translate",
      targetLanguage: "es",
      pages: [{ regions: [{ text: "Hello world" }] }],
      table: { page: 0, rows: 1, cols: 1, cells: [{ row: 0, col: 0, text: "a" }] },
      export: true,
    });
    const post = async (path: string, payload: unknown) => body(await api(path, json("POST", payload, fuzz.auth)));
    const endpoint = await createEndpoint(fuzz.auth, { url: `${RECEIVER}/hook/fuzz`, events: ["*"] });
    const glossary = await post("/api/v1/account/glossaries", { name: "Fuzz", source_language: "en", target_language: "es" });
    const folder = await post("/api/v1/folders", { name: "Fuzz" });
    const share = await post(`/api/v1/projects/${p.projectId}/share`, {});
    ids = {
      project_id: p.projectId,
      region_id: p.regionIds[0]![0]!,
      table_id: p.tableId!,
      export_id: p.exportId!,
      endpoint_id: endpoint.body.id,
      glossary_id: glossary.id,
      folder_id: folder.id,
      share_id: share.id,
      idp: "localidp",
      component: "ocr",
    };
    for (const [k, v] of Object.entries(ids)) expect(v, `${k}: no id seeded`).toMatch(/\S/);
    ops = await operations();
    expect(ops.length).toBeGreaterThan(80);
  });

  /** The operation's path with its parameters filled: the account's own id, a well-formed unknown one, or `override`. */
  const pathOf = (op: Operation, override?: { name: string; value: string }) =>
    op.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      override?.name === name ? override.value : (ids[name] ?? "zz_00000000000000000000"),
    );

  /**
   * A new API key of the fuzzing account for each route: the API allows a key 600 requests a
   * minute, and a route's shapes stay under that, so no answer is a 429 instead of the route's own.
   */
  let auth: Record<string, string> = {};
  async function freshKey(): Promise<void> {
    const { key, hash, prefix } = await mintApiKey();
    await env.DB.prepare(
      "INSERT INTO api_keys (id, user_id, name, prefix, key_hash, scopes, created_at) VALUES (?, ?, 'fuzz', ?, ?, '[]', ?)",
    )
      .bind(newId("key"), fuzz.userId, prefix, hash, Date.now())
      .run();
    auth = { Authorization: `Bearer ${key}` };
  }

  async function send(op: Operation, init: { path?: string; body?: BodyInit; contentType?: string }, label: string) {
    const headers: Record<string, string> = { ...auth };
    if (init.contentType) headers["Content-Type"] = init.contentType;
    const res = await api(init.path ?? pathOf(op), {
      method: op.method,
      headers,
      ...(init.body !== undefined && op.method !== "GET" ? { body: init.body } : {}),
    });
    if (res.headers.get("Content-Type")?.startsWith("text/event-stream")) await res.body?.cancel();
    return res;
  }

  /** A success, a redirect, or a catalogued error whose status is its catalogue status and never 5xx. */
  async function expectNo5xx(res: Response, label: string): Promise<any> {
    if (res.status < 400) {
      await res.body?.cancel();
      return null;
    }
    const b = await expectRefused(res, HANDLED, label);
    expect(INTERNAL.has(b.error.code), label).toBe(false);
    expect(b.error.code, `${label}: the route was not reached`).not.toBe("rate_limited");
    return b;
  }

  hostile("route shapes", "the document lists every route the shapes are sent to", async () => {
    expect(ops.map((o) => o.operationId)).toEqual(
      expect.arrayContaining(["updateWebhook", "deleteWebhook", "retranslateRegion", "updateTableCells", "downloadExport"]),
    );
  });

  const CASES: { name: string; run: (op: Operation) => Promise<void> }[] = [
    {
      name: "every field of the JSON body with each JSON type",
      run: async (op) => {
        for (const shape of op.jsonShapes ?? []) {
          const label = `${op.method} ${op.path} with ${shape.label}`;
          await expectNo5xx(await send(op, { body: JSON.stringify(shape.value), contentType: "application/json" }, label), label);
        }
      },
    },
    {
      name: "broken percent-encoding in each path and query parameter",
      run: async (op) => {
        for (const [bad, value] of Object.entries(BROKEN_PERCENT)) {
          for (const name of [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)) {
            const label = `${op.method} ${op.path} with ${name} = ${bad}`;
            await expectNo5xx(await send(op, { path: pathOf(op, { name, value }) }, label), label);
          }
          for (const q of op.query) {
            const label = `${op.method} ${op.path}?${q}=${bad}`;
            await expectNo5xx(await send(op, { path: `${pathOf(op)}?${q}=${value}` }, label), label);
          }
        }
      },
    },
    {
      name: "JSON bodies with a byte-order mark and with declared charsets",
      run: async (op) => {
        if (op.method === "GET") return;
        // A body of `{}` would delete the account's resources the other cases need: deletions get unknown ids.
        const path = op.method === "DELETE" ? op.path.replace(/\{\w+\}/g, "zz_00000000000000000000") : undefined;
        const label = `${op.method} ${op.path} with a UTF-8 BOM`;
        const bom = await expectNo5xx(await send(op, { path, body: withUtf8Bom("{}"), contentType: "application/json" }, label), label);
        // The mark is skipped: the body is read as the JSON it precedes, never refused as malformed.
        if (op.jsonShapes) expect(bom?.error?.code, label).not.toBe("invalid_json");
        for (const c of JSON_CHARSETS) {
          const l = `${op.method} ${op.path} as ${c.contentType}`;
          const b = await expectNo5xx(await send(op, { path, body: c.encode("{}"), contentType: c.contentType }, l), l);
          // A UTF-8 spelling is read like plain application/json; any other charset is the 415 that names it.
          const charsetRefusal = b?.error?.code === "unsupported_media_type" && /must be UTF-8/.test(b.error.message);
          expect(charsetRefusal, `${l}: ${JSON.stringify(b)}`).toBe(!c.accepted && op.path.startsWith("/api/"));
        }
      },
    },
  ];

  for (const c of CASES) {
    hostile(
      "route shapes",
      c.name,
      async () => {
        // Every route is tried; the failures are listed together.
        const failures: string[] = [];
        for (const op of ops) {
          await freshKey();
          await c.run(op).catch((err: unknown) => void failures.push(err instanceof Error ? err.message.split("\n")[0]! : String(err)));
        }
        expect(failures).toEqual([]);
      },
      300_000,
    );
  }
});

// ---------------------------------------------------------------------------------------------
// Oversized and malformed paging and counts.

const PAGING = [
  "limit=101",
  "limit=0",
  "limit=-1",
  "limit=1e9",
  "limit=abc",
  "limit=99999999999999999999999",
  "limit=2.5",
  "offset=-1",
  "offset=1e30",
  "offset=9007199254740993",
  "offset=NaN",
  "limit=Infinity",
];

describe("oversized limit, offset and days", () => {
  for (const list of ["/api/v1/jobs", "/api/v1/projects", "/api/v1/account/wallet/ledger", "/api/v1/account/glossaries"]) {
    for (const q of PAGING) {
      hostile("paging", `${list}?${q}`, async () => {
        await expectRefused(await api(`${list}?${q}`, { headers: user.auth }), ["validation_error"], `${list}?${q}`);
      });
    }
  }
  for (const q of ["days=366", "days=0", "days=-5", "days=1e9", "days=abc", "days=99999999999999999999"]) {
    hostile("paging", `/api/v1/account/usage?${q}`, async () => {
      await expectRefused(await api(`/api/v1/account/usage?${q}`, { headers: user.auth }), ["validation_error"], q);
    });
  }
  for (const q of ["pages=0", "pages=1e12", "pages=-1", "pages=abc"]) {
    hostile("paging", `/api/v1/estimate?${q}`, async () => {
      await expectRefused(await api(`/api/v1/estimate?${q}`, json("POST", { tool: "ocr" })), ["validation_error"], q);
    });
  }
  hostile("paging", "the largest allowed offset answers an empty page", async () => {
    const b = await body(await api(`/api/v1/projects?offset=${1_000_000}&limit=100`, { headers: user.auth }));
    expect(b, JSON.stringify(b)).toMatchObject({ items: [], limit: 100, offset: 1_000_000 });
  });
});

// ---------------------------------------------------------------------------------------------
// After everything: the account is whole.

describe("afterwards", () => {
  hostile("accounts", "no credits lost, every job failed, no stray uploads", async () => {
    for (const u of [user, other]) {
      await expectWalletMatchesLedger(u.userId);
      const s = await snapshot(u.userId);
      expect({ balance: s.balance, reserved: s.reserved }, `account ${u.userId}`).toEqual({ balance: 50, reserved: 0 });
    }
    await expectWalletMatchesLedger(pro.userId);
    expect((await snapshot(pro.userId)).reserved).toBe(0);
    // Only the files intake accepted made jobs, and each of them failed without a charge.
    const jobs = await env.DB.prepare("SELECT id, status, source_key FROM jobs WHERE user_id = ?")
      .bind(user.userId)
      .all<{ id: string; status: string; source_key: string | null }>();
    expect(jobs.results.length).toBe(lateAccepted.length);
    expect(
      jobs.results.every((j) => j.status === "failed"),
      JSON.stringify(jobs.results),
    ).toBe(true);
    // Objects under uploads/: the seeded project's source and the failed jobs' sources (kept for retry), nothing else.
    const listed = (await env.FILES.list({ prefix: `uploads/${user.userId}/` })).objects.map((o) => o.key);
    const expected = [
      ...project.files.filter((k) => k.startsWith("uploads/")),
      ...jobs.results.map((j) => j.source_key).filter((k): k is string => k !== null),
    ];
    expect(listed.sort()).toEqual([...new Set(expected)].sort());
  });
});
