// The bound on a document's pages in flight at once (PipelineWorkflow runs each page's chain of
// stage steps through mapLimit with PAGE_CONCURRENCY).
import { describe, expect, it } from "vitest";
import { mapLimit } from "../../src/lib/concurrency";

/** Runs mapLimit over `n` calls that each wait `ms`, recording how many were in flight at most. */
async function fanOut(n: number, limit: number) {
  let inFlight = 0;
  let most = 0;
  const started: number[] = [];
  const results = await mapLimit(
    Array.from({ length: n }, (_, i) => i),
    limit,
    async (page) => {
      started.push(page);
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 5 + ((page * 7) % 11)));
      inFlight--;
      return page * 10;
    },
  );
  return { results, most, started };
}

describe("page fan-out bounded by PAGE_CONCURRENCY", () => {
  it.each([
    [10, 1, 1],
    [10, 2, 2],
    [10, 6, 6],
    [3, 6, 3],
  ])("%i pages with PAGE_CONCURRENCY %i: %i in flight at most, every page once, results in page order", async (n, limit, expected) => {
    const { results, most, started } = await fanOut(n, limit);
    expect(most).toBe(expected);
    expect([...started].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
    expect(results).toEqual(Array.from({ length: n }, (_, i) => i * 10));
  });

  it("starts no new page after one fails, and rejects with that failure", async () => {
    const started: number[] = [];
    const run = mapLimit([0, 1, 2, 3, 4, 5], 2, async (page) => {
      started.push(page);
      await new Promise((r) => setTimeout(r, 5));
      if (page === 1) throw new Error("page 1 failed");
      return page;
    });
    await expect(run).rejects.toThrow("page 1 failed");
    await new Promise((r) => setTimeout(r, 30));
    expect(started.length).toBeLessThan(6);
  });
});
