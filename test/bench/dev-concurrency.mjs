// The local service's concurrency, in both layouts of `npm run dev`, side by side in one run, each in
// its own scratch copy (scripts/local-service.mjs):
//   one   ENGINE_PROCESSES=0: both Workers in one wrangler/workerd process (the engine's CPU holds the api);
//   split the default: the api in one process, the engine in one process per core.
// For each: (a) `GET /api/v1/jobs/{id}` latency (p50/p99/max), polled every 150 ms while three A4
// 300 dpi `ocr` jobs run, each poll followed by `GET /health/live` (the machine's share of the latency),
// and their uploads' 202 times; (b) a 10-page scanned PDF's upload→completed
// time against the sum of its pages' single-page jobs (each page alone, one after another; half before
// the 10-page job, half after), with the 10-page job's per-page timeline.
// Inputs: real scans of ../shared/corpus/real-scans (OCRmyPDF's test PDFs, 2480–2550 x 3300–3507 px
// at 300 dpi, CCITT/JBIG2): the 10-page PDF is `pdfunite` of the pages listed in PAGES.
//   node test/bench/dev-concurrency.mjs            MODES=one,split (default both); PAGES_IN=one,split
//   (layouts that also run (b); default split only: in `one` pages run one after another by design).
//   BASE=http://127.0.0.1:8787 node test/bench/dev-concurrency.mjs   measures a running `npm run dev` instead
//   (KEY defaults to its .wrangler/dev-api-key).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { root } from "../../scripts/models.mjs";
import { scratchCopy, startService } from "../../scripts/local-service.mjs";
import { reportResult } from "./bench-result.mjs";

const corpus = path.join(root, "../shared/corpus/real-scans/files");
/** [file, page]: ten real A4/Letter scans at 300 dpi. */
const PAGES = [
  ["ocrmypdf_linn.pdf", 1],
  ["ocrmypdf_ccitt.pdf", 1],
  ["ocrmypdf_jbig2.pdf", 1],
  ["ocrmypdf_skew.pdf", 1],
  ["ocrmypdf_rotated_skew.pdf", 1],
  ["ocrmypdf_cardinal.pdf", 1],
  ["ocrmypdf_cardinal.pdf", 2],
  ["ocrmypdf_cardinal.pdf", 3],
  ["ocrmypdf_cardinal.pdf", 4],
  ["ocrmypdf_epson.pdf", 1],
];
/** The three A4 jobs of (a): pages 1, 6 and 10 above. */
const LOAD_PAGES = [0, 5, 9];
const MODES = process.env.BASE ? ["running"] : (process.env.MODES ?? "one,split").split(",");
const PAGES_IN = (process.env.PAGES_IN ?? "split,running").split(",");
const TERMINAL = ["completed", "partially_completed", "failed", "cancelled"];

const work = mkdtempSync(path.join(os.tmpdir(), "lingoscan-dev-concurrency-"));
const logDir = path.join(root, "test/bench/logs");
mkdirSync(logDir, { recursive: true });

function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")}: ${r.error?.message ?? r.stderr}`);
}

/** One single-page PDF per entry of PAGES, and the 10-page PDF joining them. */
function buildInputs() {
  const singles = PAGES.map(([file, page], i) => {
    const out = path.join(work, `page-${String(i + 1).padStart(2, "0")}.pdf`);
    run("pdfseparate", ["-f", String(page), "-l", String(page), path.join(corpus, file), out]);
    return out;
  });
  const ten = path.join(work, "ten-pages.pdf");
  run("pdfunite", [...singles, ten]);
  return { singles, ten };
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};
const ms = (x) => `${Math.round(x)} ms`;
const s = (x) => `${(x / 1000).toFixed(1)} s`;

