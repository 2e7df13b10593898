// Load against a running service (`npm run dev`, loopback only): req/s and p50/p99 latency of
// GET /jobs/{id}, GET /projects and POST /estimate next to GET /health/live (the bare route on the
// same runtime), then job throughput for a small mixed stream of uploads, with the memory of the
// workerd processes serving it sampled meanwhile (Linux /proc: the processes under the wrangler dev
// that listens on BASE's port). Bounded: each route gets at most REQUESTS requests or SECONDS
// seconds, the job stream at most JOB_TIMEOUT seconds.
//   npm run bench:load
// BASE (default http://127.0.0.1:8787), REQUESTS (2000), SECONDS (20), CONCURRENCY (16), JOBS (12),
// JOB_CLIENTS (4: jobs submitted at once).
// The API allows each credential RL_API requests a minute (GET /api/v1/config: limits), so the
// script mints bench keys for the development account in local D1 and spreads requests over them;
// it reports any 429 it still sees.
import { createHash, randomBytes } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PDFDocument } from "pdf-lib";
import { reportResult } from "./bench-result.mjs";

const BASE = process.env.BASE ?? "http://127.0.0.1:8787";
const REQUESTS = Number(process.env.REQUESTS ?? 2000);
const SECONDS = Number(process.env.SECONDS ?? 20);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 16);
const JOBS = Number(process.env.JOBS ?? 12);
const JOB_CLIENTS = Number(process.env.JOB_CLIENTS ?? 4);
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
  execFileSync(
    process.execPath,
    ["node_modules/wrangler/bin/wrangler.js", "d1", "execute", "DB", "--local", "-c", "wrangler.toml", "--command", sql],
    { stdio: "pipe", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
  );
  return keys;
}

/** Revokes the bench keys again (as DELETE /api/v1/account/api-keys/{key_id} does), so they do not outlive the run. */
function revokeKeys(keys) {
  const hashes = keys.map((k) => `'${createHash("sha256").update(k).digest("hex")}'`).join(",");
  const sql = `UPDATE api_keys SET revoked_at = ${Date.now()} WHERE key_hash IN (${hashes}) AND revoked_at IS NULL;`;
  execFileSync(
    process.execPath,
    ["node_modules/wrangler/bin/wrangler.js", "d1", "execute", "DB", "--local", "-c", "wrangler.toml", "--command", sql],
    { stdio: "pipe", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
  );
}

/** The states in which a job works on one of its pages (pages of a job run one after another). */
const WORKING = ["preprocessing", "detecting", "recognizing", "translating", "inpainting", "rendering", "exporting"];

const readProc = (file) => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
};

/** The pid listening on TCP `port` (any local address), from /proc/net/tcp{,6} and the processes' socket fds. */
function listenerPid(port) {
  const hex = `:${port.toString(16).toUpperCase().padStart(4, "0")}`;
  const inodes = new Set();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of readProc(table).split("\n").slice(1)) {
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
      const cols = line.trim().split(/\s+/);
      if (cols[3] === "0A" && cols[1]?.endsWith(hex)) inodes.add(cols[9]);
    }
  }
  if (inodes.size === 0) return undefined;
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    let fds = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m && inodes.has(m[1])) return Number(pid);
      } catch {}
    }
  }
  return undefined;
}

const parentOf = (pid) =>
  Number(
    readProc(`/proc/${pid}/stat`)
      .replace(/^.*\) /s, "")
      .split(" ")[1],
  );
const statusKb = (pid, field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readProc(`/proc/${pid}/status`))?.[1] ?? 0);

/**
 * The workerd processes serving `port`: wrangler dev runs a proxy workerd (the listener) and the
 * runtime workerd with both Workers (api and engine) as children of one wrangler process.
 */
function servicePids(port) {
  const listener = listenerPid(port);
  if (!listener) return [];
  const parent = parentOf(listener);
  const pids = readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .filter((pid) => parentOf(pid) === parent && readProc(`/proc/${pid}/comm`).trim() === "workerd");
  return pids.length ? pids : [listener];
}

/**
 * Samples the summed resident memory of `pids` every 100 ms until stopped. The kernel's own peak
 * (VmHWM, reset first through clear_refs where allowed) catches spikes between samples.
 */
