// Renders the benchmark suite's figures (scripts/bench.mjs) as one Markdown table: benchmark,
// figure, value, and a ratio against the reference each figure is read against.

const pct = (x) => `${(x * 100).toFixed(2)} %`;
const num = (x, digits = 0) => (x === undefined || x === null || Number.isNaN(x) ? "n/a" : x.toFixed(digits));
const ratio = (a, b, digits = 2) => (b ? `${(a / b).toFixed(digits)}×` : "n/a");
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

/** Rows `[figure, value, ratio]` for one benchmark's figures, by the name it reports them under. */
export const ROWS = {
  ocr(r) {
    const rows = [];
    for (const s of r.subsets) {
      rows.push([
        `CER, ${s.label} (${s.pages} pages): engine vs native tesseract`,
        `${pct(s.engineCer)} vs ${pct(s.nativeCer)}`,
        s.nativeCer > 0 ? `${ratio(s.engineCer, s.nativeCer)} native's errors` : "both 0",
      ]);
    }
    const all = r.subsets.find((s) => s.label === "all pages");
    if (all)
      rows.push([
        `WER, all pages: engine vs native`,
        `${pct(all.engineWer)} vs ${pct(all.nativeWer)}`,
        `${ratio(all.engineWer, all.nativeWer)} native's errors`,
      ]);
    const cells = r.tables.reduce((n, t) => n + t.cells, 0);
    const exact = r.tables.reduce((n, t) => n + t.exact, 0);
    rows.push([`tables (${r.tables.map((t) => t.name).join(", ")}): exact cells`, `${exact}/${cells}`, ratio(exact, cells)]);
    rows.push([
      "speed, A4 300 dpi English pages/s: engine (preprocess + recognize) vs native (one thread)",
      `${num(r.enginePagesPerSecond, 3)} vs ${num(r.nativePagesPerSecond, 3)}`,
      `${ratio(r.enginePagesPerSecond, r.nativePagesPerSecond)} native (target 0.9×)`,
    ]);
    rows.push(["peak tesseract wasm heap, A4 300 dpi page", `${num(r.heapMB, 1)} MB`, `${ratio(r.heapMB, 100)} the 100 MB budget`]);
    return rows;
  },
  "page-speed"(r) {
    const rows = [];
    for (const [label, sel, key] of [
      ["A4 300 dpi English", (x) => x.a4, "a4Ratio"],
      ["real scans (tesseract / OCRmyPDF test pages)", (x) => !x.a4, "realRatio"],
    ]) {
      const rs = r.rows.filter(sel);
      if (!rs.length) continue;
      const mean = (k) => rs.reduce((n, x) => n + x[k], 0) / rs.length;
      rows.push([
        `${label}: seconds a page, engine (preprocess + detect + recognize) vs native (one thread)`,
        `${seconds(mean("total"))} vs ${seconds(mean("native"))}`,
        `${num(r[key], 2)}× native pages/s (target 1.0× on A4)`,
      ]);
      rows.push([
        `${label}: CPU seconds a page, engine reading it whole (preprocess + detect + recognize) vs native`,
        `${seconds(mean("wholeCpu"))} vs ${seconds(mean("nativeCpu"))}`,
        `${ratio(mean("wholeCpu"), mean("nativeCpu"))} native's CPU (target ≤ 1.2×)`,
      ]);
      rows.push([
        `${label}: CER engine vs native`,
        `${pct(mean("engineCer"))} vs ${pct(mean("nativeCer"))}`,
        mean("nativeCer") > 0 ? `${ratio(mean("engineCer"), mean("nativeCer"))} native's errors` : "both 0",
      ]);
    }
    rows.push(["A4 300 dpi: preprocessing time ÷ OCR time (detect + recognize)", pct(r.preprocessShare), `target ≤ 15 %`]);
    return rows;
  },
  "arabic-script"(r) {
    return Object.entries(r).flatMap(([doc, x]) => [
      [
        `${doc} (${x.language}), ${x.pages} pages, the PNG's resolution given to both: the wasm build's character errors ÷ native tesseract's`,
        ratio(x.wasmOverNativeErrors, 1, 3),
        "target ≤ 1.00×",
      ],
      ...(x.resolutionEstimatedOverNativeErrors === undefined
        ? []
        : [[`${doc}: the same, the wasm build left to estimate the resolution`, ratio(x.resolutionEstimatedOverNativeErrors, 1, 3), ""]]),
      ...(x.serviceOverNativeErrors === undefined
        ? []
        : [
            [
              `${doc}: each PNG uploaded to the service (preprocess → recognize), errors ÷ native's`,
              ratio(x.serviceOverNativeErrors, 1, 3),
              "",
            ],
          ]),
    ]);
  },
  "tesseract-cpu"(r) {
    const rows = [["build read with", r.build, `median of ${r.repeat} readings each way`]];
    for (const x of r.rows) {
      const wasm = x.wasmLayoutSeconds + x.wasmRecognitionSeconds;
      rows.push([
        `${x.page} (${x.size}): CPU seconds, wasm (layout + recognition) vs native; CER wasm vs native`,
        `${num(wasm, 2)} s vs ${num(x.nativeSeconds, 2)} s; ${pct(x.wasmCer)} vs ${pct(x.nativeCer)}`,
        `${ratio(wasm, x.nativeSeconds)} native's CPU`,
      ]);
    }
    rows.push(["all pages: CPU time, wasm ÷ native", ratio(r.wasmCpuOverNative, 1), "target ≤ 1.2×"]);
    return rows;
  },
  translate(r) {
    return [
      [`segments/s, Apertium provider alone (${r.segments} sentences en→es)`, num(r.provider), "1.00×"],
      ["segments/s, translation service (memory lookup + provider)", num(r.service), `${ratio(r.service, r.provider)} provider`],
      ["segments/s, … with a 3-term glossary", num(r.glossary), `${ratio(r.glossary, r.provider)} provider`],
      ["segments/s, … all exact translation-memory hits", num(r.memory), `${ratio(r.memory, r.provider)} provider`],
    ];
  },
  camera(r) {
    const line = (label, s) => [
      `${label}: word recall on the capture ÷ on the flat page, worst (${s.minRatioAt}) and mean; captures read worse than native`,
      `${ratio(s.minRatio, 1)}, ${ratio(s.meanRatio, 1)}; ${s.belowNative} of ${s.captures}`,
      `service ${pct(s.serviceRecall)} vs native ${pct(s.nativeRecall)} on the captures`,
    ];
    const rows = [line("all captures", r.summary.overall)];
    for (const [half, s] of Object.entries(r.summary.halves)) rows.push(line(half, s));
    for (const [capture, s] of Object.entries(r.summary.captures)) rows.push(line(capture, s));
    rows.push([
      "photo steps (outline and perspective, light, lines) a page, mean and most",
      `${Math.round(r.summary.overall.meanStepsMs)} ms, ${Math.round(r.summary.overall.maxStepsMs)} ms`,
      "target ≤ 1 000 ms",
    ]);
    return rows;
  },
  comics(r) {
    const o = r.overall;
    const rows = [
      [
        `recall, ${o.pages} pages (${o.units} words and characters pooled): service ocr vs native tesseract`,
        `${pct(o.oursRecall)} vs ${pct(o.nativeRecall)}`,
        `${ratio(o.oursRecall, o.nativeRecall)} native`,
      ],
      [
        "precision, mean of the pages: service vs native",
        `${pct(o.oursPrecision)} vs ${pct(o.nativePrecision)}`,
        ratio(o.oursPrecision, o.nativePrecision),
      ],
    ];
    // Runs recorded before the pairs were counted have none.
    if (o.pairs)
      rows.push([
        `in order: neighbouring words/characters of a balloon read next to each other (${o.pairs} pairs pooled): service vs native`,
        `${pct(o.oursPairRecall)} vs ${pct(o.nativePairRecall)}`,
        `${ratio(o.oursPairRecall, o.nativePairRecall)} native`,
      ]);
    for (const [what, short, one, g] of [
      ["single panels cut out of those pages", "panels", "panel", r.panels],
      ["phone photos of those pages", "photos", "photo", r.photos],
      ["copies of English pages saved small", "small copies", "copy", r.small],
      ["pages scanned askew", "pages askew", "page", r.askew],
    ])
      if (g)
        rows.push(
          [
            `recall, ${g.pages} ${what} (${g.units} pooled): service ocr vs native tesseract`,
            `${pct(g.oursRecall)} vs ${pct(g.nativeRecall)}`,
            `${ratio(g.oursRecall, g.nativeRecall)} native`,
          ],
          [
            `${short}: source words/characters native reads on the ${one} still read after translate / erase`,
            [g.translate.left, g.erase.left].map((x) => (x === null ? "none read on the input" : pct(x))).join(" / "),
            "target 0",
          ],
        );
    for (const p of r.pages)
      rows.push([
        `${p.name}${p.scaledTo ? ` (refused as too large; sent scaled to ${p.scaledTo})` : ""} (${p.language}, ${p.units} ${p.language === "ja" ? "characters" : "words"}): recall service vs native (${p.native.lang})`,
        `${pct(p.ocr.recall ?? 0)} vs ${pct(p.native.recall ?? 0)}`,
        `${ratio(p.ocr.recall ?? 0, p.native.recall)} native`,
      ]);
    for (const tool of ["translate", "erase"]) {
      const t = o[tool];
      if (!t?.pages) continue;
      rows.push([
        `${tool}: source words/characters native reads on the page still read on the result (${t.completed}/${t.pages} completed)`,
        pct(t.left ?? 0),
        tool === "translate" ? `${pct(t.leftNotInTranslation ?? 0)} of those not in the translation itself` : "target 0",
      ]);
      if (t.placement)
        rows.push([
          `${tool}: lettering set outside the balloons (${t.placement.pages} pages with a detector's text mask, ${t.placement.drawn} pixels drawn)`,
          pct(t.placement.outside),
          "target 0",
        ]);
      rows.push([`${tool}: mean chroma, result ÷ page`, ratio(t.chromaRatio ?? 0, 1), "1.00× keeps the colour"]);
      rows.push([`${tool}: pages with width and height kept`, `${t.sizeKept}/${t.pages}`, ratio(t.sizeKept, t.pages)]);
      rows.push([
        `${tool}: seconds a job, submission → end (mean)`,
        num(t.meanSeconds, 1),
        `${ratio(t.meanSeconds, o.ocr.meanSeconds)} ocr`,
      ]);
    }
    rows.push([
      "ocr: seconds a job (mean) vs native tesseract a page",
      `${num(o.ocr.meanSeconds, 1)} vs ${num(o.ocr.nativeMeanSeconds, 1)}`,
      ratio(o.ocr.meanSeconds, o.ocr.nativeMeanSeconds),
    ]);
    return rows;
  },
  render(r) {
    const o = r.overflow;
    const n = o.fitted + o.shrunk + o.overflowing;
    return [
      [`inpaint ms/page (${r.pages} pages of 1400×760, ${r.regions} regions)`, num(r.inpaintMs), "—"],
      ["inpaint of the report page (flat over gradient) ms", num(r.splitPageMs), `${ratio(r.splitPageMs, r.inpaintMs)} mean`],
      ["leftover check (re-OCR of each region) ms/page", num(r.checkMs), `${ratio(r.checkMs, r.inpaintMs)} inpaint`],
      ["typeset ms/page", num(r.typesetMs), `${ratio(r.typesetMs, r.inpaintMs)} inpaint`],
      ["regions flagged leftover_text", `${r.leftoverFlagged}/${r.regions}`, pct(r.leftoverFlagged / Math.max(1, r.regions))],
      ["regions flagged smear", `${r.smearFlagged}/${r.regions}`, pct(r.smearFlagged / Math.max(1, r.regions))],
      [
        "clean plates with text read back by a whole-page OCR",
        `${r.readablePlates}/${r.pages}`,
        pct(r.readablePlates / Math.max(1, r.pages)),
      ],
      [
        "overflow: fitted / shrunk / overflowing",
        `${o.fitted} / ${o.shrunk} / ${o.overflowing}`,
        `${pct(o.fitted / n)} / ${pct(o.shrunk / n)} / ${pct(o.overflowing / n)}`,
      ],
      ...Object.entries(r.plates).map(([kind, k]) => [
        `${kind}: MAD to the true background in the text lines, clean plate (input); leftover regions`,
        `${k.clean.toFixed(2)} (${k.input.toFixed(2)}); ${k.leftover}/${k.regions}`,
        `${ratio(k.clean, k.input, 3)} input`,
      ]),
    ];
  },
  jobs(r) {
    const rows = [];
    const ocr = r.singles.ocr;
    for (const [name, s] of Object.entries(r.singles)) {
      rows.push([
        `1-page ${name} job, upload → ${s.statuses} (median of ${s.runs})`,
        `${seconds(s.medianMs)} (${seconds(s.minMs)}–${seconds(s.maxMs)})`,
        name === "ocr" ? "1.00×" : `${ratio(s.medianMs, ocr.medianMs)} ocr`,
      ]);
    }
    rows.push([`batch of 1 file, upload → ${r.batch1Status}`, seconds(r.batch1Ms), "1.00×"]);
    rows.push([
      `batch of 20 files, upload → ${r.batch20Status}`,
      `${seconds(r.batch20Ms)} (${seconds(r.batch20Ms / 20)} a file)`,
      `${ratio(r.batch20Ms, r.batch1Ms, 1)} the 1-file batch`,
    ]);
    return rows;
  },
  tables(r) {
    const rows = [];
    for (const run of ["born-digital", "scanned 200 dpi", "tabula-java (born-digital)"]) {
      for (const [split, x] of Object.entries(r[run] ?? {})) {
        if (x.falseOn) {
          const on = x.falseOn.length ? ` (${x.falseOn.join(", ")})` : "";
          rows.push([
            `${run}, ${split} (${x.documents} documents, ${x.pages} pages), detection alone: tables found / expected; false; s a page`,
            `${x.tablesFound} / ${x.tablesExpected}; ${x.falseTables}${on}; ${num(x.secondsPerPage, 2)}`,
          ]);
          continue;
        }
        const poor = x.poorDocuments.length ? ` (${x.poorDocuments.join(", ")})` : "";
        const against =
          run === "born-digital" && r.againstTabula?.[split] ? `${r.againstTabula[split].f1.toFixed(2)}× tabula-java's F1` : "";
        rows.push([
          `${run}, ${split} (${x.documents} documents): relations F1 (P, R); tables found / expected, predicted, extra; documents under F1 0.6; s a document`,
          `${x.f1} (${x.precision}, ${x.recall}); ${x.tablesFound} / ${x.tablesExpected}, ${x.tablesPredicted}, ${pct(x.extraTables)}; ${x.poorDocuments.length}${poor}; ${num(x.secondsPerDocument, 2)}`,
          against,
        ]);
      }
    }
    return rows;
  },
  load(r) {
    const bare = r.routes[0];
    const rows = r.routes.map((x) => [
      `${x.name}: req/s, p50 / p99 ms (${x.requests} requests, ${r.concurrency} clients)`,
      `${num(x.rps)}, ${num(x.p50, 1)} / ${num(x.p99, 1)}`,
      `${ratio(x.rps, bare.rps)} bare route`,
    ]);
    const s = r.stream;
    const retried = Object.entries(s.retried ?? {})
      .map(([code, n]) => `${n}× ${code}`)
      .join(", ");
    const outcomes = Object.entries(s.statuses)
      .map(([status, n]) => `${n} ${status}`)
      .join(", ");
    rows.push([
      `job stream, ${s.jobs} jobs (${s.mix}) from ${s.clients} clients: ${outcomes}${retried ? `; submissions retried ${retried}` : ""}`,
      `${num((s.finished / s.wall) * 60, 1)} jobs/min, ${num((s.pages / s.wall) * 60, 1)} pages/min`,
      `${num(s.wall, 1)} s wall`,
    ]);
    if (r.memory) {
      const m = r.memory;
      const mb = (b) => (b / 2 ** 20).toFixed(0);
      rows.push([
        `workerd RSS while the stream ran (${m.processes} processes: api + engine Workers, wrangler's proxy)`,
        `idle ${mb(m.idle)} MB, peak ${mb(m.peak)} MB${m.hwm === undefined ? "" : `, kernel peak ${mb(m.hwm)} MB`}`,
        `${ratio(m.peak, m.idle)} idle`,
      ]);
      rows.push([
        `memory per page in flight (peak − idle) ÷ ${s.maxInFlight} pages at once${s.pageSize ? ` (${s.pageSize} px pages)` : ""}`,
        `${num(m.perPageMB)} MB`,
        `${ratio(m.perPageMB, 128)} a Worker's 128 MB`,
      ]);
    }
    return rows;
  },
};

