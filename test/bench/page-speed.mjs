// Page speed: every engine call an `ocr` page goes through (preprocess → detect → recognize), per
// call, against native tesseract (one thread, same best_int model) on the same files in the same
// run; CER of both against the reference text. The engine runs as under `npm run dev`, in
// PROCESSES (default 2) processes behind the local engine pool, and each page is read twice: in
// bands (detect's `split` = PROCESSES, the bands read at once, as the job does) and whole (split 1).
// Synthetic A4 pages at 300 dpi and real scans from other projects' test suites (../shared/corpus/real-scans).
// Then the CER/time curve of recognition against the working resolution: each normalised page
// image is scaled to several longest sides and read as it is (recognize on the scaled image, so the
// engine's own cap does not apply), beside native tesseract on the same scaled file.
//   node test/bench/page-speed.mjs [runs=1]       (CURVE=0 skips the curve; ONLY=a,b keeps the pages
//   whose names hold one of them; DUMP=dir writes each page's texts: bands, whole, native)
import { PhotonImage, resize, SamplingFilter } from "@cf-wasm/photon/node";
import { writeFileSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { reportResult } from "./bench-result.mjs";
import { cpuMs, nativeTessdata, runNative } from "./native-ocr.mjs";
import { startEngine } from "./ocr-harness.mjs";
import { pages } from "./speed-pages.mjs";
import { errorRates } from "./text-metrics.mjs";

const RUNS = Number(process.argv[2] ?? 1);
const work = path.join(os.tmpdir(), "lingoscan-page-speed");
const tessdata = path.join(work, "tessdata");
mkdirSync(tessdata, { recursive: true });

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const s = (ms) => (ms / 1000).toFixed(2);
const pct = (x) => `${(x * 100).toFixed(2)} %`;

const PROCESSES = Number(process.env.PROCESSES ?? 2);

/**
 * CPU time of the engine processes, phase by phase (`mark` ends one): the sum over processes, and
 * the critical path (each phase's busiest process), i.e. the page's time with a core per process.
 */
function cpuMeter(pids) {
  const read = () => pids.map((ps) => ps.reduce((n, p) => n + cpuMs(p), 0));
  let last = read();
  const phases = [];
  return {
    mark() {
      const now = read();
      phases.push(now.map((v, i) => v - last[i]));
      last = now;
    },
    total: () => phases.reduce((n, ph) => n + ph.reduce((a, b) => a + b, 0), 0),
    /** CPU time of the first phase (preprocessing), all processes. */
    first: () => (phases[0] ?? []).reduce((a, b) => a + b, 0),
    /** Each phase's CPU time per process. */
    phases: () => phases,
    critical: () => phases.reduce((n, ph) => n + Math.max(...ph), 0),
  };
}

/** The detecting stage's engine calls (src/pipeline/stages/detecting.ts): the bands, if any, read at once, then joined. */
async function detect(engine, pageKey, outKey, split, meter) {
  const languages = ["eng"];
  const d = await engine.call("detect", { pageKey, outKey, languages, ...(split > 1 ? { split } : {}) });
  if (!d.bands) return 1;
  meter.mark();
  const bandTexts = d.bands.map((_, i) => `${outKey}.band-${i}.json`);
  await Promise.all(d.bands.map((band, i) => engine.call("recognize", { pageKey, languages: d.languages, outKey: bandTexts[i], band })));
  meter.mark();
  await engine.call("detect", { pageKey, outKey, languages, bandTexts });
  return d.bands.length;
}

async function enginePage(engine, id, bytes, split = PROCESSES) {
  await engine.files.put(`speed/${id}`, bytes);
  const t = {};
  const meter = cpuMeter(engine.pids);
  let t0 = performance.now();
  const pre = await engine.call("preprocess", { sourceKey: `speed/${id}`, page: 0, outKey: `speed/${id}.page.png`, languages: ["eng"] });
  t.preprocess = performance.now() - t0;
  meter.mark();
  t0 = performance.now();
  t.bands = await detect(engine, pre.key, `speed/${id}.layout.json`, split, meter);
  t.detect = performance.now() - t0;
  t0 = performance.now();
  const rec = await engine.call("recognize", { pageKey: pre.key, languages: ["eng"], outKey: `speed/${id}.json` });
  t.recognize = performance.now() - t0;
  t.total = t.preprocess + t.detect + t.recognize;
  meter.mark();
  t.cpu = meter.total();
  t.preCpu = meter.first();
  t.phases = meter.phases();
  t.critical = meter.critical();
  const page = await (await engine.files.get(rec.key)).json();
  return { t, text: page.regions.map((r) => r.text).join("\n") };
}

/** Longest sides the curve reads pages at (an A4 page at 300 dpi is 3508 px long). */
const CURVE_SIDES = [3508, 2500, 2100, 1800, 1500, 1250];

/** The PNG scaled so that its longest side is at most `side` (Lanczos), or null when already smaller. */
function scaledPng(png, side) {
  const img = PhotonImage.new_from_byteslice(png);
  try {
    const s = side / Math.max(img.get_width(), img.get_height());
    if (s >= 1) return s === 1 ? png : null;
    const out = resize(img, Math.round(img.get_width() * s), Math.round(img.get_height() * s), SamplingFilter.Lanczos3);
    try {
      return out.get_bytes();
    } finally {
      out.free();
    }
  } finally {
    img.free();
  }
}

async function curve(engine, list) {
  console.log("\n## Recognition time and CER against the working resolution (longest side), engine and native on the same scaled image\n");
  console.log("| page | side px | engine recognize s | engine CER | native s | native CER |");
  console.log("|---|---|---|---|---|---|");
  const points = [];
  for (const [i, p] of list.entries()) {
    const page = new Uint8Array(await (await engine.files.get(`speed/p${i}-0.${p.ext}.page.png`)).arrayBuffer());
    for (const side of CURVE_SIDES) {
      const png = scaledPng(page, side);
      if (!png) continue;
      const key = `curve/p${i}-${side}.png`;
      await engine.files.put(key, png);
      const t0 = performance.now();
      const rec = await engine.call("recognize", { pageKey: key, languages: ["eng"], outKey: `${key}.json` });
      const ms = performance.now() - t0;
      const text = (await (await engine.files.get(rec.key)).json()).regions.map((r) => r.text).join("\n");
      const file = path.join(work, `curve-${i}-${side}.png`);
      writeFileSync(file, png);
      const n = runNative(file, "eng", tessdata);
      const row = {
        page: p.name,
        side,
        ms,
        cer: errorRates(p.text, text, false).cer,
        nativeMs: n.ms,
        nativeCer: errorRates(p.text, n.text, false).cer,
      };
      points.push(row);
      console.log(`| ${p.name} | ${side} | ${s(ms)} | ${pct(row.cer)} | ${s(n.ms)} | ${pct(row.nativeCer)} |`);
    }
  }
  return points;
}

async function main() {
  nativeTessdata(tessdata, ["eng"]);
  const only = process.env.ONLY?.split(",");
  const list = pages().filter((p) => !only || only.some((o) => p.name.includes(o)));
  const engine = await startEngine({ browser: false, processes: PROCESSES });
  engine.pids = engine.enginePids();
  try {
    // First use in each process: model load, engine creation, and the first run of each code path
    // measured (whole pages, then the planning, bands and join of a page read in bands).
    await Promise.all(Array.from({ length: PROCESSES }, (_, i) => enginePage(engine, `warm${i}.png`, list[0].bytes, 1)));
    await enginePage(engine, "warm-bands.png", pages()[0].bytes);
    console.log(
      "| page | bands | preprocess s | detect s | recognize s | engine s | whole-page engine s | native s | engine/native pages/s | whole/native | CPU s: bands' critical path / bands / whole / native | native ÷ critical path | native ÷ whole (CPU) | preprocess CPU s | engine CER | whole CER | native CER |",
    );
    console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    const rows = [];
    for (const [i, p] of list.entries()) {
      const file = path.join(work, `p${i}.${p.ext}`);
      writeFileSync(file, p.bytes);
      const e = [];
      const w = [];
      const n = [];
      for (let r = 0; r < RUNS; r++) {
        e.push(await enginePage(engine, `p${i}-${r}.${p.ext}`, p.bytes));
        w.push(await enginePage(engine, `w${i}-${r}.${p.ext}`, p.bytes, 1));
        n.push(runNative(file, "eng", tessdata));
      }
      const et = {
        preprocess: mean(e.map((x) => x.t.preprocess)),
        detect: mean(e.map((x) => x.t.detect)),
        recognize: mean(e.map((x) => x.t.recognize)),
        total: mean(e.map((x) => x.t.total)),
      };
      const wt = mean(w.map((x) => x.t.total));
      const nt = mean(n.map((x) => x.ms));
      const cpu = {
        critical: mean(e.map((x) => x.t.critical)),
        bandsCpu: mean(e.map((x) => x.t.cpu)),
        wholeCpu: mean(w.map((x) => x.t.cpu)),
        nativeCpu: mean(n.map((x) => x.cpuMs)),
        preCpu: mean(e.map((x) => x.t.preCpu)),
      };
      if (process.env.DUMP) {
        mkdirSync(process.env.DUMP, { recursive: true });
        for (const [kind, r] of [
          ["bands", e[0]],
          ["whole", w[0]],
          ["native", n[0]],
        ])
          writeFileSync(path.join(process.env.DUMP, `${p.name}.${kind}.txt`), r.text);
      }
      const ec = errorRates(p.text, e[0].text, false).cer;
      const wc = errorRates(p.text, w[0].text, false).cer;
      const nc = errorRates(p.text, n[0].text, false).cer;
      const bands = e[0].t.bands;
      rows.push({
        name: p.name,
        a4: p.a4,
        bands,
        ...et,
        whole: wt,
        native: nt,
        ...cpu,
        ratio: nt / et.total,
        engineCer: ec,
        wholeCer: wc,
        nativeCer: nc,
        phases: e[0].t.phases,
      });
      console.log(
        `| ${p.name} | ${bands} | ${s(et.preprocess)} | ${s(et.detect)} | ${s(et.recognize)} | ${s(et.total)} | ${s(wt)} | ${s(nt)} | ${(nt / et.total).toFixed(2)}x | ${(nt / wt).toFixed(2)}x | ${[cpu.critical, cpu.bandsCpu, cpu.wholeCpu, cpu.nativeCpu].map(s).join(" / ")} | ${(cpu.nativeCpu / cpu.critical).toFixed(2)}x | ${(cpu.nativeCpu / cpu.wholeCpu).toFixed(2)}x | ${s(cpu.preCpu)} | ${pct(ec)} | ${pct(wc)} | ${pct(nc)} |`,
      );
    }
    // Where the bands' critical path goes: each phase's busiest process, and the bands' other process.
    console.log(
      "\n| page (read in bands) | CPU s: preprocess | planning (detect split) | bands: busiest / other process | join (detect bandTexts) + recognize |",
    );
    console.log("|---|---|---|---|---|");
    for (const r of rows.filter((x) => x.phases.length === 4)) {
      const [pre, plan, bands, join] = r.phases.map((ph) => [...ph].sort((a, b) => b - a));
      console.log(`| ${r.name} | ${s(pre[0])} | ${s(plan[0])} | ${s(bands[0])} / ${s(bands[1] ?? 0)} | ${s(join[0])} |`);
    }
    const a4 = rows.filter((r) => r.a4);
    const real = rows.filter((r) => !r.a4);
    const sum = (rs, k) => rs.reduce((a, r) => a + r[k], 0);
    for (const [label, rs] of [
      ["A4 300 dpi", a4],
      ["real scans", real],
    ]) {
      if (!rs.length) continue;
      console.log(
        `\n${label}: engine ${s(sum(rs, "total") / rs.length)} s a page (preprocess ${pct(sum(rs, "preprocess") / (sum(rs, "detect") + sum(rs, "recognize")))} of OCR time; in CPU time ${pct(sum(rs, "preCpu") / (sum(rs, "bandsCpu") - sum(rs, "preCpu")))}), whole-page engine ${s(sum(rs, "whole") / rs.length)} s, native ${s(sum(rs, "native") / rs.length)} s: ${(sum(rs, "native") / sum(rs, "total")).toFixed(2)}x native pages/s (whole pages ${(sum(rs, "native") / sum(rs, "whole")).toFixed(2)}x); CPU time: native ÷ bands' critical path ${(sum(rs, "nativeCpu") / sum(rs, "critical")).toFixed(2)}x, native ÷ whole page ${(sum(rs, "nativeCpu") / sum(rs, "wholeCpu")).toFixed(2)}x, bands ÷ whole ${(sum(rs, "bandsCpu") / sum(rs, "wholeCpu")).toFixed(2)}x; mean CER engine ${pct(mean(rs.map((r) => r.engineCer)))}, whole pages ${pct(mean(rs.map((r) => r.wholeCer)))}, native ${pct(mean(rs.map((r) => r.nativeCer)))}; load average ${os
          .loadavg()
          .map((x) => x.toFixed(1))
          .join(" ")}`,
      );
    }
    const points = process.env.CURVE === "0" ? [] : await curve(engine, list);
    reportResult("page-speed", {
      points,
      rows,
      processes: PROCESSES,
      a4Ratio: sum(a4, "native") / sum(a4, "total"),
      a4WholeRatio: sum(a4, "native") / sum(a4, "whole"),
      a4CriticalCpuRatio: sum(a4, "nativeCpu") / sum(a4, "critical"),
      a4WholeCpuRatio: sum(a4, "nativeCpu") / sum(a4, "wholeCpu"),
      realRatio: real.length ? sum(real, "native") / sum(real, "total") : null,
      preprocessShare: sum(a4, "preprocess") / (sum(a4, "detect") + sum(a4, "recognize")),
      preprocessCpuShare: sum(a4, "preCpu") / (sum(a4, "bandsCpu") - sum(a4, "preCpu")),
    });
  } finally {
    engine.dispose();
  }
}

await main();
