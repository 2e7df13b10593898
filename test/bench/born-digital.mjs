// Born-digital (text-layer) PDFs through a running service, side by side with `pdftotext`, in one run:
//   npm run dev &  npm run bench:born-digital        (BASE=http://127.0.0.1:PORT for another port)
// Documents: every PDF of the real-scans corpus whose every page has a text layer (as `pdftotext`
// reads it, the rule of `npm run bench:real`) and the ICDAR 2013 EU PDFs of the tables corpus. Per
// document, one `ocr` job at a time (default exports), upload → completed as a client sees it
// (polling every 20 ms), and `pdftotext` on the same file. Prints per-document seconds, the median
// seconds per page of both and their ratio, and the median of the 1-page documents' jobs. Text:
// each completed job's page texts (its JSON export) against `pdftotext`'s reading-order text of
// the same pages: CER over the whole corpus (edit distance ÷ pdftotext's characters, whitespace
// runs as one space, at most 6000 characters a page) and the pages whose text is identical;
// TEXT_OUT=file writes every page's text, to compare two runs exactly.
// BASE, KEY (default .wrangler/dev-api-key), CORPORA (default ../shared/corpus/real-scans/files,
// ../shared/corpus/icdar2013-eu), ONLY (comma-separated name parts), MAX_PAGES (default 20: longer
// documents are left out), JOB_TIMEOUT_S (default 120).
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { reportResult } from "./bench-result.mjs";
import { levenshtein } from "./text-metrics.mjs";

const BASE = process.env.BASE ?? "http://127.0.0.1:8787";
const KEY = process.env.KEY ?? readFileSync(".wrangler/dev-api-key", "utf8").trim();
const auth = { Authorization: `Bearer ${KEY}` };
const CORPORA = (process.env.CORPORA ?? "../shared/corpus/real-scans/files,../shared/corpus/icdar2013-eu").split(",");
const ONLY = process.env.ONLY?.split(",").filter(Boolean);
const MAX_PAGES = Number(process.env.MAX_PAGES ?? 20);
const JOB_TIMEOUT_S = Number(process.env.JOB_TIMEOUT_S ?? 120);
const COMPARE_MAX_CHARS = 6000;
/** Fewer visible characters than this and a page has no text layer (the engine's rule). */
const TEXT_MIN_CHARS = 8;

const visible = (s) => s.replace(/\s+/gu, "").length;
const median = (xs) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const run = (cmd, args) => spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 * 2 ** 20 });

function pageCount(file) {
  const m = /^Pages:\s+(\d+)/m.exec(run("pdfinfo", [file]).stdout ?? "");
  return m ? Number(m[1]) : 0;
}

/** `pdftotext` of the whole file, timed; null when a page has no text layer (not born-digital). */
function native(file, pages) {
  const t0 = performance.now();
  const r = run("pdftotext", ["-layout", file, "-"]);
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) return null;
  const perPage = r.stdout.split("\f").slice(0, pages);
  return perPage.length === pages && perPage.every((p) => visible(p) >= TEXT_MIN_CHARS) ? { seconds, text: r.stdout } : null;
}

/** `pdftotext`'s reading-order text (not -layout), page by page: what the service's texts are compared with. */
function nativePages(file, pages) {
  return (run("pdftotext", [file, "-"]).stdout ?? "").split("\f").slice(0, pages);
}

const squash = (s) => s.replace(/\s+/gu, " ").trim().slice(0, COMPARE_MAX_CHARS);

/** The page texts of a completed job, from its JSON export. */
async function jobPages(id) {
  const j = await (await fetch(`${BASE}/api/v1/jobs/${id}`, { headers: auth })).json();
  const exp = j.output?.exports?.find((e) => e.format === "json");
  if (!exp) return null;
  const link = await (await fetch(`${BASE}${exp.download}`, { headers: auth })).json();
  const doc = await (await fetch(link.url)).json();
  return (doc.pages ?? []).map((p) => p.text ?? "");
}