/**
 * Rows `[figure, value, ""]` for figures no renderer above knows: every number, string and flag by
 * its path (`stream.p99`), arrays of up to MAX_GENERIC items by index.
 */
export function genericRows(figures, prefix = "", out = []) {
  for (const [k, v] of Object.entries(figures)) {
    if (k === "bench" && !prefix) continue;
    const key = prefix ? `${prefix}.${k}` : k;
    if (v === null || v === undefined) continue;
    if (typeof v === "object") {
      if (Array.isArray(v) && v.length > MAX_GENERIC) out.push([key, `${v.length} items`, ""]);
      else genericRows(v, key, out);
    } else out.push([key, typeof v === "number" && !Number.isInteger(v) ? String(Math.round(v * 1000) / 1000) : String(v), ""]);
  }
  return out;
}
const MAX_GENERIC = 40;

/** The rows of one benchmark's figures: its renderer's, or every figure by its path. */
export function figureRows(name, figures) {
  const render = ROWS[name];
  if (!render) return genericRows(figures);
  try {
    return render(figures);
  } catch {
    // Figures of an older shape than the renderer expects: shown as they are.
    return genericRows(figures);
  }
}

/** The suite's Markdown: when and where it ran, one table of every figure, and any benchmark that did not finish. */
export function renderResults(runs, { started, machine }) {
  const lines = [
    `Benchmarks (\`npm run bench\`), ${started.toISOString().slice(0, 16).replace("T", " ")} UTC, ${machine}.`,
    "",
    "| benchmark | figure | value | ratio |",
    "|---|---|---|---|",
  ];
  for (const run of runs) {
    if (!run.result) continue;
    for (const [figure, value, r] of figureRows(run.result.bench, run.result)) lines.push(`| ${run.title} | ${figure} | ${value} | ${r} |`);
  }
  lines.push("");
  lines.push(
    `Run times: ${runs.map((r) => `${r.title} ${r.outcome === "ok" ? `${r.seconds.toFixed(0)} s` : `${r.outcome}${r.log ? ` (${r.log})` : ""}`}`).join(", ")}.`,
  );
  return `${lines.join("\n")}\n`;
}
