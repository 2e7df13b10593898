// Load against a running service (`npm run dev`, loopback only): req/s and p50/p99 latency of
// GET /jobs/{id}, GET /projects and POST /estimate next to GET /health/live (the bare route on the
// same runtime), then job throughput for a small mixed stream of uploads. Bounded: each route gets
// at most REQUESTS requests or SECONDS seconds, the job stream at most JOB_TIMEOUT seconds.
//   npm run bench:load
// BASE (default http://127.0.0.1:8787), REQUESTS (2000), SECONDS (20), CONCURRENCY (16), JOBS (12).
// The API allows each credential RL_API requests a minute (GET /api/v1/config: limits), so the
// script mints bench keys for the development account in local D1 and spreads requests over them;
// it reports any 429 it still sees.
import { createHash, randomBytes } from "node:crypto";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PDFDocument } from "pdf-lib";

const BASE = process.env.BASE ?? "http://127.0.0.1:8787";
const REQUESTS = Number(process.env.REQUESTS ?? 2000);
const SECONDS = Number(process.env.SECONDS ?? 20);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 16);
const JOBS = Number(process.env.JOBS ?? 12);
const JOB_TIMEOUT = 240;
const DEV_USER = "usr_development0000000";

const host = new URL(BASE).hostname;
if (!["127.0.0.1", "localhost", "[::1]"].includes(host)) throw new Error(`bench:load runs against loopback only, not ${host}`);

/** Bench keys for the development account, inserted into local D1 as scripts/dev.mjs does for its key. */
function mintKeys(n) {
  const keys = Array.from({ length: n }, () => `lik_live_${randomBytes(32).toString("base64url")}`);
  const now = Date.now();
  const sql = keys
    .map((key, i) => {
      const hash = createHash("sha256").update(key).digest("hex");
      return `INSERT INTO api_keys (id, user_id, name, prefix, key_hash, scopes, created_at) VALUES ('key_bench${now}${i}', '${DEV_USER}', 'Load benchmark', '${key.slice(0, 13)}', '${hash}', '[]', ${now});`;
    })
    .join("\n");
  execFileSync(process.execPath, ["node_modules/wrangler/bin/wrangler.js", "d1", "execute", "DB", "--local", "-c", "wrangler.toml", "--command", sql], { stdio: "pipe", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } });
  return keys;
}

