// Pages of a document each run their own chain of stages (PipelineWorkflow): no page waits for
// the slowest page of a stage. The test pool runs with PAGE_CONCURRENCY 2 (vitest.config.mts), so
// a third page can start only when a page has gone through its whole chain.
import { describe, expect, it } from "vitest";
import { api, body, seedAccount, waitForJob } from "../helpers/api";
import { form, scannedPdf } from "./fixtures";

describe("a scanned document's pages through their own chains", () => {
  it(
    "starts a page when a slot is free and runs it through its whole chain; the job leaves a stage with its last page",
    { timeout: 180_000 },
    async () => {
      const { auth } = await seedAccount({ credits: 10 });
      const res = await api("/api/v1/process", {
        method: "POST",
        headers: auth,
        body: form([{ bytes: await scannedPdf(3), name: "three.pdf" }], { tool: "ocr" }),
      });
      const created = await body(res);
      expect(res.status, JSON.stringify(created)).toBe(202);
      const job = await waitForJob(created.id, auth);
      expect(job.status, JSON.stringify(job)).toBe("completed");
      expect(job.pages).toEqual({ total: 3, succeeded: 3, failed: 0 });

      const { events } = await body(await api(`/api/v1/jobs/${job.id}/timeline`, { headers: auth }));
      const progress = events.filter((e: any) => e.type === "progress");
      const seqOf = (page: number, stage: string) => progress.find((e: any) => e.page === page && e.data.stage === stage)?.seq;
      const stages = ["preprocessing", "detecting", "recognizing"];
      for (const page of [0, 1, 2]) {
        const seqs = stages.map((s) => seqOf(page, s));
        expect(seqs, `page ${page}: ${JSON.stringify(events)}`).toEqual([...seqs].sort((a, b) => a - b));
      }
      // The third page starts once a slot is free, i.e. after another page's whole chain; behind a
      // stage barrier it would have been preprocessed before any page was recognised.
      const firstRecognised = Math.min(seqOf(0, "recognizing"), seqOf(1, "recognizing"));
      expect(seqOf(2, "preprocessing"), JSON.stringify(events)).toBeGreaterThan(firstRecognised);
      // The job's stage is the earliest a page still has to pass: it enters a stage once every page left the one before.
      const entered = (status: string) => events.find((e: any) => e.type === "status" && e.status === status).seq;
      expect(events.filter((e: any) => e.type === "status").map((e: any) => e.status)).toEqual([
        "created",
        "uploading",
        "queued",
        ...stages,
        "exporting",
        "completed",
      ]);
      for (const [i, stage] of [...stages.slice(1), "exporting"].entries())
        for (const page of [0, 1, 2])
          expect(entered(stage), `${stage} after page ${page}'s ${stages[i]}`).toBeGreaterThan(seqOf(page, stages[i]!));
      const percents = progress.map((e: any) => e.data.percent);
      expect(percents).toEqual([...percents].sort((a, b) => a - b));
    },
  );
});
