// axe-core (WCAG 2.0/2.1 A and AA, and axe's best practices) on the page as it stands, in the
// browser: its source is injected into the page, then `axe.run` reports the violations.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

/** The violations axe finds on `page` now: [{ id, impact, help, nodes: [{ target, summary }] }]. */
export async function axeViolations(page) {
  // Evaluated through the DevTools protocol, which the app's Content-Security-Policy (script-src
  // 'self') does not govern, as it would an inline <script>.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate((tags) => window.axe.run(document, { runOnly: { type: "tag", values: tags } }), TAGS);
  return violations.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(" "), summary: n.failureSummary })),
  }));
}

/**
 * Runs axe on `page` and fails on any violation, naming the page (`where`) and each offending node.
 * `seen` (optional) collects the names of the pages checked.
 */
export async function expectAccessible(page, where, seen) {
  const violations = await axeViolations(page);
  seen?.push(where);
  if (violations.length)
    throw new Error(
      `axe: ${violations.length} accessibility violation(s) on ${where} (${page.url()}):\n` +
        violations
          .map(
            (v) =>
              `- ${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target}: ${n.summary.replaceAll("\n", " ")}`).join("\n")}`,
          )
          .join("\n"),
    );
}
