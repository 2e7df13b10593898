import type { TestProject } from "vitest/node";
import { readFileSync } from "node:fs";
import { modelFiles } from "../scripts/models.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    /** Model and font files for R2 MODELS, base64-encoded, keyed by their R2 key. */
    models: Record<string, string>;
  }
}

/** Hands the seeded model files to the test workers. */
export default function setup(project: TestProject) {
  const wanted = new Set(["tessdata/eng.traineddata.gz", "fonts/DejaVuSans.ttf", "fonts/DejaVuSans-Bold.ttf"]);
  const models: Record<string, string> = {};
  for (const { key, file } of modelFiles(["eng"])) {
    if (wanted.has(key)) models[key] = readFileSync(file).toString("base64");
  }
  project.provide("models", models);
}
