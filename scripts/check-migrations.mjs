#!/usr/bin/env node
// Fails when migrations/ is not up to date with src/db/schema.ts, i.e. when `drizzle-kit generate`
// would write a new migration. Works on a temporary copy, so the repository is never modified.
// Also runs `drizzle-kit check` (snapshot consistency) and checks that every journal entry has its
// SQL file and vice versa.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const migrations = path.join(root, "migrations");
const bin = path.join(root, "node_modules", ".bin", process.platform === "win32" ? "drizzle-kit.cmd" : "drizzle-kit");

function fail(message) {
  console.error(`check-migrations: ${message}`);
  process.exit(1);
}

function sqlFiles(dir) {
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith(".sql"))
        .sort()
    : [];
}

// 1. The journal and the SQL files agree.
const journalPath = path.join(migrations, "meta", "_journal.json");
if (!existsSync(journalPath)) fail("migrations/meta/_journal.json is missing; run `npm run db:generate`.");
const journal = JSON.parse(readFileSync(journalPath, "utf8"));
const journaled = journal.entries.map((e) => `${e.tag}.sql`).sort();
const present = sqlFiles(migrations);
if (JSON.stringify(journaled) !== JSON.stringify(present)) {
  fail(`journal lists [${journaled.join(", ")}] but migrations/ holds [${present.join(", ")}].`);
}

// 2. Generate into a copy and see whether anything new appears.
const work = mkdtempSync(path.join(tmpdir(), "check-migrations-"));
try {
  const out = path.join(work, "migrations");
  cpSync(migrations, out, { recursive: true });
  // drizzle-kit resolves `schema` and `out` against the working directory: keep them relative to root.
  const config = path.join(work, "drizzle.config.mjs");
  writeFileSync(
    config,
    `export default ${JSON.stringify({ dialect: "sqlite", schema: "./src/db/schema.ts", out: path.relative(root, out) })};\n`,
  );

  const run = (args) => {
    const r = spawnSync(bin, args, { cwd: root, encoding: "utf8", env: { ...process.env, FORCE_COLOR: "0" } });
    if (r.status !== 0) fail(`drizzle-kit ${args[0]} failed:\n${r.stdout}\n${r.stderr}`);
    return r.stdout;
  };

  run(["check", "--config", config]);
  run(["generate", "--config", config, "--name", "pending"]);

  const added = sqlFiles(out).filter((f) => !present.includes(f));
  if (added.length > 0) {
    const sql = added.map((f) => `-- ${f}\n${readFileSync(path.join(out, f), "utf8")}`).join("\n");
    fail(
      `migrations/ is out of date with src/db/schema.ts. Run \`npm run db:generate -- --name <change>\` and commit the result.\nPending SQL:\n${sql}`,
    );
  }
  console.log(`check-migrations: ${present.length} migration(s), up to date with the schema.`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
