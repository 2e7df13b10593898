// Rendering benchmark: text removal (inpaint + leftover check) and typesetting time per page,
// leftover-text and overflow rates, and how close the clean plates come to the true background,
// on a generated set (the engine Worker under `wrangler dev`, as in local development).
//
//   node test/bench/render-bench.mjs            (prints a table; sample images go to $TMPDIR/lingoscan-render-bench)
//
// The set: 24 pages of 1240x880 px, each with a heading and two paragraphs (28–60 px DejaVu Sans,
// regular and bold, five text colours) on flat, gradient, striped-paper and noisy-photo
// backgrounds, with the true background rendered alongside. Translations are generated at 0.8×,
// 1.0×, 1.3× and 1.6× the source length so the size search and the overflow report are exercised.
import { PhotonImage } from "@cf-wasm/photon";
import { Resvg } from "@resvg/resvg-js";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { root } from "../../scripts/models.mjs";
import { reportResult } from "./bench-result.mjs";
import { startEngine } from "./ocr-harness.mjs";

const W = 1240, H = 880;
const out = path.join(os.tmpdir(), "lingoscan-render-bench");
mkdirSync(out, { recursive: true });
const fonts = ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf"].map((f) => path.join(root, "node_modules/dejavu-fonts-ttf/ttf", f));

const BACKGROUNDS = {
  flat: () => `<rect width="${W}" height="${H}" fill="#f4f1e8"/>`,
  gradient: (i) => `<defs><linearGradient id="g" x1="0" y1="0" x2="${i % 2}" y2="1"><stop offset="0" stop-color="#9bd0ff"/><stop offset="1" stop-color="#fff4d6"/></linearGradient></defs><rect width="${W}" height="${H}" fill="url(#g)"/>`,
  paper: () => `<defs><filter id="n" x="0" y="0" width="1" height="1"><feTurbulence type="fractalNoise" baseFrequency="0.9" numOctaves="2" seed="11"/><feColorMatrix type="saturate" values="0"/></filter><pattern id="s" width="14" height="14" patternUnits="userSpaceOnUse" patternTransform="rotate(35)"><rect width="14" height="14" fill="#ece0c4"/><rect width="5" height="14" fill="#dfcfa6"/></pattern></defs><rect width="${W}" height="${H}" fill="url(#s)"/><rect width="${W}" height="${H}" filter="url(#n)" opacity="0.22"/>`,
  photo: (i) => `<defs><filter id="p" x="0" y="0" width="1" height="1"><feTurbulence type="turbulence" baseFrequency="0.012" numOctaves="3" seed="${i}"/><feColorMatrix type="matrix" values="0.4 0 0 0 0.55  0 0.4 0 0 0.55  0 0 0.3 0 0.5  0 0 0 0 1"/></filter></defs><rect width="${W}" height="${H}" filter="url(#p)"/>`,
};
const COLORS = ["#111111", "#1a2b4c", "#7a1010", "#0d4d2b", "#3b2a5c"];
const SENTENCES = [
  "Fresh bread and pastries every morning from seven",
  "Our kitchen uses local flour, butter and seasonal fruit",
  "Orders for birthdays and weddings are welcome",
  "The shop is closed on public holidays",
  "Ask about our gluten free loaves and cakes",
  "Coffee is served until the last loaf is sold",
];
const POOL = "el la de que y en los del se las por un para con una su al lo como más pero sus le ya o este sí porque esta entre cuando muy sin sobre también me hasta hay donde quien desde todo nos durante todos uno les ni contra otros ese eso ante ellos".split(" ");

const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");