/** Revokes the bench keys again, so they do not outlive the run. */
function revokeKeys(keys) {
  const hashes = keys.map((k) => `'${createHash("sha256").update(k).digest("hex")}'`).join(",");
  execFileSync(process.execPath, ["node_modules/wrangler/bin/wrangler.js", "d1", "execute", "DB", "--local", "-c", "wrangler.toml", "--command", `DELETE FROM api_keys WHERE key_hash IN (${hashes});`], { stdio: "pipe", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } });
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Fires `make()` requests from CONCURRENCY workers until REQUESTS are done or SECONDS pass. */
async function load(name, make) {
  const latencies = [];
  const statuses = new Map();
  let sent = 0;
  const deadline = performance.now() + SECONDS * 1000;
  const t0 = performance.now();
  async function worker() {
    while (sent < REQUESTS && performance.now() < deadline) {
      const i = sent++;
      const { url, init } = make(i);
      const start = performance.now();
      const res = await fetch(url, init);
      await res.arrayBuffer();
      latencies.push(performance.now() - start);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return { name, requests: latencies.length, rps: latencies.length / seconds, p50: pct(latencies, 50), p99: pct(latencies, 99), statuses: Object.fromEntries(statuses) };
}

async function json(res) {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${res.status}: ${text.slice(0, 300)}`);
  }
}

async function twoPagePdf(png) {
  const pdf = await PDFDocument.create();
  const image = await pdf.embedPng(png);
  for (let i = 0; i < 2; i++) pdf.addPage([image.width, image.height]).drawImage(image, { x: 0, y: 0, width: image.width, height: image.height });
  return pdf.save();
}

/** Submits a mixed stream of jobs (PNG ocr, two-page PDF ocr, PNG translate when served) and waits for all. */
async function jobStream(keys, png, translatable) {
  const pdf = await twoPagePdf(png);
  const kinds = [
    { label: "png ocr", file: png, name: "sample.png", pages: 1, options: { tool: "ocr" } },
    { label: "pdf ocr (2 pages)", file: pdf, name: "sample.pdf", pages: 2, options: { tool: "ocr" } },
    ...(translatable ? [{ label: "png translate en→es", file: png, name: "sample.png", pages: 1, options: { tool: "translate", source_language: "en", target_language: "es" } }] : []),
  ];
  const t0 = performance.now();
  const submitted = [];
  for (let i = 0; i < JOBS; i++) {
    const kind = kinds[i % kinds.length];
    const form = new FormData();
    form.append("file", new File([kind.file], kind.name));
    form.append("options", JSON.stringify(kind.options));
    const res = await fetch(`${BASE}/api/v1/process`, { method: "POST", headers: { Authorization: `Bearer ${keys[i % keys.length]}` }, body: form });
    const job = await json(res);
    if (res.status !== 202) throw new Error(`POST /process ${kind.label}: ${res.status} ${JSON.stringify(job)}`);
    submitted.push({ id: job.id, kind, key: keys[i % keys.length] });
  }
  const submitSeconds = (performance.now() - t0) / 1000;
  const deadline = performance.now() + JOB_TIMEOUT * 1000;
  const done = new Map();
  while (done.size < submitted.length && performance.now() < deadline) {
    for (const s of submitted) {
      if (done.has(s.id)) continue;
      const job = await json(await fetch(`${BASE}/api/v1/jobs/${s.id}`, { headers: { Authorization: `Bearer ${s.key}` } }));
      if (["completed", "partially_completed", "failed", "cancelled"].includes(job.status)) done.set(s.id, { status: job.status, at: performance.now() });
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const wall = (performance.now() - t0) / 1000;
  const statuses = {};
  for (const { status } of done.values()) statuses[status] = (statuses[status] ?? 0) + 1;
  const pages = submitted.filter((s) => done.get(s.id)?.status === "completed").reduce((n, s) => n + s.kind.pages, 0);
  return { jobs: submitted.length, finished: done.size, statuses, wall, submitSeconds, pages, mix: kinds.map((k) => k.label).join(", ") };
}

async function main() {
  const live = await fetch(`${BASE}/health/live`).catch(() => null);
  if (!live?.ok) throw new Error(`no service at ${BASE}: start it with npm run dev`);
  const config = await json(await fetch(`${BASE}/api/v1/config`));
  const perKey = config.limits.api_requests_per_period ?? Infinity;
  // Enough keys that no key passes its allowance during the whole run (all routes + the job stream).
  const keyCount = Number.isFinite(perKey) ? Math.ceil((3 * REQUESTS + 200 * JOBS) / (perKey * 0.8)) : 1;
  const keys = mintKeys(keyCount);
  try {
    const auth = (i) => ({ Authorization: `Bearer ${keys[i % keys.length]}` });
    const png = readFileSync(samplePng());

    // A job and projects to read: one OCR job on the sample image.
    const form = new FormData();
    form.append("file", new File([png], "sample.png"));
    form.append("options", JSON.stringify({ tool: "ocr" }));
    const created = await json(await fetch(`${BASE}/api/v1/process`, { method: "POST", headers: auth(0), body: form }));
    if (!created.id) throw new Error(`could not create a job: ${JSON.stringify(created)}`);

    const languages = await json(await fetch(`${BASE}/api/v1/languages`));
    const translatable = (languages.translation_pairs ?? []).some((p) => p.source === "en" && p.target === "es");

    const rows = [];
    rows.push(await load("GET /health/live (bare)", () => ({ url: `${BASE}/health/live`, init: {} })));
    rows.push(await load("GET /api/v1/jobs/{id}", (i) => ({ url: `${BASE}/api/v1/jobs/${created.id}`, init: { headers: auth(i) } })));
    rows.push(await load("GET /api/v1/projects", (i) => ({ url: `${BASE}/api/v1/projects?limit=20`, init: { headers: auth(i) } })));
    rows.push(
      await load("POST /api/v1/estimate", (i) => ({
        url: `${BASE}/api/v1/estimate?pages=3`,
        init: { method: "POST", headers: { ...auth(i), "Content-Type": "application/json" }, body: '{"tool":"ocr","export_formats":["txt"]}' },
      })),
    );
    const stream = await jobStream(keys, png, translatable);

    const bare = rows[0].rps;
    console.log(`\nLoad against ${BASE} (concurrency ${CONCURRENCY}, ≤ ${REQUESTS} requests or ${SECONDS} s per route, ${keys.length} keys)\n`);
    console.log("| Route | Requests | req/s | p50 ms | p99 ms | vs bare route | Statuses |");
    console.log("|---|---:|---:|---:|---:|---:|---|");
    for (const r of rows) {
      console.log(`| ${r.name} | ${r.requests} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${(r.rps / bare).toFixed(2)}× | ${Object.entries(r.statuses).map(([s, n]) => `${s}: ${n}`).join(", ")} |`);
    }
    console.log(`\nJob stream: ${stream.jobs} jobs (${stream.mix}), submitted in ${stream.submitSeconds.toFixed(1)} s, ${stream.finished} finished in ${stream.wall.toFixed(1)} s: ${JSON.stringify(stream.statuses)}`);
    console.log(`| Job stream | Jobs | Wall s | Jobs/min | Pages/min (completed) |`);
    console.log("|---|---:|---:|---:|---:|");
    console.log(`| ${stream.mix} | ${stream.finished}/${stream.jobs} | ${stream.wall.toFixed(1)} | ${((stream.finished / stream.wall) * 60).toFixed(1)} | ${((stream.pages / stream.wall) * 60).toFixed(1)} |`);
    const limited = rows.reduce((n, r) => n + (r.statuses[429] ?? 0), 0);
    if (limited) console.log(`\n${limited} requests were rate limited (429): raise the key count or lower REQUESTS.`);
    if (stream.finished < stream.jobs) process.exitCode = 1;
  } finally {
    revokeKeys(keys);
  }
}

/** The README's sample image (`npm run sample-image`), written to a temporary directory. */
function samplePng() {
  const out = path.join(mkdtempSync(path.join(tmpdir(), "bench-load-")), "sample.png");
  execFileSync(process.execPath, ["scripts/sample-image.mjs", out], { stdio: "pipe" });
  return out;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
