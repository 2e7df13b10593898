// The README's walk-through, run as a reader would run it against the local service: its shell blocks
// (curl, then the CLI) in one bash session, then its TypeScript block with the SDK installed as a
// package. The only change is the base URL, which points at this run's `npm run dev` instead of 8787.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { characterErrorRate } from "../../test/engine/cer";
import { root, sampleImage } from "./helpers";
// @ts-expect-error: plain ES module without types
import { scratchCopy } from "../../scripts/local-service.mjs";

const README_BASE = "BASE=http://127.0.0.1:8787";
const TERMINAL = ["completed", "partially_completed", "failed", "cancelled"];

/** The fenced code blocks of the README's walk-through section, with their languages. */
export function walkThroughBlocks(readme: string): { lang: string; code: string }[] {
  const start = readme.search(/^## Walk-through/m);
  if (start < 0) throw new Error("README.md has no '## Walk-through' section");
  const rest = readme.slice(start + 1);
  const end = rest.search(/^## /m);
  const section = end < 0 ? rest : rest.slice(0, end);
  return [...section.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1] ?? "", code: m[2] ?? "" }));
}

/**
 * The reader's checkout: a copy of the repository (as `npm install` leaves it: node_modules linked,
 * the SDK built) with the development key where `npm run dev` writes it, and beside it a folder
 * where `@lingoscan/sdk` is installed as a package, for the SDK block.
 */
function readerCheckout(key: string): { dir: string; sdkFolder: string } {
  const dir: string = scratchCopy("lingoscan-readme-", ["sdk/test/logs", "test/bench/logs"]);
  mkdirSync(path.join(dir, ".wrangler"), { recursive: true });
  writeFileSync(path.join(dir, ".wrangler/dev-api-key"), key);
  const sdkFolder = path.join(dir, ".readme-sdk");
  mkdirSync(path.join(sdkFolder, "node_modules/@lingoscan"), { recursive: true });
  symlinkSync(path.join(dir, "sdk"), path.join(sdkFolder, "node_modules/@lingoscan/sdk"), "dir");
  return { dir, sdkFolder };
}

const MARK = "=== next block ===";
const blocks = walkThroughBlocks(readFileSync(path.join(root, "README.md"), "utf8"));
const shell = blocks.filter((b) => b.lang === "sh");
const typescript = blocks.filter((b) => b.lang === "ts");
const expected = sampleImage().lines.join("\n");

describe("README walk-through", () => {
  let dir: string;
  let sdkFolder: string;
  beforeAll(() => {
    ({ dir, sdkFolder } = readerCheckout(inject("service").key));
    return () => rmSync(dir, { recursive: true, force: true });
  });

  it("has the curl and CLI blocks in sh and the SDK block in ts", () => {
    expect(shell.length, JSON.stringify(blocks, null, 2)).toBe(2);
    expect(typescript.length, JSON.stringify(blocks, null, 2)).toBe(1);
    expect(shell[0]!.code).toContain(README_BASE);
  });

  it("curl then the CLI: the job completes and both print the sample's text", { timeout: 420_000 }, () => {
    const { base } = inject("service");
    const script = ["set -e", shell[0]!.code.replace(README_BASE, `BASE=${base}`), `echo "${MARK}"`, shell[1]!.code].join("\n");
    const r = spawnSync("bash", ["-c", script], {
      cwd: dir,
      encoding: "utf8",
      timeout: 400_000,
      env: { ...process.env, LINGOSCAN_CONFIG: path.join(dir, "none.json") },
    });
    const all = `exit ${r.status}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
    expect(r.status, all).toBe(0);
    const [curlOut = "", cliOut = ""] = r.stdout.split(`${MARK}\n`);
    const lines = curlOut.trim().split("\n");
    // The polling loop echoes each status it sees; the last is terminal and completed.
    const statuses = lines.filter((l) => /^[a-z_]+$/.test(l));
    expect(statuses.at(-1), all).toBe("completed");
    expect(
      statuses.every((s) => !TERMINAL.includes(s) || s === "completed"),
      all,
    ).toBe(true);
    // The timeline is JSON; the downloaded export (the last lines) is the sample's text.
    const timeline = lines.find((l) => l.startsWith("{"));
    expect(() => JSON.parse(timeline ?? ""), all).not.toThrow();
    const downloaded = lines.slice(lines.indexOf(timeline!) + 1).join("\n");
    expect(characterErrorRate(expected, downloaded), all).toBeLessThanOrEqual(0.02);
    expect(characterErrorRate(expected, cliOut), all).toBeLessThanOrEqual(0.02);
  });

  it("the SDK block prints the sample's text", { timeout: 300_000 }, () => {
    const { base, key } = inject("service");
    // The shell blocks wrote sample.png into the checkout; the SDK block reads it from there.
    const file = path.join(sdkFolder, "walk-through.mts");
    writeFileSync(file, typescript[0]!.code);
    const r = spawnSync(path.join(root, "node_modules/.bin/tsx"), [file], {
      cwd: dir,
      encoding: "utf8",
      timeout: 280_000,
      env: { ...process.env, LINGOSCAN_API_KEY: key, LINGOSCAN_BASE_URL: base },
    });
    const all = `exit ${r.status}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
    expect(r.status, all).toBe(0);
    expect(characterErrorRate(expected, r.stdout), all).toBeLessThanOrEqual(0.02);
    // onEvent logs each event's type: the job's progress reached the client.
    expect(r.stderr, all).toMatch(/status/);
  });
});