function wrap(text, size, maxW) {
  const lines = [];
  let line = "";
  for (const word of text.split(" ")) {
    const next = line ? `${line} ${word}` : word;
    if (next.length * size * 0.6 > maxW && line) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/** Page i of the set: SVG with text, SVG of its background alone. */
function page(i) {
  const kinds = Object.keys(BACKGROUNDS);
  const bg = BACKGROUNDS[kinds[i % kinds.length]](i);
  const color = COLORS[i % COLORS.length];
  const bold = i % 3 === 0;
  const sizes = [60, 40, 34, 28];
  const heading = sizes[i % 2];
  const body = sizes[2 + (i % 2)];
  const parts = [];
  let y = 110;
  parts.push(`<text x="90" y="${y}" font-family="DejaVu Sans" font-weight="bold" font-size="${heading}" fill="${color}">${esc(SENTENCES[i % 6].split(" ").slice(0, 4).join(" "))}</text>`);
  y += heading + 60;
  for (const k of [1, 2]) {
    for (const l of wrap(`${SENTENCES[(i + k) % 6]}. ${SENTENCES[(i + k + 2) % 6]}.`, body, W - 200)) {
      parts.push(`<text x="90" y="${y}" font-family="DejaVu Sans" font-weight="${bold ? "bold" : "normal"}" font-size="${body}" fill="${color}">${esc(l)}</text>`);
      y += Math.round(body * 1.35);
    }
    y += body * 1.5;
  }
  const svg = (content) => `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${bg}${content}</svg>`;
  return { kind: kinds[i % kinds.length], text: svg(parts.join("")), background: svg("") };
}

const png = (svg) => new Resvg(svg, { font: { fontFiles: fonts, loadSystemFonts: false, defaultFontFamily: "DejaVu Sans" } }).render().asPng();

function rgba(bytes) {
  const img = PhotonImage.new_from_byteslice(bytes);
  try {
    return { width: img.get_width(), height: img.get_height(), data: img.get_raw_pixels() };
  } finally {
    img.free();
  }
}

function meanDiff(a, b, boxes) {
  let sum = 0, n = 0;
  for (const box of boxes) {
    for (let y = Math.floor(box.y); y < Math.min(a.height, box.y + box.h); y++) {
      for (let x = Math.floor(box.x); x < Math.min(a.width, box.x + box.w); x++) {
        const i = (y * a.width + x) * 4;
        for (let c = 0; c < 3; c++) sum += Math.abs(a.data[i + c] - b.data[i + c]);
        n += 3;
      }
    }
  }
  return sum / Math.max(1, n);
}

/** A pseudo-translation of `ratio` × the source length, from a fixed word pool. */
function translation(source, ratio, seed) {
  const want = Math.round(source.length * ratio);
  const words = [];
  for (let k = 0; words.join(" ").length < want; k++) words.push(POOL[(seed * 7 + k * 13) % POOL.length]);
  const s = words.join(" ");
  return s[0].toUpperCase() + s.slice(1) + ".";
}

const RATIOS = [0.8, 1.0, 1.3, 1.6];
const PAGES = 24;
const engine = await startEngine();
const rows = [];
const perKind = {};
const overflow = { fitted: 0, shrunk: 0, overflowing: 0 };
const byRatio = Object.fromEntries(RATIOS.map((r) => [r, { fitted: 0, shrunk: 0, overflowing: 0 }]));
let regions = 0, flagged = 0, readablePages = 0;
const flaggedText = [];
try {
  for (let i = 0; i < PAGES; i++) {
    const p = page(i);
    const bytes = png(p.text);
    const truth = rgba(png(p.background));
    await engine.files.put(`uploads/b/${i}`, bytes);
    const pre = await engine.call("preprocess", { sourceKey: `uploads/b/${i}`, page: 0, outKey: `b/${i}/page.png`, languages: ["eng"] });
    const rec = await engine.call("recognize", { pageKey: pre.key, languages: ["eng"], outKey: `b/${i}/text.json` });
    const text = await (await engine.files.get(rec.key)).json();
    const inpaintRegions = text.regions.map((r) => ({ box: r.box, lines: r.lines.map((l) => l.box) }));
    let t = performance.now();
    const cleaned = await engine.call("inpaint", { pageKey: pre.key, sourceKey: `uploads/b/${i}`, page: 0, regions: inpaintRegions, maskKey: `b/${i}/mask.png`, cleanKey: `b/${i}/clean.png`, languages: ["eng"] });
    const inpaintWall = performance.now() - t;
    const ratio = RATIOS[Math.floor(i / 4) % RATIOS.length];
    t = performance.now();
    const set = await engine.call("typeset", {
      backgroundKey: cleaned.cleanKey,
      outKey: `b/${i}/render.png`,
      regions: text.regions.map((r, k) => ({ box: r.box, lines: r.lines.map((l) => l.box), text: translation(r.text, ratio, i * 10 + k), style: cleaned.regions[k].style })),
    });
    const typesetWall = performance.now() - t;
    const clean = new Uint8Array(await (await engine.files.get(cleaned.cleanKey)).arrayBuffer());
    const diff = meanDiff(rgba(clean), truth, text.regions.map((r) => r.box));
    // Independent leftover check: OCR of the whole clean plate.
    const again = await engine.call("recognize", { pageKey: cleaned.cleanKey, languages: ["eng"], outKey: `b/${i}/again.json` });
    const againText = (await (await engine.files.get(again.key)).json()).text.replace(/\s+/g, "");
    if (againText.length > 0) readablePages++;
    regions += cleaned.regions.length;
    flagged += cleaned.regions.filter((r) => r.leftover).length;
    for (const r of cleaned.regions.filter((x) => x.leftover)) flaggedText.push(`page ${i} (${p.kind}): "${r.leftoverText}"`);
    for (const r of set.regions) {
      overflow[r.overflow]++;
      byRatio[ratio][r.overflow]++;
    }
    (perKind[p.kind] ??= []).push(diff);
    rows.push({ i, kind: p.kind, regions: cleaned.regions.length, inpaint: cleaned.ms.inpaint, check: cleaned.ms.check, inpaintWall, typeset: set.ms, typesetWall, diff });
    if (i < 8) {
      writeFileSync(path.join(out, `${i}-${p.kind}-page.png`), bytes);
      writeFileSync(path.join(out, `${i}-${p.kind}-clean.png`), clean);
      writeFileSync(path.join(out, `${i}-${p.kind}-render.png`), new Uint8Array(await (await engine.files.get(set.key)).arrayBuffer()));
    }
    process.stdout.write(".");
  }
} finally {
  engine.dispose();
}
const avg = (xs) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
const pct = (n, d) => `${((100 * n) / Math.max(1, d)).toFixed(1)} %`;
console.log(`\n\nRendering benchmark: ${PAGES} pages of ${W}x${H}, ${regions} regions (samples in ${out})\n`);
console.log("| per page (mean) | ms |");
console.log("|---|---|");
console.log(`| inpaint (mask + fill + encode, engine) | ${avg(rows.map((r) => r.inpaint)).toFixed(0)} |`);
console.log(`| leftover check (re-OCR of each region) | ${avg(rows.map((r) => r.check)).toFixed(0)} |`);
console.log(`| inpaint call, wall | ${avg(rows.map((r) => r.inpaintWall)).toFixed(0)} |`);
console.log(`| typeset (engine) | ${avg(rows.map((r) => r.typeset)).toFixed(0)} |`);
console.log(`| typeset call, wall | ${avg(rows.map((r) => r.typesetWall)).toFixed(0)} |`);
console.log(`\nleftover_text flagged: ${flagged}/${regions} regions (${pct(flagged, regions)}); clean plates with any text read back by a whole-page OCR: ${readablePages}/${PAGES}`);
for (const f of flaggedText) console.log(`  flagged ${f}`);
console.log(`overflow: fitted ${pct(overflow.fitted, regions)}, shrunk ${pct(overflow.shrunk, regions)}, overflowing ${pct(overflow.overflowing, regions)}`);
for (const r of RATIOS) {
  const o = byRatio[r];
  const n = o.fitted + o.shrunk + o.overflowing;
  console.log(`  translation ${r}× source length: fitted ${pct(o.fitted, n)}, shrunk ${pct(o.shrunk, n)}, overflowing ${pct(o.overflowing, n)}`);
}
console.log("\nclean plate vs true background inside the text boxes (mean absolute difference, 0–255):");
for (const [k, v] of Object.entries(perKind)) console.log(`  ${k}: ${avg(v).toFixed(2)}`);
reportResult("render", {
  pages: PAGES,
  regions,
  inpaintMs: avg(rows.map((r) => r.inpaint)),
  checkMs: avg(rows.map((r) => r.check)),
  typesetMs: avg(rows.map((r) => r.typeset)),
  leftoverFlagged: flagged,
  readablePlates: readablePages,
  overflow,
  plateDiff: Object.fromEntries(Object.entries(perKind).map(([k, v]) => [k, avg(v)])),
});