async function job(file) {
  const form = new FormData();
  form.append("file", new File([readFileSync(file)], path.basename(file)));
  form.append("options", JSON.stringify({ tool: "ocr" }));
  const t0 = performance.now();
  const res = await fetch(`${BASE}/api/v1/process`, { method: "POST", headers: auth, body: form });
  const created = await res.json();
  const uploadS = (performance.now() - t0) / 1000;
  if (res.status !== 202) return { status: `http ${res.status}`, error: created.error?.code, seconds: uploadS, uploadS };
  const deadline = t0 + JOB_TIMEOUT_S * 1000;
  for (;;) {
    const j = await (await fetch(`${BASE}/api/v1/jobs/${created.id}`, { headers: auth })).json();
    if (["completed", "partially_completed", "failed", "cancelled"].includes(j.status))
      return { status: j.status, error: j.error?.code, seconds: (performance.now() - t0) / 1000, uploadS, id: created.id };
    if (performance.now() > deadline) return { status: `timeout (${j.status})`, seconds: JOB_TIMEOUT_S, uploadS };
    await new Promise((r) => setTimeout(r, 20));
  }
}

const files = CORPORA.flatMap((dir) =>
  readdirSync(dir)
    .filter((f) => /\.pdf$/i.test(f))
    .sort()
    .map((f) => path.join(dir, f)),
).filter((f) => !ONLY || ONLY.some((o) => path.basename(f).includes(o)));

const rows = [];
const load0 = os.loadavg()[0];
for (const file of files) {
  const pages = pageCount(file);
  if (pages === 0 || pages > MAX_PAGES) continue;
  const nat = native(file, pages);
  if (!nat) continue;
  const { id, ...svc } = await job(file);
  const row = { name: path.basename(file), pages, ...svc, nativeSeconds: nat.seconds };
  const texts = svc.status === "completed" ? await jobPages(id) : null;
  if (texts) {
    const ref = nativePages(file, pages).map(squash);
    const got = ref.map((_, i) => squash(texts[i] ?? ""));
    row.texts = texts;
    row.chars = ref.reduce((n, r) => n + [...r].length, 0);
    row.edits = ref.reduce((n, r, i) => n + levenshtein([...r], [...got[i]]), 0);
    row.samePages = ref.filter((r, i) => r === got[i]).length;
  }
  rows.push(row);
  console.log(
    `${row.name.padEnd(40)} ${String(pages).padStart(3)} p  ${row.status.padEnd(10)} ${row.seconds.toFixed(2).padStart(6)} s (upload ${row.uploadS.toFixed(2)} s)  pdftotext ${row.nativeSeconds.toFixed(3)} s  CER ${row.chars ? ((100 * row.edits) / row.chars).toFixed(1) : "-"} %  load ${os.loadavg()[0].toFixed(1)}`,
  );
}
const ok = rows.filter((r) => r.status === "completed");
const perPage = median(ok.map((r) => r.seconds / r.pages));
const nativePerPage = median(ok.map((r) => r.nativeSeconds / r.pages));
const onePage = median(ok.filter((r) => r.pages === 1).map((r) => r.seconds));
const load1 = os.loadavg()[0];
console.log(
  `\n${rows.length} born-digital documents (${rows.reduce((n, r) => n + r.pages, 0)} pages), ${ok.length} completed; load average ${load0.toFixed(1)} -> ${load1.toFixed(1)}`,
);
console.log(
  `median seconds per page: service ${perPage?.toFixed(2)} s, pdftotext ${nativePerPage?.toFixed(3)} s (${(perPage / nativePerPage).toFixed(0)}x)`,
);
console.log(`1-page documents, upload -> completed: median ${onePage?.toFixed(2)} s over ${ok.filter((r) => r.pages === 1).length}`);
const compared = ok.filter((r) => r.chars !== undefined);
const chars = compared.reduce((n, r) => n + r.chars, 0);
const cer = chars ? compared.reduce((n, r) => n + r.edits, 0) / chars : null;
const samePages = compared.reduce((n, r) => n + r.samePages, 0);
console.log(
  `text vs pdftotext: CER ${cer === null ? "-" : (100 * cer).toFixed(2)} % over ${chars} characters; pages identical ${samePages} of ${compared.reduce((n, r) => n + r.pages, 0)}`,
);
if (process.env.TEXT_OUT)
  writeFileSync(process.env.TEXT_OUT, `${JSON.stringify(Object.fromEntries(rows.map((r) => [r.name, r.texts ?? null])), null, 1)}\n`);
for (const r of rows) delete r.texts;
reportResult("born-digital", {
  cer,
  samePages,
  documents: rows.length,
  completed: ok.length,
  perPage,
  nativePerPage,
  onePage,
  loadAverage: [load0, load1],
  rows,
});
