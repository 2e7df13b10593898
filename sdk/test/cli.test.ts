// The command-line tool, run as a user would (`npx lingoscan …` from the repository) against the local service.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { characterErrorRate } from "../../test/engine/cer";
import { root, sampleImage } from "./helpers";

const sample = sampleImage();
const work = mkdtempSync(path.join(os.tmpdir(), "lingoscan-cli-"));

function lingoscan(args: string[], env: Record<string, string> = {}) {
  const { base, key } = inject("service");
  if (!existsSync(path.join(root, "sdk/dist/cli/main.js"))) throw new Error("sdk/dist is missing: run `npm run sdk:build` first");
  const r = spawnSync("npx", ["--no-install", "lingoscan", ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, LINGOSCAN_API_KEY: key, LINGOSCAN_BASE_URL: base, LINGOSCAN_CONFIG: path.join(work, "none.json"), ...env },
    timeout: 170_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, all: `exit ${r.status}\n${r.stdout}\n${r.stderr}` };
}

describe("lingoscan CLI", () => {
  it("`lingoscan ocr page.png` prints the recognised text, progress on stderr", () => {
    const r = lingoscan(["ocr", sample.file]);
    expect(r.status, r.all).toBe(0);
    expect(characterErrorRate(sample.lines.join("\n"), r.stdout), r.all).toBeLessThanOrEqual(0.02);
    expect(r.stderr).toMatch(/sample\.png \[#+\] 100% /);
  });

  it("--json gives the job and the text; jobs lists it; export builds a project export", () => {
    const r = lingoscan(["ocr", sample.file, "--json"]);
    expect(r.status, r.all).toBe(0);
    const out = JSON.parse(r.stdout) as { job: { status: string; id: string; project_id: string }; text: string };
    expect(out.job.status).toBe("completed");
    expect(characterErrorRate(sample.lines.join("\n"), out.text)).toBeLessThanOrEqual(0.02);
    const jobs = JSON.parse(lingoscan(["jobs", "--json", "--limit", "5"]).stdout) as { items: { id: string }[] };
    expect(jobs.items.map((j) => j.id)).toContain(out.job.id);

    // A project export in another format, saved where asked.
    const dir = path.join(work, "export");
    const e = lingoscan(["export", out.job.project_id, "--format", "txt", "--out", dir]);
    expect(e.status, e.all).toBe(0);
    const saved = e.stdout.trim();
    expect(path.dirname(saved)).toBe(dir);
    expect(characterErrorRate(sample.lines.join("\n"), readFileSync(saved, "utf8"))).toBeLessThanOrEqual(0.02);
  });

  it("erase saves the clean image; batch saves the ZIP and report", () => {
    const out = path.join(work, "erased");
    const r = lingoscan(["erase", sample.file, "--out", out]);
    expect(r.status, r.all).toBe(0);
    const [png] = readdirSync(out);
    expect([...readFileSync(path.join(out, png!)).subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);

    const dir = path.join(work, "pages");
    mkdirSync(dir);
    for (const n of ["a.png", "b.png"]) copyFileSync(sample.file, path.join(dir, n));
    const batchOut = path.join(work, "batch");
    const b = lingoscan(["batch", dir, "--out", batchOut]);
    expect(b.status, b.all).toBe(0);
    expect(b.stdout).toMatch(/completed: 2 completed, 0 partially, 0 failed of 2/);
    expect(
      readdirSync(batchOut).some((f) => f.endsWith(".zip")),
      readdirSync(batchOut).join(", "),
    ).toBe(true);
  });

  it("without a key it says where to put one; a bad key is the API's error with its request id", () => {
    const none = lingoscan(["ocr", sample.file], { LINGOSCAN_API_KEY: "" });
    expect(none.status, none.all).toBe(1);
    expect(none.stderr).toMatch(/LINGOSCAN_API_KEY/);
    const bad = lingoscan(["jobs"], { LINGOSCAN_API_KEY: "lik_live_wrong" });
    expect(bad.status, bad.all).toBe(1);
    expect(bad.stderr).toMatch(/invalid_api_key: .*\(request req_/);
  });
});
