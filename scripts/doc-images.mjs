// Makes the README's three pictures with a running service (`npm run dev`), from real inputs:
//   npm run docs:images                      (BASE and KEY override the local service and its key)
// - docs/images/translated-page.png: a page of English text through the `translate` tool into
//   Spanish (Apertium locally), the exported page image beside the original;
// - docs/images/translated-comic.png: a comic page through the same tool (read as a picture:
//   balloon by balloon, kept in colour, each translation set inside its balloon), likewise;
// - docs/images/searchable-pdf.png: a scanned PDF through the `ocr` tool with the `searchable_pdf`
//   export, its first page drawn by poppler's `pdftoppm` with the words of its text layer (as
//   `pdftotext -bbox` reads them) outlined.
// Needs poppler-utils and ImageMagick. The inputs are named in docs/images/README.md.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BASE = process.env.BASE ?? "http://127.0.0.1:8787";
const KEY = process.env.KEY ?? readFileSync(path.join(root, ".wrangler/dev-api-key"), "utf8").trim();
const OUT = path.join(root, "docs/images");
const work = mkdtempSync(path.join(os.tmpdir(), "lingoscan-doc-images-"));

/** The inputs: real pages, from the shared corpus and the repository's fixtures (paths from the repository). */
export const INPUTS = {
  translate: "../shared/corpus/real-scans/files/tess_phototest.tif",
  comic: "test/fixtures/pictures/ctd_006013.jpg",
  searchable: "test/fixtures/real/ocrmypdf_linn.pdf",
};

async function api(method, url, body) {
  const res = await fetch(`${BASE}${url}`, { method, body, headers: { Authorization: `Bearer ${KEY}` } });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Uploads a file with options, waits for the job's end, and returns the bytes of one export. */
async function run(file, options, format) {
  const form = new FormData();
  form.set("file", new Blob([readFileSync(path.join(root, file))]), path.basename(file));
  form.set("options", JSON.stringify(options));
  let job = await api("POST", "/api/v1/process", form);
  while (!["completed", "partially_completed", "failed", "cancelled"].includes(job.status)) {
    await new Promise((r) => setTimeout(r, 1500));
    job = await api("GET", `/api/v1/jobs/${job.id}`);
  }
  if (job.status !== "completed") throw new Error(`${file}: job ${job.id} ended ${job.status}`);
  const ref = job.output.exports.find((e) => e.format === format);
  const { url } = await api("GET", `/api/v1/exports/${ref.export_id}/download`);
  const res = await fetch(url.startsWith("http") ? url : `${BASE}${url}`);
  return new Uint8Array(await res.arrayBuffer());
}

const sh = (cmd, args) => execFileSync(cmd, args, { cwd: work, encoding: "utf8", maxBuffer: 64 * 2 ** 20 });

/** A page translated into Spanish, the exported page image beside the original, each `width` px wide. */
async function translatedPage(input, name, width = "700x") {
  const png = await run(input, { tool: "translate", source_language: "en", target_language: "es", export_formats: ["png"] }, "png");
  writeFileSync(path.join(work, "translated.png"), png);
  sh("convert", [path.join(root, input) + "[0]", "-resize", width, "original.png"]);
  sh("convert", ["translated.png", "-resize", width, "translated-small.png"]);
  sh("convert", [
    "original.png",
    "translated-small.png",
    "-bordercolor",
    "#888",
    "-border",
    "1",
    "+append",
    "-colors",
    "128",
    "-strip",
    path.join(OUT, name),
  ]);
}

async function searchablePdf() {
  const pdf = await run(INPUTS.searchable, { tool: "ocr", source_language: "en", export_formats: ["searchable_pdf"] }, "searchable_pdf");
  writeFileSync(path.join(work, "searchable.pdf"), pdf);
  sh("pdftoppm", ["-r", "100", "-png", "-singlefile", "-f", "1", "-l", "1", "searchable.pdf", "page"]);
  sh("pdftotext", ["-bbox", "-f", "1", "-l", "1", "searchable.pdf", "words.html"]);
  const html = readFileSync(path.join(work, "words.html"), "utf8");
  const page = /<page width="([\d.]+)" height="([\d.]+)"/.exec(html);
  const scale = 100 / 72;
  const boxes = [...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">/g)].map((m) =>
    m.slice(1, 5).map((v) => Math.round(Number(v) * scale)),
  );
  if (!page || boxes.length === 0) throw new Error("the searchable PDF has no text layer on its first page");
  const draw = boxes.map(([x0, y0, x1, y1]) => `rectangle ${x0},${y0} ${x1},${y1}`).join(" ");
  sh("convert", [
    "page.png",
    "-fill",
    "rgba(255,200,0,0.25)",
    "-stroke",
    "rgba(220,120,0,0.9)",
    "-strokewidth",
    "1",
    "-draw",
    draw,
    "-resize",
    "700x",
    "-colors",
    "64",
    "-strip",
    path.join(OUT, "searchable-pdf.png"),
  ]);
  console.log(`searchable PDF: ${boxes.length} words in the first page's text layer`);
}

await translatedPage(INPUTS.translate, "translated-page.png");
await translatedPage(INPUTS.comic, "translated-comic.png", "560x");
await searchablePdf();
console.log(`written: ${path.relative(root, OUT)}/translated-page.png, translated-comic.png, searchable-pdf.png (work files in ${work})`);
