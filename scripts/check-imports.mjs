#!/usr/bin/env node
// Lists the imports that run back up a floor, and the import cycles between files, in both
// Workers: the api (src/) and the engine (workers/engine/), and in the code they share
// (workers/shared/). Exits 1 when there is either (so it can run as a check); `--quiet` prints
// only the counts.
//
// Neither Worker reaches into the other's tree: what both use lives in workers/shared/, which
// imports neither of them.
//
// Floors, lowest first: a file may import from its own floor or any floor below it.
// Inside src/modules/, each domain has its own rank: a domain may import only domains ranked
// below it, so two domains never import each other both ways.
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");

const TREES = [
  {
    dir: path.join(ROOT, "src"),
    /** Top-level floors (a folder or a file, or several on one floor), lowest first. */
    floors: ["lib", "db", "env.ts", "http", "providers", "modules", "pipeline", "app.ts", "index.ts"],
    /** Domains under modules/, lowest first: the order in which they may depend on each other. */
    domains: [
      "webhooks",
      "translation-memory",
      "glossaries",
      "translation",
      "billing",
      "auth",
      "exports",
      "jobs",
      "projects",
      "shares",
      // Account-wide export and erasure read what every domain below declares of an account.
      "account",
      "system",
    ],
    /** Code both Workers use (the engine's RPC contract, language catalogue, text direction, shaping). */
    shared: [path.join(ROOT, "workers/shared")],
  },
  {
    dir: path.join(ROOT, "workers/engine"),
    // Types, errors, bindings and memory budget; stored pages; pixels; reading text;
    // page layout and tables; text in pictures; PDF pages; text removal; typesetting; export files; one page's
    // orchestration (page/); the RPC surface.
    floors: [
      ["types", "errors.ts", "env.ts", "memory.ts"],
      "storage",
      "image",
      "ocr",
      "layout",
      "picture",
      "pdf",
      "inpaint",
      "typeset",
      "exports",
      "page",
      "index.ts",
    ],
    domains: [],
    /** Code both Workers use, and wasm packages imported by path. */
    shared: [path.join(ROOT, "workers/shared"), path.join(ROOT, "node_modules")],
  },
  {
    // Plain modules with no floors of their own: they may import each other, never either Worker.
    dir: path.join(ROOT, "workers/shared"),
    floors: [fs.readdirSync(path.join(ROOT, "workers/shared"))],
    domains: [],
    shared: [],
  },
];
/** Cycles that may stay: the schema's foreign keys between jobs and projects point both ways. */
const ALLOWED_CYCLES = [["src/db/schema/jobs.ts", "src/db/schema/projects.ts"]];

function listFiles(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...listFiles(p));
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

function resolve(from, spec) {
  const base = path.resolve(path.dirname(from), spec);
  for (const c of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")]) {
    if (fs.existsSync(c) && fs.statSync(c).isFile()) return c;
  }
  return base;
}

const IMPORT =
  /(?:^|[\n;])\s*(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)|(?:^|[\n;])\s*import\s*["']([^"']+)["']/g;

function importsOf(file) {
  const text = fs.readFileSync(file, "utf8");
  const out = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec.startsWith(".")) continue;
    const line = text.slice(0, m.index + m[0].length).split("\n").length;
    out.push({ target: resolve(file, spec), line });
  }
  return out;
}

/** The tree a file belongs to, and its [floor, domain] there; null outside both trees. */
function placeOf(file) {
  const tree = TREES.find((t) => !path.relative(t.dir, file).startsWith(".."));
  if (!tree) return null;
  const rel = path.relative(tree.dir, file).split(path.sep);
  const floor = tree.floors.findIndex((f) => (Array.isArray(f) ? f.includes(rel[0]) : f === rel[0]));
  const where = `${path.relative(ROOT, tree.dir)}/${rel[0]}`;
  if (floor < 0) throw new Error(`${path.relative(ROOT, file)}: no floor defined for ${where} (add it to the floors)`);
  if (rel[0] !== "modules" || tree.domains.length === 0) return { tree, floor, domain: -1, name: where.replace(/\.ts$/, "") };
  const domain = tree.domains.indexOf(rel[1]);
  if (domain < 0) throw new Error(`${path.relative(ROOT, file)}: no rank defined for modules/${rel[1]} (add it to the domains)`);
  return { tree, floor, domain, name: `${where}/${rel[1]}` };
}

const files = TREES.flatMap((t) => listFiles(t.dir));
const graph = new Map();
const backUp = [];
for (const file of files) {
  const from = placeOf(file);
  const edges = importsOf(file);
  graph.set(
    file,
    edges.map((e) => e.target).filter((t) => placeOf(t)?.tree === from.tree),
  );
  for (const { target, line } of edges) {
    if (from.tree.shared.some((s) => target.startsWith(s))) continue;
    const to = placeOf(target);
    if (to?.tree !== from.tree) {
      backUp.push({ file, line, target, why: `outside ${path.relative(ROOT, from.tree.dir)}/` });
      continue;
    }
    const up = to.floor > from.floor || (to.floor === from.floor && to.domain > from.domain);
    if (up) backUp.push({ file, line, target, why: `${from.name} imports ${to.name}` });
  }
}

// Strongly connected components (Tarjan): every component of more than one file is a cycle.
function cycles(graph) {
  let index = 0;
  const idx = new Map(),
    low = new Map(),
    onStack = new Set(),
    stack = [],
    out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const comp = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  const allowed = (c) => ALLOWED_CYCLES.some((a) => a.length === c.length && a.every((f) => c.includes(f)));
  return out.filter((c) => !allowed(c));
}

const rel = (f) => path.relative(ROOT, f);
const circles = cycles(new Map([...graph].map(([f, ts]) => [rel(f), ts.map(rel)])));
// Two folders (src/http, src/modules/jobs, workers/engine/ocr, …) that import each other both ways.
const folderOf = (f) => placeOf(path.join(ROOT, f)).name;
const folders = new Map();
for (const [f, ts] of graph) {
  const from = folderOf(rel(f));
  if (!folders.has(from)) folders.set(from, new Set());
  for (const t of ts) if (folderOf(rel(t)) !== from) folders.get(from).add(folderOf(rel(t)));
}
const folderCircles = [];
for (const [a, tos] of folders) for (const b of tos) if (a < b && folders.get(b)?.has(a)) folderCircles.push([a, b]);
const quiet = process.argv.includes("--quiet");
if (!quiet) {
  for (const b of backUp) console.log(`back-up  ${path.relative(ROOT, b.file)}:${b.line} -> ${path.relative(ROOT, b.target)}  (${b.why})`);
  for (const c of circles) console.log(`cycle    ${c.join(" <-> ")}`);
  for (const c of folderCircles) console.log(`folders  ${c.join(" <-> ")}`);
}
console.log(
  `${backUp.length} back-up imports, ${circles.length} import cycles between files, ${folderCircles.length} between folders in src/, workers/engine/ and workers/shared/ (${files.length} files)`,
);
process.exit(backUp.length || circles.length || folderCircles.length ? 1 : 0);
