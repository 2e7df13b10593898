// The benchmarks' menu and runner:
//   npm run bench -- --list            the menu: every benchmark by subject, its command and what it needs
//   npm run bench                      the quick suite (recognition, page speed, translation, rendering,
//                                      job latency, load): about 6 minutes on a 2-core machine
//   npm run bench -- tables real       those benchmarks (names from the menu; BENCH_ONLY=a,b does the same)
// Each benchmark writes its figures to test/bench/results/<name>.json (reportResult); afterwards the
// runner renders docs/benchmarks.md and the README's headline figures from them
// (scripts/bench-report.mjs), writes one table of this run's figures to test/bench/results.md and
// each benchmark's output to test/bench/logs/ (neither committed).
//
// Benchmarks marked `service` need the whole service: this script runs `npm run dev` itself in a
// scratch copy of the repository (its own local D1/R2/Workflows state and development account, on a
// free port, so a developer's running service and data are left alone) and stops it afterwards.
// Every benchmark runs under a time limit (BENCH_MINUTES_<NAME>, e.g. BENCH_MINUTES_OCR=30); one that
// fails or runs out of time is reported as such and the others still run.
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { RESULT_PREFIX, RESULTS_DIR } from "../test/bench/bench-result.mjs";
import { BENCHES, SUBJECTS } from "../test/bench/catalogue.mjs";
import { renderResults } from "../test/bench/results-table.mjs";
import { scratchCopy, startService, stopGroup } from "./local-service.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const benchDir = path.join(root, "test/bench");
const logDir = path.join(benchDir, "logs");

const names = [...process.argv.slice(2).filter((a) => !a.startsWith("-")), ...(process.env.BENCH_ONLY?.split(",") ?? [])]
  .map((s) => s.trim())
  .filter(Boolean);
const unknown = names.filter((n) => !BENCHES.some((b) => b.name === n));
if (unknown.length) throw new Error(`unknown benchmark ${unknown.join(", ")}; names: ${BENCHES.map((b) => b.name).join(", ")}`);
const selected = names.length ? BENCHES.filter((b) => names.includes(b.name)) : BENCHES.filter((b) => b.suite);

/** The menu: every benchmark by subject. */
function printMenu() {
  for (const subject of SUBJECTS) {
    console.log(`\n${subject}`);
    for (const b of BENCHES.filter((x) => x.subject === subject)) {
      console.log(`  ${b.name.padEnd(16)}${b.suite ? "*" : " "} ${b.title}: ${b.command}${b.needs ? `  (needs ${b.needs})` : ""}`);
    }
  }
  console.log("\n* in the quick suite (npm run bench). Run others by name: npm run bench -- tables real");
}

/**
 * Runs one benchmark in its own process group with a time limit; its output goes to
 * test/bench/logs/<name>.log and its BENCH_RESULT line is returned.
 */
async function runBench(bench, { cwd = root, env = {} } = {}) {
  const minutes = Number(process.env[`BENCH_MINUTES_${bench.name.toUpperCase().replace(/-/g, "_")}`] ?? bench.minutes);
  const logFile = path.join(logDir, `${bench.name}.log`);
  const log = createWriteStream(logFile);
  const t0 = performance.now();
  const child = spawn(process.execPath, bench.args, {
    cwd,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    // Benchmarks run in a scratch copy still write their results here.
    env: { ...process.env, BENCH_RESULTS_DIR: RESULTS_DIR, BENCH_COMMAND: `npm run bench -- ${bench.name}`, ...env },
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
  if (process.argv.includes("--list")) return printMenu();
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
  const report = spawn(process.execPath, ["scripts/bench-report.mjs"], { cwd: root, stdio: "inherit" });
  await new Promise((resolve) => report.once("exit", resolve));
  if (runs.some((r) => r.outcome !== "ok")) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