function client(base, key) {
  const auth = { Authorization: `Bearer ${key}` };
  const submit = async (file) => {
    const form = new FormData();
    form.append("file", new File([readFileSync(file)], path.basename(file), { type: "application/pdf" }));
    form.append("options", JSON.stringify({ tool: "ocr", source_language: "en" }));
    const t0 = performance.now();
    const sentAt = Date.now();
    const res = await fetch(`${base}/api/v1/process`, { method: "POST", headers: auth, body: form });
    const body = await res.json();
    if (res.status !== 202) throw new Error(`upload ${path.basename(file)}: ${res.status} ${JSON.stringify(body)}`);
    return { id: body.id, postMs: performance.now() - t0, sentAt };
  };
  const get = async (id) => {
    const t0 = performance.now();
    const res = await fetch(`${base}/api/v1/jobs/${id}`, { headers: auth });
    const job = await res.json();
    if (!res.ok) throw new Error(`GET job ${id}: ${res.status} ${JSON.stringify(job)}`);
    return { job, ms: performance.now() - t0 };
  };
  /** `GET /health/live` (no auth, no D1): the machine's share of a poll's latency. */
  const live = async () => {
    const t0 = performance.now();
    const res = await fetch(`${base}/health/live`);
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`GET /health/live: ${res.status}`);
    return performance.now() - t0;
  };
  const timeline = async (id) => (await fetch(`${base}/api/v1/jobs/${id}/timeline`, { headers: auth })).json();
  /**
   * Polls until the job ends (10 minutes at most); upload→completed wall time: from the upload's
   * sending to the moment the job's timeline says it completed (the service shares this machine's
   * clock), so the poll interval does not round it up.
   */
  const finish = async ({ id, sentAt }) => {
    const deadline = performance.now() + 600_000;
    for (;;) {
      const { job } = await get(id);
      if (TERMINAL.includes(job.status)) {
        if (job.status !== "completed") throw new Error(`job ${id} ended ${job.status}: ${JSON.stringify(job.error)}`);
        const completed = (await timeline(id)).stages.find((st) => st.status === "completed");
        if (!completed) throw new Error(`job ${id}: its timeline has no completed stage`);
        return Date.parse(completed.started_at) - sentAt;
      }
      if (performance.now() > deadline) throw new Error(`job ${id} still ${job.status} after 10 minutes`);
      await new Promise((r) => setTimeout(r, 500));
    }
  };
  return { submit, get, live, finish, timeline };
}

/**
 * (a): three A4 jobs uploaded at once; GET /jobs/{id} round-robin, one every 150 ms (under RL_API's
 * 600 a minute), from the moment the uploads are sent (a finished job stands in until their 202s
 * arrive: with both Workers in one process the uploads themselves wait for the engine) until all end.
 */
async function latencyUnderLoad(api, inputs, standIn) {
  const t0 = performance.now();
  const uploads = LOAD_PAGES.map((i) => api.submit(inputs.singles[i]));
  const samples = [];
  const liveSamples = [];
  const open = new Set();
  let uploaded = false;
  const all = Promise.all(uploads).then((jobs) => {
    for (const j of jobs) open.add(j.id);
    uploaded = true;
    return jobs;
  });
  while (!uploaded || open.size > 0) {
    for (const id of uploaded ? [...open] : [standIn]) {
      const { job, ms: took } = await api.get(id);
      samples.push(took);
      liveSamples.push(await api.live());
      await new Promise((r) => setTimeout(r, 150));
      if (uploaded && TERMINAL.includes(job.status)) {
        if (job.status !== "completed") throw new Error(`job ${id} ended ${job.status}: ${JSON.stringify(job.error)}`);
        open.delete(id);
      }
    }
  }
  const jobs = await all;
  return {
    gets: samples.length,
    getP50Ms: quantile(samples, 0.5),
    getP99Ms: quantile(samples, 0.99),
    getMaxMs: Math.max(...samples),
    liveP50Ms: quantile(liveSamples, 0.5),
    liveP99Ms: quantile(liveSamples, 0.99),
    postMaxMs: Math.max(...jobs.map((j) => j.postMs)),
    wallMs: performance.now() - t0,
  };
}

/**
 * The 10-page job's timeline: when each page's last stage ended (seconds after upload, in order),
 * the tail in which only one page was left in flight (one engine slot idle), and exporting's time.
 */