function memorySampler(pids) {
  const rss = () => pids.reduce((n, pid) => n + statusKb(pid, "VmRSS"), 0) * 1024;
  let hwmReset = true;
  for (const pid of pids) {
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, "5");
    } catch {
      hwmReset = false;
    }
  }
  const idle = rss();
  let peak = idle;
  const timer = setInterval(() => {
    peak = Math.max(peak, rss());
  }, 100);
  return {
    idle,
    stop() {
      clearInterval(timer);
      const hwm = pids.reduce((n, pid) => n + statusKb(pid, "VmHWM"), 0) * 1024;
      return { idle, peak: Math.max(peak, rss()), hwm: hwmReset ? hwm : undefined, processes: pids.length };
    },
  };
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
  return {
    name,
    requests: latencies.length,
    rps: latencies.length / seconds,
    p50: pct(latencies, 50),
    p99: pct(latencies, 99),
    statuses: Object.fromEntries(statuses),
  };
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
  for (let i = 0; i < 2; i++)
    pdf.addPage([image.width, image.height]).drawImage(image, { x: 0, y: 0, width: image.width, height: image.height });
  return pdf.save();
}

/** Submits a mixed stream of jobs (PNG ocr, two-page PDF ocr, PNG translate when served) and waits for all. */
async function jobStream(keys, png, translatable) {
  const pdf = await twoPagePdf(png);
  const kinds = [
    { label: "png ocr", file: png, name: "sample.png", pages: 1, options: { tool: "ocr" } },
    { label: "pdf ocr (2 pages)", file: pdf, name: "sample.pdf", pages: 2, options: { tool: "ocr" } },
    ...(translatable
      ? [
          {
            label: "png translate en→es",
            file: png,
            name: "sample.png",
            pages: 1,
            options: { tool: "translate", source_language: "en", target_language: "es" },
          },
        ]
      : []),
  ];
  const t0 = performance.now();
  const submitted = [];
  const retried = {};
  // Submitted by JOB_CLIENTS clients at once (the development account's plan runs 4 jobs at a time).
  let next = 0;
  async function client() {
    for (let i = next++; i < JOBS; i = next++) {
      const kind = kinds[i % kinds.length];
      const key = keys[i % keys.length];
      // As a client should: a retryable refusal (e.g. 503 provider_unavailable) is tried again after Retry-After, at most 3 times, and counted.
      for (let attempt = 0; ; attempt++) {
        const form = new FormData();
        form.append("file", new File([kind.file], kind.name));
        form.append("options", JSON.stringify(kind.options));
        const res = await fetch(`${BASE}/api/v1/process`, { method: "POST", headers: { Authorization: `Bearer ${key}` }, body: form });
        const job = await json(res);
        if (res.status === 202) {
          submitted.push({ id: job.id, kind, key });
          break;
        }
        if (!job.error?.retryable || attempt === 3) throw new Error(`POST /process ${kind.label}: ${res.status} ${JSON.stringify(job)}`);
        retried[job.error.code] = (retried[job.error.code] ?? 0) + 1;
        await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get("retry-after") ?? 1)));
      }
    }
  }
  // Every client finishes before a failure is raised, so no request is still in flight when the keys are revoked.
  const clients = await Promise.allSettled(Array.from({ length: JOB_CLIENTS }, client));
  const refused = clients.find((c) => c.status === "rejected");
  if (refused) throw refused.reason;
  const submitSeconds = (performance.now() - t0) / 1000;
  const deadline = performance.now() + JOB_TIMEOUT * 1000;
  const done = new Map();
  while (done.size < submitted.length && performance.now() < deadline) {
    for (const s of submitted) {
      if (done.has(s.id)) continue;
      const job = await json(await fetch(`${BASE}/api/v1/jobs/${s.id}`, { headers: { Authorization: `Bearer ${s.key}` } }));
      if (["completed", "partially_completed", "failed", "cancelled"].includes(job.status))
        done.set(s.id, { status: job.status, at: performance.now() });
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const wall = (performance.now() - t0) / 1000;
  const statuses = {};
  for (const { status } of done.values()) statuses[status] = (statuses[status] ?? 0) + 1;
  const pages = submitted.filter((s) => done.get(s.id)?.status === "completed").reduce((n, s) => n + s.kind.pages, 0);
  const inFlight = await pagesInFlight(submitted);
  // Every page of the stream is the sample image (PNG IHDR: width and height at bytes 16–23).
  const ihdr = new DataView(png.buffer, png.byteOffset + 16, 8);
  const pageSize = `${ihdr.getUint32(0)}x${ihdr.getUint32(4)}`;
  return {
    jobs: submitted.length,
    clients: JOB_CLIENTS,
    pageSize,
    finished: done.size,
    statuses,
    retried,
    wall,
    submitSeconds,
    pages,
    maxInFlight: inFlight.max,
    meanInFlight: inFlight.busyMs / 1000 / wall,
    mix: kinds.map((k) => k.label).join(", "),
  };
}

/**
 * Pages worked on at once, from the jobs' timelines: a job works on one page at a time while in a
 * working state, so the most overlapping working intervals is the most pages in flight.
 */
async function pagesInFlight(submitted) {
  const edges = [];
  let busyMs = 0;
  for (const s of submitted) {
    const timeline = await json(await fetch(`${BASE}/api/v1/jobs/${s.id}/timeline`, { headers: { Authorization: `Bearer ${s.key}` } }));
    for (const stage of timeline.stages ?? []) {
      if (!WORKING.includes(stage.status) || !stage.ended_at) continue;
      const start = Date.parse(stage.started_at);
      const end = Date.parse(stage.ended_at);
      edges.push([start, 1], [end, -1]);
      busyMs += end - start;
    }
  }
  // Ends before starts at the same instant: a job moving between stages is one page, not two.
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let max = 0;
  for (const [, d] of edges) max = Math.max(max, (now += d));
  return { max, busyMs };
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
        init: {
          method: "POST",
          headers: { ...auth(i), "Content-Type": "application/json" },
          body: '{"tool":"ocr","export_formats":["txt"]}',
        },
      })),
    );
    const pids = servicePids(Number(new URL(BASE).port || 80));
    const sampler = pids.length ? memorySampler(pids) : undefined;
    const stream = await jobStream(keys, png, translatable);
    const memory = sampler?.stop();

    const bare = rows[0].rps;
    console.log(
      `\nLoad against ${BASE} (concurrency ${CONCURRENCY}, ≤ ${REQUESTS} requests or ${SECONDS} s per route, ${keys.length} keys)\n`,
    );
    console.log("| Route | Requests | req/s | p50 ms | p99 ms | vs bare route | Statuses |");
    console.log("|---|---:|---:|---:|---:|---:|---|");
    for (const r of rows) {
      console.log(
        `| ${r.name} | ${r.requests} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${(r.rps / bare).toFixed(2)}× | ${Object.entries(
          r.statuses,
        )
          .map(([s, n]) => `${s}: ${n}`)
          .join(", ")} |`,
      );
    }
    const retries = Object.entries(stream.retried)
      .map(([code, n]) => `${n}× ${code}`)
      .join(", ");
    console.log(
      `\nJob stream: ${stream.jobs} jobs (${stream.mix}) from ${JOB_CLIENTS} clients, submitted in ${stream.submitSeconds.toFixed(1)} s${retries ? ` (submissions retried: ${retries})` : ""}, ${stream.finished} finished in ${stream.wall.toFixed(1)} s: ${JSON.stringify(stream.statuses)}`,
    );
    console.log(`| Job stream | Jobs | Wall s | Jobs/min | Pages/min (completed) |`);
    console.log("|---|---:|---:|---:|---:|");
    console.log(
      `| ${stream.mix} | ${stream.finished}/${stream.jobs} | ${stream.wall.toFixed(1)} | ${((stream.finished / stream.wall) * 60).toFixed(1)} | ${((stream.pages / stream.wall) * 60).toFixed(1)} |`,
    );
    const mb = (bytes) => (bytes / 2 ** 20).toFixed(0);
    let perPageMB;
    if (memory) {
      // Growth over the warm idle process while pages ran, shared out over the most pages that ran at once.
      perPageMB = (memory.peak - memory.idle) / 2 ** 20 / Math.max(1, stream.maxInFlight);
      console.log(
        `\nEngine memory while the job stream ran (RSS of ${memory.processes} workerd processes: the api and engine Workers and wrangler's proxy; sampled every 100 ms)`,
      );
      console.log("| RSS idle MB | RSS peak MB | kernel peak (VmHWM) MB | pages in flight (max / mean) | MB per page in flight |");
      console.log("|---:|---:|---:|---:|---:|");
      console.log(
        `| ${mb(memory.idle)} | ${mb(memory.peak)} | ${memory.hwm === undefined ? "n/a" : mb(memory.hwm)} | ${stream.maxInFlight} / ${stream.meanInFlight.toFixed(1)} | ${perPageMB.toFixed(0)} |`,
      );
    } else {
      console.log(`\nEngine memory: not measured (no workerd process found listening on ${BASE}; needs Linux /proc and a local service).`);
    }
    reportResult("load", { base: BASE, concurrency: CONCURRENCY, routes: rows, stream, memory: memory ? { ...memory, perPageMB } : null });
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
