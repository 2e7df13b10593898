// The SDK's core runs in browsers and Workers: only the CLI may use Node's modules.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "./helpers";

describe("portable core", () => {
  const dir = path.join(root, "sdk/src");
  const core = readdirSync(dir).filter((f) => f.endsWith(".ts"));
  it.each(core)("%s imports no Node module", (f) => {
    const imports = [...readFileSync(path.join(dir, f), "utf8").matchAll(/from\s+"([^"]+)"/g)].map((m) => m[1]);
    expect(
      imports.filter((i) => !i!.startsWith("./")),
      f,
    ).toEqual([]);
  });
});
