import { env } from "cloudflare:workers";
import { expect, inject, it } from "vitest";
import { db as makeDb } from "../../src/db/client";
import {
  rememberMachineTranslations,
  translateSegments,
  type TranslatedSegmentOut,
} from "../../src/modules/translation/translation.service";
import { ApertiumTranslator } from "../../src/providers/translators";
import { api, body, seedAccount } from "../helpers/api";

// Throughput of translation through the service with Apertium (run: node test/bench/translate-throughput.mjs).
// Prints figures; asserts only that every segment was translated.

const SEGMENTS = 300;
const PAGE = 30;
const SUBJECTS = ["The old man", "My sister", "The teacher", "A small dog", "The company", "Our neighbour"];
const VERBS = ["buys", "paints", "sells", "finds", "cleans"];
const OBJECTS = [
  "a red house",
  "the new car",
  "two books",
  "a green table",
  "the big garden",
  "an old bicycle",
  "the kitchen",
  "a letter",
  "the window",
  "a blue door",
];

function sentences(n: number): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < n; i++) {
    const s = SUBJECTS[i % SUBJECTS.length]!;
    const v = VERBS[Math.floor(i / SUBJECTS.length) % VERBS.length]!;
    const o = OBJECTS[Math.floor(i / (SUBJECTS.length * VERBS.length)) % OBJECTS.length]!;
    out.push(`${s} ${v} ${o} on day ${i + 1}.`);
  }
  return out;
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await fn();
  // workerd advances its clock on I/O only; every run here does I/O, so the figure is real.
  return { ms: performance.now() - started, value };
}

it("measures Apertium segments/s through the translation service", async () => {
  const db = makeDb(env.DB);
  const user = await seedAccount();
  const texts = sentences(SEGMENTS);
  const pages = Array.from({ length: SEGMENTS / PAGE }, (_, p) =>
    texts.slice(p * PAGE, (p + 1) * PAGE).map((text, i) => ({ id: `p${p}s${i}`, text })),
  );
  const apertium = new ApertiumTranslator(inject("apertiumUrl"));
  await apertium.translate({ source: "en", target: "es", segments: [{ id: "warm", text: "Hello" }] });

  const runPages = (glossaryIds?: string[]) =>
    timed(async () => {
      const all: TranslatedSegmentOut[] = [];
      for (const segments of pages)
        all.push(
          ...(await translateSegments(env, db, { userId: user.userId, source: "en", target: "es", segments, glossaryIds })).segments,
        );
      return all;
    });

  const raw = await timed(() => apertium.translate({ source: "en", target: "es", segments: pages.flat() }));
  const plain = await runPages();
  const res = await api("/api/v1/account/glossaries", {
    method: "POST",
    headers: { ...user.auth, "Content-Type": "application/json" },
    body: JSON.stringify({
      name: "bench",
      source_language: "en",
      target_language: "es",
      terms: [
        { source: "house", target: "mansión" },
        { source: "car", target: "auto" },
        { source: "garden", target: "vergel" },
      ],
    }),
  });
  const glossary = await body(res);
  expect(res.status, JSON.stringify(glossary)).toBe(201);
  const withGlossary = await runPages([glossary.id]);
  await rememberMachineTranslations(db, user.userId, "es", plain.value);
  const fromMemory = await runPages();

  expect(raw.value).toHaveLength(SEGMENTS);
  expect(plain.value.every((s) => s.origin === "provider" && s.text !== s.source_text)).toBe(true);
  expect(
    withGlossary.value.filter((s) => /house|car\b|garden/.test(s.source_text)).every((s) => s.term_hits.every((h) => h.enforced)),
  ).toBe(true);
  expect(fromMemory.value.every((s) => s.origin === "tm_exact")).toBe(true);

  const rate = (ms: number) => ((SEGMENTS / ms) * 1000).toFixed(0);
  const rows = [
    ["Apertium provider alone (one call)", raw.ms],
    [`translateSegments, pages of ${PAGE}`, plain.ms],
    [`  + glossary (3 terms)`, withGlossary.ms],
    [`  all exact translation-memory hits`, fromMemory.ms],
  ] as const;
  console.log(
    [
      `\nTranslation throughput, en→es, ${SEGMENTS} distinct sentences (~${Math.round(texts.join(" ").length / SEGMENTS)} chars each):`,
      ...rows.map(([label, ms]) => `  ${label.padEnd(40)} ${String(Math.round(ms)).padStart(6)} ms  ${rate(ms).padStart(6)} segments/s`),
    ].join("\n"),
  );
  // The line test/bench/translate-throughput.mjs reads and reports (results file, suite).
  const perSecond = (ms: number) => (SEGMENTS / ms) * 1000;
  console.log(
    `BENCH_RESULT ${JSON.stringify({ bench: "translate", segments: SEGMENTS, provider: perSecond(raw.ms), service: perSecond(plain.ms), glossary: perSecond(withGlossary.ms), memory: perSecond(fromMemory.ms) })}`,
  );
});
