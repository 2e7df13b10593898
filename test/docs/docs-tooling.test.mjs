// The tools that keep the documentation true, in Node (`node --test`, run by the test command):
// the link check over README.md and docs/, and the benchmarks' results files and page.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { renderHeadline, renderPage, withHeadline, HEADLINE_END, HEADLINE_START } from "../../scripts/bench-report.mjs";
import { anchors, brokenLinks, slug } from "../../scripts/check-links.mjs";
import { command, readResult, writeResult } from "../bench/bench-result.mjs";
import { BENCHES } from "../bench/catalogue.mjs";

const root = path.resolve(import.meta.dirname, "../..");

describe("link check", () => {
  it("slugs headings as GitHub does", () => {
    assert.equal(slug("Sign-in and API keys"), "sign-in-and-api-keys");
    assert.equal(slug("The pipeline's stages"), "the-pipelines-stages");
    assert.equal(slug("Tables: ICDAR 2013 (EU half)"), "tables-icdar-2013-eu-half");
    assert.deepEqual([...anchors("# A\n\n## A\n\n```\n## not a heading\n```\n\n## The `ocr` tool\n")], ["a", "a-1", "the-ocr-tool"]);
  });

  it("finds missing files and anchors, and ignores code and other sites", () => {
    // Inside the repository, so relative links are checked against it.
    const dir = mkdtempSync(path.join(root, "docs", ".links-"));
    try {
      writeFileSync(path.join(dir, "other.md"), "# Other\n\n## Known heading\n");
      const page = path.join(dir, "page.md");
      writeFileSync(
        page,
        [
          "# Page",
          "[ok](other.md#known-heading) [self](#page) [site](https://example.com/x#y) ![img](other.md)",
          "[gone](missing.md) [bad anchor](other.md#unknown) [bad self](#nowhere)",
          "`[code span](missing-too.md)`",
          "```",
          "[code block](missing-three.md)",
          "```",
        ].join("\n"),
      );
      const broken = brokenLinks(page).map((b) => `${b.link}: ${b.why}`);
      assert.deepEqual(broken, ["missing.md: no such file", "other.md#unknown: no heading #unknown", "#nowhere: no heading #nowhere"]);
    } finally {
      // The scratch folder lives under docs/ only for the test's length.
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("benchmark results", () => {
  const figures = (cer) => ({
    subsets: [{ label: "all pages", pages: 3, engineCer: cer, nativeCer: 0.02, engineWer: 0.05, nativeWer: 0.05 }],
    tables: [],
    enginePagesPerSecond: 0.2,
    nativePagesPerSecond: 0.25,
    heapMB: 60,
  });

  it("a run's figures become latest, the run before moves to the history", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "lingoscan-results-"));
    const env = { OCR_BENCH: "scripts", UNRELATED: "x" };
    const argv = [process.execPath, path.join(root, "test/bench/ocr-bench.mjs")];
    writeResult("ocr", figures(0.03), { dir, now: new Date("2026-01-01T00:00:00Z"), argv, env });
    writeResult("ocr", figures(0.01), { dir, now: new Date("2026-02-01T00:00:00Z"), argv, env });
    const r = readResult("ocr", dir);
    assert.equal(r.latest.date, "2026-02-01T00:00:00.000Z");
    assert.equal(r.latest.figures.subsets[0].engineCer, 0.01);
    assert.deepEqual(
      r.history.map((h) => h.date),
      ["2026-01-01T00:00:00.000Z"],
    );
    // The command names the variables the script reads (OCR_BENCH), not others.
    assert.match(r.latest.command, /^OCR_BENCH=scripts node .*ocr-bench\.mjs$/);
    assert.equal(typeof r.latest.machine.cores, "number");
  });

  it("names the command as it was given: by the suite, by npm, or by node", () => {
    const argv = [process.execPath, path.join(root, "test/bench/ocr-bench.mjs"), "x"];
    assert.equal(command(argv, { BENCH_COMMAND: "npm run bench -- ocr", OCR_BENCH: "scripts" }), "OCR_BENCH=scripts npm run bench -- ocr");
    assert.equal(command(argv, { npm_lifecycle_event: "bench:ocr" }), "npm run bench:ocr x");
    assert.match(command(argv, {}), /^node \S*test\/bench\/ocr-bench\.mjs x$/);
  });

  it("the page shows each benchmark's latest figures, or that it has not run", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "lingoscan-results-"));
    writeResult("ocr", figures(0.01), { dir, now: new Date("2026-02-01T00:00:00Z") });
    writeResult("ocr", figures(0.04), { dir, now: new Date("2026-03-01T00:00:00Z") });
    const page = renderPage(dir);
    for (const b of BENCHES) assert.ok(page.includes(`### ${b.title}`), b.title);
    const ocr = page.slice(page.indexOf("### Recognition accuracy and speed"), page.indexOf("### Page speed"));
    assert.match(ocr, /Latest run: 2026-03-01 00:00 UTC/);
    assert.match(ocr, /4\.00 % vs 2\.00 %/);
    assert.doesNotMatch(ocr, /Not run yet/);
    const speed = page.slice(page.indexOf("### Page speed"), page.indexOf("### Seconds per PDF page"));
    assert.match(speed, /Not run yet\./);
    // The run before is in the history, by its headline figure.
    const history = page.slice(page.indexOf("## History"));
    assert.match(history, /2026-02-01 00:00 UTC .*1\.0 % vs 2\.0 %/);
  });

  it("the README's headline block is replaced, the rest of the README kept", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "lingoscan-results-"));
    mkdirSync(dir, { recursive: true });
    writeResult("ocr", figures(0.01), { dir, now: new Date("2026-02-01T00:00:00Z") });
    const readme = `# X\n\nbefore\n\n${HEADLINE_START}\nold\n${HEADLINE_END}\n\nafter\n`;
    const out = withHeadline(readme, renderHeadline(dir));
    assert.match(out, /^# X\n\nbefore\n\n<!-- bench:headline/);
    assert.match(
      out,
      /\| Recognition CER, engine vs native tesseract \| 1\.0 % vs 2\.0 % \| 2026-02-01, \d+ cores at load average [\d.]+ \|/,
    );
    assert.doesNotMatch(out, /\nold\n/);
    assert.match(out, /after\n$/);
    assert.equal(withHeadline(out, renderHeadline(dir)), out);
  });

  it("the committed page and README figures are what the results files give", () => {
    assert.equal(readFileSync(path.join(root, "docs/benchmarks.md"), "utf8"), renderPage());
    const readme = readFileSync(path.join(root, "README.md"), "utf8");
    assert.equal(withHeadline(readme, renderHeadline()), readme);
  });
});
