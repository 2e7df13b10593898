// What each benchmark does with its figures, in one call: reportResult(name, figures)
//  - prints them as one machine-readable line, read by the benchmark suite (scripts/bench.mjs):
//      BENCH_RESULT {"bench":"<name>", …figures}
//  - writes them to test/bench/results/<name>.json with the command that produced them, the
//    machine and the date; the figures they replace move to the file's history (the last
//    HISTORY_LENGTH runs). `npm run bench:report` renders docs/benchmarks.md from these files.
// BENCH_RESULTS_DIR writes the files elsewhere (the suite's scratch copies write back here).
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const RESULT_PREFIX = "BENCH_RESULT ";
export const RESULTS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "results");
const HISTORY_LENGTH = 5;

/** The machine a benchmark ran on, as the page shows it. */
export function machine() {
  const cpus = os.cpus();
  return {
    cores: cpus.length,
    cpu: cpus[0]?.model.trim() ?? "unknown CPU",
    memoryGB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    loadAverage: Math.round(os.loadavg()[0] * 10) / 10,
    os: `${os.type()} ${os.release()}`,
    node: process.version,
  };
}

/**
 * The command that ran the benchmark: the npm script when there was one, else the script and its
 * arguments, preceded by the environment variables the script reads that were set.
 */
export function command(argv = process.argv, env = process.env) {
  const script = argv[1] ?? "";
  let source = "";
  try {
    source = readFileSync(script, "utf8");
  } catch {
    // Not a file (a REPL or an inline script): no variables to name.
  }
  const read = new Set([...source.matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]));
  const vars = [...read].filter((v) => env[v] !== undefined && v !== "BASE" && v !== "KEY").map((v) => `${v}=${env[v]}`);
  // The suite (scripts/bench.mjs) names itself; otherwise the npm script, or node and the script.
  if (env.BENCH_COMMAND) return [...vars, env.BENCH_COMMAND].join(" ");
  const event = env.npm_lifecycle_event;
  const cmd = event ? `npm run ${event}` : ["node", path.relative(process.cwd(), script), ...argv.slice(2)].join(" ");
  return [...vars, cmd, ...(event ? argv.slice(2) : [])].join(" ");
}

/** Writes one run's figures to results/<name>.json, keeping the runs before it as history. */
export function writeResult(name, figures, { dir = process.env.BENCH_RESULTS_DIR || RESULTS_DIR, now = new Date(), argv, env } = {}) {
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`benchmark name ${JSON.stringify(name)}: lower case, digits and dashes only`);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.json`);
  const before = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined;
  const latest = { date: now.toISOString(), command: command(argv, env), machine: machine(), figures };
  const history = before ? [before.latest, ...(before.history ?? [])].slice(0, HISTORY_LENGTH) : [];
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ bench: name, latest, history }, null, 2)}\n`);
  renameSync(tmp, file);
  return file;
}

/** Reads one benchmark's results file; undefined when it has not run yet. */
export function readResult(name, dir = RESULTS_DIR) {
  const file = path.join(dir, `${name}.json`);
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined;
}

/** The one call a benchmark makes with its figures: the suite's line, and its results file. */
export function reportResult(bench, figures) {
  console.log(`${RESULT_PREFIX}${JSON.stringify({ bench, ...figures })}`);
  const file = writeResult(bench, figures);
  console.log(`bench: results written to ${path.relative(process.cwd(), file)}`);
}
