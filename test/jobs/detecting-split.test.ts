// The detecting stage with PAGE_SPLIT > 1: a page with enough lines is read in bands, one engine
// call each, all at once, and joined; recognizing then finds the same reading as a whole page's.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { PageText } from "../../workers/shared/engine-contract";
import { keys } from "../../src/lib/storage";
import { detecting, pageSplit } from "../../src/pipeline/stages/detecting";
import { recognizing } from "../../src/pipeline/stages/recognizing";
import type { JobPlan, StageContext } from "../../src/pipeline/stages/types";
import { renderTextPng } from "../helpers/text-image";

const WORDS = "a second paragraph holds more words than the first one ever did before".split(" ");
const LINES = Array.from(
  { length: 30 },
  (_, i) => `${Array.from({ length: 7 }, (_, j) => WORDS[(i * 3 + j * 5) % WORDS.length]).join(" ")} ${i + 1}`,
);

function planFor(jobId: string): JobPlan {
  return {
    jobId,
    attempt: 1,
    kind: "single",
    userId: "usr_split",
    projectId: null,
    tool: "ocr",
    pages: 1,
    pagesToRun: [0],
    exportPages: [0],
    sourceKey: `uploads/usr_split/${jobId}/source`,
    languages: ["eng"],
    targetLanguage: null,
    formats: ["txt"],
    baseName: "page",
    concurrency: 1,
  } as JobPlan;
}

async function readPage(jobId: string, split: string, inFlight?: { slots: string; pages: number }): Promise<PageText> {
  const plan = planFor(jobId);
  await env.FILES.put(plan.sourceKey!, await renderTextPng(LINES, { fontSize: 28 }));
  await env.ENGINE.preprocess({ sourceKey: plan.sourceKey!, page: 0, outKey: keys.pageImage(plan.userId, jobId, 0) });
  const vars = { ...env, PAGE_SPLIT: split, ENGINE_SLOTS: inFlight?.slots ?? "0" };
  const ctx = { env: vars, db: null, plan, page: 0, pagesInFlight: inFlight?.pages } as unknown as StageContext;
  await detecting(ctx);
  await recognizing(ctx);
  return (await (await env.FILES.get(keys.pageText(plan.userId, jobId, 0)))!.json()) as PageText;
}

describe("detecting with PAGE_SPLIT", () => {
  it("reads a page of 30 lines in two bands and gives the text of the page read whole", { timeout: 180_000 }, async () => {
    const whole = await readPage("job_whole", "1");
    expect(await env.FILES.head(keys.pageBandText("usr_split", "job_whole", 0, 0))).toBeNull();
    const split = await readPage("job_split", "2");
    for (const band of [0, 1]) expect(await env.FILES.head(keys.pageBandText("usr_split", "job_split", 0, band))).not.toBeNull();
    expect(await env.FILES.head(keys.pageBandText("usr_split", "job_split", 0, 2))).toBeNull();
    expect(split.regions.flatMap((r) => r.lines)).toHaveLength(30);
    expect(split.text).toBe(whole.text);
    expect(split.regions.map((r) => r.lines.length)).toEqual(whole.regions.map((r) => r.lines.length));
  });

  it("reads a page whole while the document's other pages in flight fill the engine's slots", { timeout: 180_000 }, async () => {
    const page = await readPage("job_busy", "2", { slots: "2", pages: 2 });
    expect(await env.FILES.head(keys.pageBandText("usr_split", "job_busy", 0, 0))).toBeNull();
    expect(page.regions.flatMap((r) => r.lines)).toHaveLength(30);
  });
});

describe("pageSplit", () => {
  const vars = (PAGE_SPLIT: string, ENGINE_SLOTS: string) => ({ PAGE_SPLIT, ENGINE_SLOTS }) as unknown as Env;

  it("divides a page into the slots the document's pages in flight leave free, at most PAGE_SPLIT", () => {
    expect(pageSplit(vars("2", "2"), 1)).toBe(2);
    expect(pageSplit(vars("2", "2"), 2)).toBe(1);
    expect(pageSplit(vars("4", "4"), 2)).toBe(2);
    expect(pageSplit(vars("4", "4"), 3)).toBe(1);
    expect(pageSplit(vars("2", "8"), 1)).toBe(2);
  });

  it("takes PAGE_SPLIT as it is where engine calls are not counted in slots (Workers)", () => {
    expect(pageSplit(vars("4", "0"), 6)).toBe(4);
    expect(pageSplit(vars("4", ""), 6)).toBe(4);
    expect(pageSplit(vars("", "2"), 1)).toBe(1);
  });
});
