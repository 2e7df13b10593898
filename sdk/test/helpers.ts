import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { Lingoscan, type TransportOptions } from "../src/index.js";

export const root = path.resolve(import.meta.dirname, "../..");

export function client(opts: Partial<TransportOptions> = {}): Lingoscan {
  const { base, key } = inject("service");
  return new Lingoscan({ apiKey: key, baseUrl: base, ...opts });
}

/** The sample image of `npm run sample-image` and the lines it draws (printed by the script). */
export function sampleImage(): { file: string; bytes: Uint8Array; lines: string[] } {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "lingoscan-sdk-")), "sample.png");
  const r = spawnSync(process.execPath, [path.join(root, "scripts/sample-image.mjs"), file], { cwd: root, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`sample-image failed: ${r.stderr}`);
  return { file, bytes: new Uint8Array(readFileSync(file)), lines: r.stdout.trim().split("\n").slice(1) };
}
