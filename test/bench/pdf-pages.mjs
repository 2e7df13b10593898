// Seconds per PDF page, engine vs. the tools a user would pick instead, on the real-scans corpus:
// born-digital pages against `pdftotext`, scanned pages against OCRmyPDF's way (`pdftoppm -r 300`,
// then native `tesseract` with the same best_int model, one thread). The engine runs under
// `wrangler dev` (ocr-harness.mjs): preprocess + recognize per page, warm (one untimed page first).
// Usage: node test/bench/pdf-pages.mjs [corpus dir]   (default ../shared/corpus/real-scans/files)
// PDF_BENCH_ONLY=name,name… limits the run to those files.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import os from "node:os";
import path from "node:path";
import { modelFiles, root } from "../../scripts/models.mjs";
import { levenshtein } from "./text-metrics.mjs";
import { reportResult } from "./bench-result.mjs";
import { startEngine } from "./ocr-harness.mjs";

const corpus = process.argv[2] ?? path.join(root, "../shared/corpus/real-scans/files");
const BORN_DIGITAL = [
  ["pypdf_multicolumn.pdf", 2],
  ["pypdf_pdflatex-4-pages.pdf", 4],
  ["pypdf_google-doc-document.pdf", 1],
  ["pypdf_minimal-document.pdf", 1],
  ["camelot_foo.pdf", 1],
];
const SCANS = [
  ["ocrmypdf_linn.pdf", 1],
  ["ocrmypdf_ccitt.pdf", 1],
  ["ocrmypdf_jbig2.pdf", 1],
  ["ocrmypdf_skew.pdf", 1],
  ["ocrmypdf_rotated_skew.pdf", 1],
  ["ocrmypdf_cardinal.pdf", 2],
  ["ocrmypdf_masks.pdf", 1],
];

const only = process.env.PDF_BENCH_ONLY?.split(",");
const pick = (list) => list.filter(([name]) => !only || only.includes(name));
const work = mkdtempSync(path.join(os.tmpdir(), "lingoscan-pdf-bench-"));
const tessdata = path.join(work, "tessdata");
mkdirSync(tessdata);
const eng = modelFiles().find((m) => m.key === "tessdata/eng.traineddata.gz");
writeFileSync(path.join(tessdata, "eng.traineddata"), gunzipSync(readFileSync(eng.file)));

/** Character difference of `actual` from `reference`, whitespace collapsed (CER when the reference is right). */
const diff = (reference, actual) => {
  const n = (s) => [...s.replace(/\s+/gu, " ").trim()];
  return levenshtein(n(reference), n(actual)) / Math.max(1, n(reference).length);
};

function timed(cmd, args, opts = {}) {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 << 20, env: { ...process.env, OMP_THREAD_LIMIT: "1" }, ...opts });
  if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr}`);
  return { out: r.stdout, s: (performance.now() - t0) / 1000 };
}

function native(file, page, scan) {
  if (!scan) return timed("pdftotext", ["-f", String(page + 1), "-l", String(page + 1), "-enc", "UTF-8", file, "-"]);
  const png = path.join(work, "page");
  const r = timed("pdftoppm", ["-r", "300", "-gray", "-png", "-singlefile", "-f", String(page + 1), "-l", String(page + 1), file, png]);
  const t = timed("tesseract", [`${png}.png`, "stdout", "-l", "eng", "--tessdata-dir", tessdata]);
  return { out: t.out, s: r.s + t.s };
}

const engine = await startEngine();
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
try {
  const rows = [];
  let warm = false;
  for (const [group, files] of [
    ["born-digital", pick(BORN_DIGITAL)],
    ["scan", pick(SCANS)],
  ]) {
    for (const [name, pages] of files) {
      const file = path.join(corpus, name);
      await engine.files.put(`bench/${name}`, readFileSync(file));
      for (let page = 0; page < pages; page++) {
        const run = async () => {
          const t0 = performance.now();
          const pre = await engine.call("preprocess", {
            sourceKey: `bench/${name}`,
            page,
            outKey: `bench/out/${name}-${page}.png`,
            languages: ["eng"],
          });
          const rec = await engine.call("recognize", { pageKey: pre.key, languages: ["eng"], outKey: `bench/out/${name}-${page}.json` });
          const s = (performance.now() - t0) / 1000;
          return { pre, s, text: (await (await engine.files.get(rec.key)).json()).text };
        };
        if (!warm) {
          await run();
          warm = true;
        }
        const ours = await run();
        const peer = native(file, page, group === "scan");
        rows.push({
          group,
          name,
          page,
          path: ours.pre.path,
          s: ours.s,
          peer: peer.s,
          diff: diff(peer.out, ours.text),
          chars: ours.text.replace(/\s+/g, "").length,
          peerChars: peer.out.replace(/\s+/g, "").length,
        });
      }
    }
  }
  console.log("| group | file | page | path | engine s | native s | ratio | chars (native) | difference from native |");
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const r of rows)
    console.log(
      `| ${r.group} | ${r.name} | ${r.page + 1} | ${r.path} | ${r.s.toFixed(2)} | ${r.peer.toFixed(2)} | ${(r.s / r.peer).toFixed(1)} | ${r.chars} (${r.peerChars}) | ${(r.diff * 100).toFixed(1)} % |`,
    );
  const groups = {};
  for (const g of ["born-digital", "scan"]) {
    const rs = rows.filter((r) => r.group === g);
    if (!rs.length) continue;
    groups[g] = {
      pages: rs.length,
      medianSeconds: median(rs.map((r) => r.s)),
      nativeMedianSeconds: median(rs.map((r) => r.peer)),
      emptyPages: rs.filter((r) => r.chars === 0 && r.peerChars > 20).length,
    };
    console.log(
      `${g}: median ${groups[g].medianSeconds.toFixed(2)} s a page (native ${groups[g].nativeMedianSeconds.toFixed(2)} s); pages empty where native reads text: ${groups[g].emptyPages}`,
    );
  }
  reportResult("pdf-pages", groups);
} finally {
  engine.dispose();
}
