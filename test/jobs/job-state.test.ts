import { describe, expect, it } from "vitest";
import { allowedFrom, canTransition, stagesOf } from "../../src/modules/jobs/job-state";
import { JOB_STATUSES, TOOLS, type JobStatus, type Tool } from "../../src/modules/jobs/tools";

const TERMINAL: JobStatus[] = ["completed", "partially_completed", "failed", "cancelled"];

/** The transitions ARCHITECTURE §2 allows, written out independently of the implementation. */
function expected(path: JobStatus[], from: JobStatus, to: JobStatus): boolean {
  if (from === to) return false;
  const nonTerminal = !TERMINAL.includes(from);
  if (to === "cancelled") return nonTerminal;
  if (to === "queued") return from === "uploading" || from === "failed" || from === "cancelled" || from === "partially_completed";
  if (!nonTerminal) return false;
  if (!path.includes(from)) return false;
  if (to === "failed") return from !== "created";
  if (to === "completed" || to === "partially_completed") return from === path[path.length - 1];
  if (!path.includes(to)) return false;
  if (from === "created") return to === "uploading";
  if (from === "uploading") return false; // only to queued, handled above
  return path.indexOf(to) > path.indexOf(from);
}

const shapes = [
  ...(Object.keys(TOOLS) as Tool[]).map((tool) => ({ tool, kind: "single" as const })),
  { tool: "ocr" as Tool, kind: "batch" as const },
  ...(Object.keys(TOOLS) as Tool[]).map((tool) => ({ tool, kind: "rerender" as const })),
];

describe.each(shapes)("canTransition for a $kind $tool job, over every pair of states", (shape) => {
  const path: JobStatus[] = ["created", "uploading", "queued", ...stagesOf(shape)];
  const pairs = JOB_STATUSES.flatMap((from) => JOB_STATUSES.map((to) => [from, to] as const));

  it("allows exactly the documented transitions", () => {
    const wrong = pairs
      .filter(([from, to]) => canTransition(shape, from, to) !== expected(path, from, to))
      .map(([f, t]) => `${f}→${t}: ${canTransition(shape, f, t)}`);
    expect(wrong).toEqual([]);
  });

  it("never leaves a terminal state except by retry (→ queued) of failed, cancelled or partially_completed", () => {
    for (const from of TERMINAL) {
      for (const to of JOB_STATUSES) {
        const ok = canTransition(shape, from, to);
        expect(ok, `${from}→${to}`).toBe(to === "queued" && from !== "completed");
      }
    }
  });

  it("never moves backwards along the path or into a stage of another tool", () => {
    for (const [i, from] of path.entries()) {
      for (const to of path.slice(0, i)) expect(canTransition(shape, from, to), `${from}→${to}`).toBe(false);
    }
    for (const stage of JOB_STATUSES.filter((s) => !path.includes(s) && !TERMINAL.includes(s))) {
      for (const from of path) expect(canTransition(shape, from, stage), `${from}→${stage}`).toBe(false);
    }
  });

  it("gives the guard of each transition (allowedFrom) consistently", () => {
    for (const to of JOB_STATUSES) expect(allowedFrom(shape, to)).toEqual(JOB_STATUSES.filter((s) => canTransition(shape, s, to)));
  });
});

describe("stagesOf", () => {
  it("is the tool's stages for a document job and exporting alone for a batch parent", () => {
    expect(stagesOf({ tool: "ocr", kind: "single" })).toEqual(["preprocessing", "detecting", "recognizing", "exporting"]);
    expect(stagesOf({ tool: "translate", kind: "single" })).toEqual([
      "preprocessing",
      "detecting",
      "recognizing",
      "translating",
      "inpainting",
      "rendering",
      "exporting",
    ]);
    expect(stagesOf({ tool: "translate", kind: "batch" })).toEqual(["exporting"]);
    // A re-render draws again and exports; it never recognises or translates.
    expect(stagesOf({ tool: "translate", kind: "rerender" })).toEqual(["inpainting", "rendering", "exporting"]);
    expect(stagesOf({ tool: "erase", kind: "rerender" })).toEqual(["inpainting", "rendering", "exporting"]);
    expect(stagesOf({ tool: "ocr", kind: "rerender" })).toEqual(["exporting"]);
    expect(stagesOf({ tool: "tables", kind: "rerender" })).toEqual(["exporting"]);
  });
});
