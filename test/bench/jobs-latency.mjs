// Job latency against a running service (`npm run dev`, loopback): upload→completed time of a
// 1-page `ocr` and `translate` job, and a 20-file batch's wall time against its single-file time.
//   node test/bench/jobs-latency.mjs [runs=5]
// BASE (default http://127.0.0.1:8787) and KEY (default .wrangler/dev-api-key) may be overridden.
import { readFileSync } from "node:fs";
import { PhotonImage, Rgba, draw_text_with_color } from "@cf-wasm/photon/node";
import { reportResult } from "./bench-result.mjs";

const BASE = process.env.BASE ?? "http://127.0.0.1:8787";
const KEY = process.env.KEY ?? readFileSync(".wrangler/dev-api-key", "utf8").trim();
const RUNS = Number(process.argv[2] ?? 5);
const auth = { Authorization: `Bearer ${KEY}` };

function png(lines) {
  const size = 32,
    margin = 48,
    step = Math.round(size * 1.6);
  const width = Math.ceil(Math.max(...lines.map((l) => l.length)) * size * 0.6) + 2 * margin;
  const height = lines.length * step + 2 * margin;
  const img = new PhotonImage(new Uint8Array(width * height * 4).fill(255), width, height);
  lines.forEach((line, i) => draw_text_with_color(img, line, margin, margin + i * step, size, new Rgba(0, 0, 0, 255)));
  const bytes = img.get_bytes();
  img.free();
  return bytes;
}

const page = (n) =>
  png([
    `Invoice number ${4821 + n} is due on 12 March 2026.`,
    "The quick brown fox jumps over the lazy dog.",
    "Please pay the total amount of 1,250 euros.",
  ]);

async function post(path, form) {
  const res = await fetch(`${BASE}${path}`, { method: "POST", headers: auth, body: form });
  const body = await res.json();
  if (res.status !== 202) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** Polls a job to its end; gives up after JOB_TIMEOUT_S seconds (default 300), so a stuck job cannot hang the run. */
async function finished(id) {
  const deadline = performance.now() + Number(process.env.JOB_TIMEOUT_S ?? 300) * 1000;
  for (;;) {
    const job = await (await fetch(`${BASE}/api/v1/jobs/${id}`, { headers: auth })).json();
    if (["completed", "partially_completed", "failed", "cancelled"].includes(job.status)) return job;
    if (performance.now() > deadline) throw new Error(`job ${id} still ${job.status} after ${process.env.JOB_TIMEOUT_S ?? 300} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function single(options, n) {
  const form = new FormData();
  form.append("file", new File([page(n)], `page-${n}.png`));
  form.append("options", JSON.stringify(options));
  const t0 = performance.now();
  const job = await finished((await post("/api/v1/process", form)).id);
  return { ms: performance.now() - t0, status: job.status, error: job.error?.code };
}

async function batch(files) {
  const form = new FormData();
  for (let i = 0; i < files; i++) form.append("file", new File([page(i)], `page-${i}.png`));
  form.append("options", JSON.stringify({ tool: "ocr" }));
  const t0 = performance.now();
  const job = await finished((await post("/api/v1/batch", form)).id);
  return { ms: performance.now() - t0, status: job.status, files: job.batch };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`;

await single({ tool: "ocr" }, 0); // warm-up: engine isolate, OCR model load
const singles = {};
for (const [name, options] of [
  ["ocr", { tool: "ocr" }],
  ["translate", { tool: "translate", source_language: "en", target_language: "es" }],
]) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await single(options, i));
  const statuses = [...new Set(runs.map((r) => r.status + (r.error ? ` (${r.error})` : "")))].join(", ");
  singles[name] = {
    medianMs: median(runs.map((r) => r.ms)),
    minMs: Math.min(...runs.map((r) => r.ms)),
    maxMs: Math.max(...runs.map((r) => r.ms)),
    runs: RUNS,
    statuses,
  };
  console.log(
    `1-page ${name.padEnd(9)} upload→terminal: median ${fmt(median(runs.map((r) => r.ms)))}, min ${fmt(Math.min(...runs.map((r) => r.ms)))}, max ${fmt(Math.max(...runs.map((r) => r.ms)))} over ${RUNS} runs; ended ${statuses}`,
  );
}
const one = await batch(1);
const twenty = await batch(20);
console.log(`batch of 1:  ${fmt(one.ms)} (${one.status})`);
console.log(
  `batch of 20: ${fmt(twenty.ms)} (${twenty.status}, ${JSON.stringify(twenty.files)}); ${(twenty.ms / one.ms).toFixed(1)}x the single-file batch, ${fmt(twenty.ms / 20)} a file`,
);
reportResult("jobs", {
  singles,
  batch1Ms: one.ms,
  batch1Status: one.status,
  batch20Ms: twenty.ms,
  batch20Status: twenty.status,
  batch20Files: twenty.files,
});