async function pageTimes(api, job) {
  const t = await api.timeline(job.id);
  const start = Date.parse(t.events[0].at);
  const lastOf = new Map();
  for (const e of t.events) if (e.type === "progress" && e.page !== null) lastOf.set(e.page, Date.parse(e.at) - start);
  const done = [...lastOf.values()].sort((a, b) => a - b);
  const exporting = t.stages.find((st) => st.status === "exporting");
  return {
    pagesDoneS: done.map((x) => Math.round(x / 100) / 10),
    oneSlotTailMs: done.at(-1) - done.at(-2),
    exportingMs: exporting?.duration_ms,
  };
}

/**
 * (b): the 10-page PDF against each of its pages alone, one after another. Half of the single pages
 * run before the 10-page job and half after it, so a load that drifts during the run weighs on both sides alike.
 */
async function pagesInParallel(api, inputs) {
  const singleMs = [];
  const single = async (file) => singleMs.push(await api.finish(await api.submit(file)));
  const half = Math.ceil(inputs.singles.length / 2);
  for (const file of inputs.singles.slice(0, half)) await single(file);
  const ten = await api.submit(inputs.ten);
  const tenMs = await api.finish(ten);
  for (const file of inputs.singles.slice(half)) await single(file);
  const sum = singleMs.reduce((a, b) => a + b, 0);
  return { singleMs, sumMs: sum, tenMs, ratio: tenMs / sum, timeline: await pageTimes(api, ten) };
}

/** The service of one layout, in a scratch copy; or the running one at BASE. */
async function serviceFor(mode) {
  if (process.env.BASE) {
    const key = process.env.KEY ?? readFileSync(path.join(root, ".wrangler/dev-api-key"), "utf8").trim();
    return { base: process.env.BASE, key, stop: async () => {} };
  }
  const dir = scratchCopy(`lingoscan-dev-${mode}-`, ["test/bench/logs"]);
  const env = mode === "one" ? { ENGINE_PROCESSES: "0" } : {};
  const svc = await startService(dir, { logFile: path.join(logDir, `dev-concurrency-${mode}.log`), minutes: 8, env });
  return {
    ...svc,
    stop: async () => {
      await svc.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function measure(mode, inputs) {
  const svc = await serviceFor(mode);
  try {
    const api = client(svc.base, svc.key);
    // Warm-up, untimed: as many pages at once as there are cores, so every engine process loads its model.
    const warm = await Promise.all(os.cpus().map((_, i) => api.submit(inputs.singles[i % inputs.singles.length])));
    await Promise.all(warm.map(api.finish));
    const loadBefore = os.loadavg()[0];
    const latency = await latencyUnderLoad(api, inputs, warm[0].id);
    console.log(
      `${mode}: GET /jobs/{id} while 3 A4 jobs run: p50 ${ms(latency.getP50Ms)}, p99 ${ms(latency.getP99Ms)}, max ${ms(latency.getMaxMs)} ` +
        `(${latency.gets} GETs over ${s(latency.wallMs)}); GET /health/live right after each: p50 ${ms(latency.liveP50Ms)}, p99 ${ms(latency.liveP99Ms)}; ` +
        `slowest upload 202 ${ms(latency.postMaxMs)}; load average ${loadBefore.toFixed(1)}–${os.loadavg()[0].toFixed(1)}`,
    );
    let pages = null;
    if (PAGES_IN.includes(mode)) {
      pages = await pagesInParallel(api, inputs);
      console.log(
        `${mode}: 10-page scan ${s(pages.tenMs)} vs single pages ${pages.singleMs.map(s).join(", ")} (sum ${s(pages.sumMs)}): ` +
          `${pages.ratio.toFixed(2)}x; load average ${os.loadavg()[0].toFixed(1)}`,
      );
      const t = pages.timeline;
      console.log(
        `${mode}: 10-page scan, each page's last stage done at ${t.pagesDoneS.join(", ")} s; one page in flight for the last ` +
          `${s(t.oneSlotTailMs)}; exporting ${s(t.exportingMs ?? 0)}`,
      );
    }
    return { latency, pages, loadAverage: loadBefore };
  } finally {
    await svc.stop();
  }
}

const inputs = buildInputs();
const results = {};
for (const mode of MODES) results[mode] = await measure(mode, inputs);
rmSync(work, { recursive: true, force: true });
reportResult("dev-concurrency", { cores: os.cpus().length, ...results });
