// Every benchmark, grouped by subject: the menu of `npm run bench` (scripts/bench.mjs) and the
// sections of docs/benchmarks.md (scripts/bench-report.mjs). `name` is the name the benchmark gives
// reportResult(), so its results are test/bench/results/<name>.json.

/** Benchmarks that import the engine's TypeScript run under tsx. */
const TSX = "node_modules/tsx/dist/cli.mjs";
const pct = (x) => `${(x * 100).toFixed(1)} %`;

/** Subjects in the order the menu and the page show them. */
export const SUBJECTS = ["recognition", "tables", "translation", "rendering", "service"];

/**
 * @typedef {object} Bench
 * @property {string} name      results file name (what the script passes to reportResult)
 * @property {string} subject   one of SUBJECTS
 * @property {string} title     what the benchmark is called on the page
 * @property {string} command   how to run it
 * @property {string} measures  what it measures, in one or two sentences
 * @property {string} [needs]   what it needs besides `npm install`
 * @property {boolean} [suite]  run by `npm run bench` (the quick suite) when no names are given
 * @property {boolean} [service] needs the whole service: the suite starts `npm run dev` for it
 * @property {string[]} args    the script and its arguments, as `npm run bench` runs it with node
 * @property {number} minutes  its time limit under `npm run bench`
 * @property {(figures: any) => [string, string] | undefined} [headline] its figure for the README's table
 */

