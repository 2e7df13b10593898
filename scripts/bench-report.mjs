// Renders docs/benchmarks.md from the benchmarks' results files (test/bench/results/<name>.json,
// written by reportResult in test/bench/bench-result.mjs), and the headline table between the
// README's `bench:headline` markers:
//   npm run bench:report            writes both
//   npm run bench:report -- --check exits 1 when either differs from what the results give
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readResult, RESULTS_DIR } from "../test/bench/bench-result.mjs";
import { BENCHES, SUBJECTS } from "../test/bench/catalogue.mjs";
import { figureRows } from "../test/bench/results-table.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PAGE = path.join(root, "docs/benchmarks.md");
const README = path.join(root, "README.md");
export const HEADLINE_START = "<!-- bench:headline (written by npm run bench:report) -->";
export const HEADLINE_END = "<!-- /bench:headline -->";

const cell = (s) => String(s).replace(/\|/g, "\\|").replace(/\n/g, " ");
const day = (iso) => iso.slice(0, 16).replace("T", " ") + " UTC";
const machineText = (m) => `${m.cores} cores (${m.cpu}), ${m.memoryGB} GB, load average ${m.loadAverage}, ${m.os}, Node ${m.node}`;
const title = (s) => s[0].toUpperCase() + s.slice(1);

/** A results table: figure, value and, when any row has one, the ratio it is read against. */
function table(rows) {
  const ratios = rows.some((r) => r[2]);
  const head = ratios ? ["| figure | value | against |", "|---|---|---|"] : ["| figure | value |", "|---|---|"];
  return [...head, ...rows.map((r) => `| ${cell(r[0])} | ${cell(r[1])} |${ratios ? ` ${cell(r[2] ?? "")} |` : ""}`)];
}

/** docs/benchmarks.md for the results in `dir`. */
export function renderPage(dir = RESULTS_DIR) {
  const out = [
    "# Benchmarks",
    "",
    "The latest figures of every benchmark: what it measures, the command that produced the figures,",
    "the machine and the date. Each benchmark writes its results to `test/bench/results/<name>.json`;",
    "this page is rendered from those files by `npm run bench:report` and is not edited by hand.",
    "`npm run bench -- --list` shows the menu; `npm run bench` runs the quick suite. How each",
    "benchmark works and what earlier runs taught is in [benchmark-notes.md](benchmark-notes.md).",
    "",
  ];
  const history = [];
  for (const subject of SUBJECTS) {
    out.push(`## ${title(subject)}`, "");
    for (const b of BENCHES.filter((x) => x.subject === subject)) {
      const r = readResult(b.name, dir);
      out.push(`### ${b.title}`, "", b.measures, "");
      out.push(`Command: \`${b.command}\`${b.needs ? ` (needs ${b.needs})` : ""}.`, "");
      if (!r) {
        out.push("Not run yet.", "");
        continue;
      }
      out.push(`Latest run: ${day(r.latest.date)}, \`${r.latest.command}\`, on ${machineText(r.latest.machine)}.`, "");
      out.push(...table(figureRows(b.name, r.latest.figures)), "");
      for (const h of r.history ?? []) history.push({ bench: b, run: h });
    }
  }
  out.push("## History", "");
  if (history.length === 0) out.push("No earlier runs recorded in the results files yet.", "");
  else {
    out.push("Earlier runs kept in the results files (the last five of each benchmark), headline figure first:", "");
    out.push("| benchmark | date | command | figure |", "|---|---|---|---|");
    for (const { bench, run } of history) {
      const [figure, value] = bench.headline?.(run.figures) ?? figureRows(bench.name, run.figures)[0] ?? ["", ""];
      out.push(`| ${cell(bench.title)} | ${day(run.date)} | \`${cell(run.command)}\` | ${cell(figure)}: ${cell(value)} |`);
    }
    out.push("");
  }
  out.push(
    "Figures measured before the benchmarks wrote results files (real scans, page speed, tables,",
    "load, hostile inputs) are recorded with their dates in [benchmark-notes.md](benchmark-notes.md).",
    "",
  );
  return out.join("\n");
}

/** The README's headline table: one figure of each benchmark that has run, linking to its section. */
export function renderHeadline(dir = RESULTS_DIR) {
  const rows = [];
  for (const b of BENCHES) {
    const r = readResult(b.name, dir);
    const h = r && b.headline?.(r.latest.figures);
    const m = r?.latest.machine;
    if (h)
      rows.push(`| ${cell(h[0])} | ${cell(h[1])} | ${r.latest.date.slice(0, 10)}, ${m.cores} cores at load average ${m.loadAverage} |`);
  }
  const body = rows.length ? ["| figure | value | measured |", "|---|---|---|", ...rows] : ["No benchmark has written results yet."];
  return [
    HEADLINE_START,
    ...body,
    "",
    "Every figure, its command and its machine: [docs/benchmarks.md](docs/benchmarks.md).",
    HEADLINE_END,
  ].join("\n");
}

/** The README with its headline block replaced. */
export function withHeadline(readme, headline) {
  const a = readme.indexOf(HEADLINE_START);
  const b = readme.indexOf(HEADLINE_END);
  if (a < 0 || b < a) throw new Error(`README.md has no ${HEADLINE_START} … ${HEADLINE_END} block`);
  return readme.slice(0, a) + headline + readme.slice(b + HEADLINE_END.length);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes("--check");
  const page = renderPage();
  const readme = readFileSync(README, "utf8");
  const newReadme = withHeadline(readme, renderHeadline());
  const stale = [];
  if (readFileSync(PAGE, { encoding: "utf8", flag: "a+" }) !== page) stale.push("docs/benchmarks.md");
  if (readme !== newReadme) stale.push("README.md");
  if (check) {
    if (stale.length) {
      console.error(`${stale.join(" and ")} differ from the benchmarks' results: run npm run bench:report`);
      process.exit(1);
    }
    console.log("docs/benchmarks.md and the README's figures match the benchmarks' results");
  } else {
    writeFileSync(PAGE, page);
    writeFileSync(README, newReadme);
    console.log(`written: docs/benchmarks.md, README.md headline (${stale.length ? "changed" : "unchanged"})`);
  }
}
