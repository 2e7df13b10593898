// Runs every benchmark one after another and writes their figures as one Markdown table:
//   npm run bench                      (results in test/bench/results.md, each run's output in test/bench/logs/)
//   BENCH_ONLY=ocr,load npm run bench  (a subset: ocr, speed, translate, render, jobs, load)
//
// recognition  test/bench/ocr-bench.mjs            engine under wrangler dev vs native tesseract (Debian tesseract-ocr)
// page speed   test/bench/page-speed.mjs           every engine call of an ocr page vs native tesseract, A4 and real scans
// translation  test/bench/translate-throughput.mjs Workers runtime in the test pool, Apertium on loopback
// rendering    test/bench/render-bench.mjs         engine under wrangler dev
// job latency  test/bench/jobs-latency.mjs         against `npm run dev`
// load         test/bench/load.mjs                 against `npm run dev`
//
// The last two need the whole service: this script runs `npm run dev` itself in a scratch copy of the
// repository (its own local D1/R2/Workflows state and development account, on a free port, so a
// developer's running service and data are left alone) and stops it afterwards. Every benchmark
// runs under a time limit (BENCH_MINUTES_<NAME>, e.g. BENCH_MINUTES_OCR=30); one that fails or runs
// out of time is reported as such and the others still run.
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { RESULT_PREFIX } from "../test/bench/bench-result.mjs";
import { renderResults } from "../test/bench/results-table.mjs";
import { scratchCopy, startService, stopGroup } from "./local-service.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const benchDir = path.join(root, "test/bench");
const logDir = path.join(benchDir, "logs");

/** The benchmarks in the order they run; `service` ones run against `npm run dev`. */
const BENCHES = [
  { name: "ocr", title: "recognition", args: ["test/bench/ocr-bench.mjs"], minutes: 30 },
  { name: "speed", title: "page speed", args: ["test/bench/page-speed.mjs"], minutes: 30 },
  { name: "translate", title: "translation", args: ["test/bench/translate-throughput.mjs"], minutes: 10 },
  { name: "render", title: "rendering", args: ["test/bench/render-bench.mjs"], minutes: 20 },
  { name: "jobs", title: "job latency", args: ["test/bench/jobs-latency.mjs", "3"], minutes: 15, service: true },
  { name: "load", title: "load", args: ["test/bench/load.mjs"], minutes: 15, service: true },
];

const only = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(",").map((s) => s.trim())) : undefined;
const selected = BENCHES.filter((b) => !only || only.has(b.name));
if (selected.length === 0) throw new Error(`BENCH_ONLY selects nothing; names: ${BENCHES.map((b) => b.name).join(", ")}`);

/**
 * Runs one benchmark in its own process group with a time limit; its output goes to
 * test/bench/logs/<name>.log and its BENCH_RESULT line is returned.
 */
async function runBench(bench, { cwd = root, env = {} } = {}) {
  const minutes = Number(process.env[`BENCH_MINUTES_${bench.name.toUpperCase()}`] ?? bench.minutes);
  const logFile = path.join(logDir, `${bench.name}.log`);
  const log = createWriteStream(logFile);
  const t0 = performance.now();
  const child = spawn(process.execPath, bench.args, {
    cwd,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  let result;
  let pending = "";
  child.stdout.on("data", (chunk) => {
    log.write(chunk);
    pending += chunk;
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      const at = line.indexOf(RESULT_PREFIX);
      if (at >= 0) result = JSON.parse(line.slice(at + RESULT_PREFIX.length));
    }
  });
  child.stderr.on("data", (chunk) => log.write(chunk));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stopGroup(child, exited);
  }, minutes * 60_000);
  const { code, signal } = await exited;
  clearTimeout(timer);
  await new Promise((r) => log.end(r));
  const seconds = (performance.now() - t0) / 1000;
  const outcome = timedOut ? `stopped after the ${minutes}-minute limit` : code === 0 && result ? "ok" : `failed (exit ${code ?? signal})`;
  console.log(
    `bench: ${bench.title.padEnd(12)} ${outcome.padEnd(10)} ${seconds.toFixed(0).padStart(5)} s   log: ${path.relative(root, logFile)}`,
  );
  return {
    bench: bench.name,
    title: bench.title,
    outcome,
    seconds,
    result: outcome === "ok" ? result : undefined,
    log: path.relative(root, logFile),
  };
}

async function main() {
  mkdirSync(logDir, { recursive: true });
  const started = new Date();
  const load = os.loadavg()[0];
  const runs = [];
  for (const bench of selected.filter((b) => !b.service)) runs.push(await runBench(bench));

  const serviceBenches = selected.filter((b) => b.service);
  if (serviceBenches.length) {
    const dir = scratchCopy("lingoscan-bench-service-", ["test/bench/logs"]);
    let service;
    try {
      service = await startService(dir, { logFile: path.join(logDir, "service.log"), minutes: DEV_START_MINUTES });
      console.log(`bench: service     ready at ${service.base} (npm run dev in ${dir})`);
    } catch (err) {
      console.error(`bench: ${err.message}`);
      for (const b of serviceBenches)
        runs.push({ bench: b.name, title: b.title, outcome: "not run (the service did not start)", seconds: 0 });
    }
    if (service) {
      try {
        for (const bench of serviceBenches) runs.push(await runBench(bench, { cwd: dir, env: { BASE: service.base } }));
      } finally {
        await service.stop();
      }
    }
    rmSync(dir, { recursive: true, force: true });
  }

  const machine = `${os.cpus().length} cores (${os.cpus()[0]?.model.trim() ?? "unknown CPU"}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GB, load average ${load.toFixed(1)} at the start; Node ${process.version}`;
  const markdown = renderResults(runs, { started, machine });
  writeFileSync(path.join(benchDir, "results.md"), markdown);
  console.log(`\n${markdown}`);
  console.log(`bench: written to ${path.relative(root, path.join(benchDir, "results.md"))}`);
  if (runs.some((r) => r.outcome !== "ok")) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