/** @type {Bench[]} */
export const BENCHES = [
  {
    name: "ocr",
    subject: "recognition",
    title: "Recognition accuracy and speed",
    command: "npm run bench:ocr",
    needs: "Debian tesseract-ocr",
    measures:
      "CER and WER of the engine (under `wrangler dev`) against native tesseract 5.3 with the same `best_int` models on rendered pages in 8 languages and real pages, table cells, pages a second and the wasm heap of an A4 page.",
    suite: true,
    args: ["test/bench/ocr-bench.mjs"],
    minutes: 30,
    headline: (f) => {
      const all = f.subsets?.find((s) => s.label === "all pages");
      return all && ["Recognition CER, engine vs native tesseract", `${pct(all.engineCer)} vs ${pct(all.nativeCer)}`];
    },
  },
  {
    name: "page-speed",
    subject: "recognition",
    title: "Page speed",
    command: "npm run bench:speed",
    needs: "Debian tesseract-ocr",
    measures:
      "Every engine call of an `ocr` page (preprocess, detect, recognize) against native tesseract on one thread, on synthetic A4 pages at 300 dpi and real scans, with the CER of both.",
    suite: true,
    args: ["test/bench/page-speed.mjs"],
    minutes: 30,
    headline: (f) => f.a4Ratio && ["A4 page read, pages a second against native tesseract", `${f.a4Ratio.toFixed(2)}×`],
  },
  {
    name: "pdf-pages",
    subject: "recognition",
    title: "Seconds per PDF page",
    command: "npm run bench:pdf-pages",
    needs: "Debian tesseract-ocr, poppler-utils",
    measures:
      "Seconds per PDF page of the engine against `pdftotext` (born-digital pages) and `pdftoppm` + native tesseract (scanned pages) on the real-scans corpus.",
    args: ["test/bench/pdf-pages.mjs"],
    minutes: 30,
  },
  {
    name: "real",
    subject: "recognition",
    title: "Real scans and PDFs",
    command: "npm run bench:real",
    needs: "Debian tesseract-ocr, poppler-utils; ../shared/corpus/real-scans",
    measures:
      "Every document of the real-scans corpus through the service (`npm run dev` in a scratch copy) and through `pdftotext` / native tesseract: outcomes, CER or similarity, recall, seconds a page. Its per-document table is test/bench/real-results.md.",
    headline: (f) =>
      f.scanSecondsPerPage && [
        "Scanned PDF page, median seconds: service vs native",
        `${f.scanSecondsPerPage.toFixed(2)} s vs ${f.scanNativeSecondsPerPage.toFixed(2)} s`,
      ],
    args: ["test/bench/real-scans.mjs"],
    minutes: 60,
  },
  {
    name: "born-digital",
    subject: "recognition",
    title: "Born-digital PDFs",
    command: "npm run bench:born-digital",
    needs: "a running `npm run dev`; poppler-utils",
    measures: "Born-digital (text-layer) PDFs through a running service against `pdftotext`: text similarity and seconds a page.",
    service: true,
    args: ["test/bench/born-digital.mjs"],
    minutes: 20,
  },
  {
    name: "arabic-script",
    subject: "recognition",
    title: "Arabic-script pages",
    command: "node_modules/.bin/tsx test/bench/arabic-script-pages.mjs",
    needs: "Debian tesseract-ocr, poppler-utils",
    measures:
      "The engine's tesseract build in Node against native tesseract on pages of Arabic-script documents typeset by others, given the same resolution and left to estimate it, and each page uploaded to the service's engine.",
    args: [TSX, "test/bench/arabic-script-pages.mjs"],
    minutes: 30,
  },
  {
    name: "vertical-scale",
    subject: "recognition",
    title: "Vertical text and scale",
    command: "node_modules/.bin/tsx test/bench/vertical-scale.mjs",
    needs: "Debian tesseract-ocr",
    measures: "A vertical page at several resolutions, read by tesseract-wasm and native tesseract with the same model.",
    args: [TSX, "test/bench/vertical-scale.mjs"],
    minutes: 15,
  },
  {
    name: "camera",
    subject: "recognition",
    title: "Phone photos of documents",
    command: "npm run bench:camera",
    needs: "Debian tesseract-ocr, poppler-utils and ImageMagick; ../shared/corpus",
    measures:
      "Six real pages (ICDAR 2013 EU born-digital pages, OCRmyPDF's linn scan), each photographed six ways by ImageMagick (mild and strong perspective on a table, a light gradient, a hard shadow, a book page's curl, a page with no edge in view): word recall of an `ocr` job on each capture against the same page rendered flat, beside native tesseract on the capture; pages alternate between a half the steps were tuned on and a held-out half; milliseconds of the photo steps alone.",
    headline: (f) =>
      f.summary?.overall && [
        "Phone photos of pages: word recall, capture ÷ flat page (worst, mean)",
        `${f.summary.overall.minRatio.toFixed(2)}×, ${f.summary.overall.meanRatio.toFixed(2)}×`,
      ],
    args: ["test/bench/camera.mjs"],
    minutes: 45,
  },
  {
    name: "tesseract-cpu",
    subject: "recognition",
    title: "tesseract-wasm CPU time",
    command: "node_modules/.bin/tsx test/bench/tesseract-cpu.mjs",
    needs: "Debian tesseract-ocr",
    measures:
      "Layout analysis and recognition in process CPU time, the engine's tesseract WebAssembly build against native tesseract on one thread with the same model, on the speed pages (A4 at 300 dpi and real scans): seconds a page and the CPU ratio over all pages.",
    headline: (f) =>
      f.wasmCpuOverNative && ["tesseract WebAssembly build, CPU time ÷ native tesseract's", `${f.wasmCpuOverNative.toFixed(2)}×`],
    args: [TSX, "test/bench/tesseract-cpu.mjs"],
    minutes: 20,
  },
  {
    name: "tables",
    subject: "tables",
    title: "Tables: ICDAR 2013 (EU half), camelot's, and detection on other real documents",
    command: "npm run bench:tables",
    needs: "poppler-utils; Java for the tabula-java peer; ../shared/corpus/icdar2013-eu and real-scans; the npm registry once",
    measures:
      "Table structure by adjacency relations (precision, recall, F1), tables found and false, seconds a document, born-digital and scanned at 200 dpi, beside tabula-java; on a mathematics thesis, papers and a Chinese ruled table, tables found per page against the number each holds.",
    headline: (f) => {
      const held = f["born-digital"]?.["held-out (all)"];
      return held && ["Table structure F1, born-digital documents held out from tuning", String(held.f1)];
    },
    args: ["test/bench/tables-bench.mjs"],
    minutes: 60,
  },
  {
    name: "translate",
    subject: "translation",
    title: "Translation throughput",
    command: "node test/bench/translate-throughput.mjs",
    needs: "Debian apertium-apy and the en–es pair",
    measures:
      "Segments a second en→es: the Apertium provider alone, the translation service, with a glossary, and from translation memory, in the Workers runtime.",
    suite: true,
    args: ["test/bench/translate-throughput.mjs"],
    minutes: 10,
    headline: (f) => f.service && ["Translation, segments a second (Apertium, en→es)", String(Math.round(f.service))],
  },
  {
    name: "comics",
    subject: "translation",
    title: "Comics and manga pages",
    command: "npm run bench:comics",
    needs: "Debian tesseract-ocr with eng, jpn and jpn_vert, ImageMagick; ../shared/corpus/comics",
    measures:
      "Two US Golden Age comic pages and two manga pages through the service (`npm run dev` in a scratch copy) against transcriptions written by reading them: word (English) or character (Japanese) recall and precision of `ocr` beside native tesseract; after `translate` (en→es) and `erase`, the share of the source words native tesseract read on the page that it still reads on the result, the colour kept (mean chroma, result ÷ page), the size kept, seconds a job; the share of the translation's lettering set outside the balloons that comic-text-detector's text mask lies in. The same for panels cut out of the pages and for phone photos of them by ImageMagick (on a table, mild and strong perspective, a light gradient; taken close, no page edge in view, the light falling off).",
    args: ["test/bench/comics.mjs"],
    minutes: 60,
  },
  {
    name: "render",
    subject: "rendering",
    title: "Text removal and typesetting",
    command: "npm run bench:render",
    needs: "Debian mate-backgrounds (photographs)",
    measures:
      "Inpainting and typesetting time a page, leftover text and smears flagged, how close the clean plate comes to the true background, and how translated text fits.",
    suite: true,
    args: ["test/bench/render-bench.mjs"],
    minutes: 20,
  },
  {
    name: "jobs",
    subject: "service",
    title: "Job latency",
    command: "node test/bench/jobs-latency.mjs 3",
    needs: "a running `npm run dev`, which `npm run bench` starts itself",
    measures: "Upload to terminal state of 1-page `ocr` and `translate` jobs, and batches of 1 and 20 files.",
    suite: true,
    service: true,
    args: ["test/bench/jobs-latency.mjs", "3"],
    minutes: 15,
    headline: (f) => f.singles?.ocr && ["1-page OCR job, upload to completed (median)", `${(f.singles.ocr.medianMs / 1000).toFixed(2)} s`],
  },
  {
    name: "load",
    subject: "service",
    title: "Load",
    command: "npm run bench:load",
    needs: "a running `npm run dev`, which `npm run bench` starts itself",
    measures:
      "Requests a second and p50/p99 latency of the main read routes beside the bare health route, a mixed stream of jobs, and the memory of the workerd processes a page in flight.",
    suite: true,
    service: true,
    args: ["test/bench/load.mjs"],
    minutes: 15,
    headline: (f) => {
      const poll = f.routes?.find((r) => r.name.startsWith("GET /jobs"));
      return poll && [`${poll.name} under load, p50 / p99`, `${Math.round(poll.p50)} / ${Math.round(poll.p99)} ms`];
    },
  },
  {
    name: "dev-concurrency",
    subject: "service",
    title: "Local concurrency",
    command: "node test/bench/dev-concurrency.mjs",
    needs: "../shared/corpus/real-scans, poppler-utils",
    measures:
      "Both layouts of `npm run dev` (both Workers in one process, the engine in its own processes): poll latency while pages are read, and a 10-page scan against its pages' single jobs.",
    args: ["test/bench/dev-concurrency.mjs"],
    minutes: 40,
  },
];

/** The benchmark of a results file or menu name. */
export function benchNamed(name) {
  return BENCHES.find((b) => b.name === name);
}
