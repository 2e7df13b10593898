// Rendering benchmark: text removal as the `erase` tool does it (layout detection, inpaint with its
// leftover-text and clean-plate checks) and typesetting, on 1400x760 pages whose true background is
// known (the engine Worker under `wrangler dev`, as in local development).
//
//   npm run bench:render                  (prints a table; sample images go to $TMPDIR/lingoscan-render-bench)
//   RENDER_KINDS=photo npm run bench:render  (only the pages of the named kinds, comma-separated)
//   RENDER_PAGES=0,17 npm run bench:render   (only the pages of these indexes; 0 is the report page)
//   RENDER_SEED=7 npm run bench:render       (other crops of the photographs and other scenes: the held-back set)
//   RENDER_PAGE_KIND=document                (every page read as a document or a picture, as the job option page_kind)
//   RENDER_DEBUG=1                        (also prints the regions layout analysis gave each page)
//
// Backgrounds by kind: real photographs nobody drew for this project (Debian's mate-backgrounds or
// gnome-backgrounds JPEGs, cropped; `apt-get install mate-backgrounds`), flat, gradient, paper
// texture, and two-tone pages whose lines cross the boundary; plus the page of the text-removal
// report (flat beige over a blue gradient). Text in DejaVu Sans, Serif and Mono, 30–54 px, regular
// and bold, in colours that read on the background; half the photographs are uploaded as JPEG.
// Per kind: leftover text (regions flagged by the re-OCR check; pages where a whole-page OCR of the
// clean plate reads anything), regions flagged as smeared, and the mean absolute difference to the
// true background inside the text lines, of the clean plate and of the untouched input.
// Typesetting draws pseudo-translations of 0.8–1.6x the source length into the erased regions.
import { PhotonImage, crop, resize, SamplingFilter } from "@cf-wasm/photon";
import { Resvg } from "@resvg/resvg-js";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { root } from "../../scripts/models.mjs";
import { BACKGROUNDS, plateScene, SPLIT_PAGE, svgPage } from "../render/plates.mjs";
import { reportResult } from "./bench-result.mjs";
import { startEngine } from "./ocr-harness.mjs";

/** Seed offset of the photographs' crops and scenes (0: the published set; another: a held-back one). */
const SEED = Number(process.env.RENDER_SEED ?? 0);
const W = 1400,
  H = 760;
const out = path.join(os.tmpdir(), "lingoscan-render-bench");
mkdirSync(out, { recursive: true });
const fonts = [
  "DejaVuSans.ttf",
  "DejaVuSans-Bold.ttf",
  "DejaVuSerif.ttf",
  "DejaVuSerif-Bold.ttf",
  "DejaVuSansMono.ttf",
  "DejaVuSansMono-Bold.ttf",
].map((f) => path.join(root, "node_modules/dejavu-fonts-ttf/ttf", f));
const PHOTO_DIRS = ["/usr/share/backgrounds/mate/nature", "/usr/share/backgrounds/gnome"];
const photos = PHOTO_DIRS.filter(existsSync).flatMap((d) =>
  readdirSync(d)
    .filter((f) => /\.jpe?g$/i.test(f))
    .map((f) => path.join(d, f)),
);
if (photos.length === 0)
  throw new Error(`No photographs in ${PHOTO_DIRS.join(" or ")}: install them with \`apt-get install mate-backgrounds\`.`);

const png = (svg) =>
  new Resvg(svg, { font: { fontFiles: fonts, loadSystemFonts: false, defaultFontFamily: "DejaVu Sans" } }).render().asPng();

function rgba(bytes) {
  const img = PhotonImage.new_from_byteslice(bytes);
  try {
    return { width: img.get_width(), height: img.get_height(), data: img.get_raw_pixels() };
  } finally {
    img.free();
  }
}

/** A W×H crop of photograph `file` (scaled up first when smaller), as PNG bytes and RGBA. */
function photoCrop(file, seed) {
  let img = PhotonImage.new_from_byteslice(readFileSync(file));
  const scale = Math.max(W / img.get_width(), H / img.get_height(), 0.6);
  const sw = Math.max(W, Math.round(img.get_width() * scale)),
    sh = Math.max(H, Math.round(img.get_height() * scale));
  const scaled = resize(img, sw, sh, SamplingFilter.Lanczos3);
  img.free();
  const x = Math.floor(((seed * 0.37) % 1) * (sw - W)),
    y = Math.floor(((seed * 0.61) % 1) * (sh - H));
  const c = crop(scaled, x, y, x + W, y + H);
  scaled.free();
  try {
    return { bytes: c.get_bytes(), pixels: { width: W, height: H, data: c.get_raw_pixels() } };
  } finally {
    c.free();
  }
}

/** Mean luma of a band of rows of an RGBA image. */
function bandLuma(img, y0, y1) {
  let s = 0,
    n = 0;
  for (let y = Math.max(0, y0); y < Math.min(img.height, y1); y += 2) {
    for (let x = 0; x < img.width; x += 4) {
      const i = (y * img.width + x) * 4;
      s += img.data[i] * 0.299 + img.data[i + 1] * 0.587 + img.data[i + 2] * 0.114;
      n++;
    }
  }
  return s / Math.max(1, n);
}

/** The set: [kind, scene] pairs; photographs get text colours that read on their crop. */
function pages() {
  const set = [
    [
      "two-tone (report page)",
      {
        page: svgPage(W, H, SPLIT_PAGE.background, SPLIT_PAGE.lines),
        background: svgPage(W, H, SPLIT_PAGE.background, []),
        lines: SPLIT_PAGE.lines,
      },
    ],
  ];
  for (const kind of Object.keys(BACKGROUNDS).filter((k) => k !== "photo"))
    for (let i = 0; i < 4; i++) set.push([kind, plateScene(kind, i, W, H)]);
  photos.slice(0, 12).forEach((file, i) => {
    const { bytes, pixels } = photoCrop(file, i + 1 + SEED);
    const bg = `<image width="${W}" height="${H}" href="data:image/png;base64,${Buffer.from(bytes).toString("base64")}"/>`;
    const s = plateScene("photo", i + SEED, W, H, bg);
    for (const l of s.lines)
      l.color = bandLuma(pixels, l.y - l.size, l.y + l.size * 0.3) < 128 ? (i % 2 ? "#ffd23f" : "#ffffff") : i % 2 ? "#5a0f2e" : "#111111";
    set.push([
      "photo",
      { page: svgPage(W, H, bg, s.lines), background: s.background, lines: s.lines, jpeg: i % 2 === 1, photo: path.basename(file) },
    ]);
  });
  return set;
}

/** Tight boxes of each drawn line: where the page differs from its true background. */
function lineBoxes(page, truth, lines) {
  return lines
    .map((l) => {
      let x0 = Infinity,
        y0 = Infinity,
        x1 = -1,
        y1 = -1;
      for (let y = Math.max(0, Math.floor(l.y - l.size * 1.1)); y < Math.min(H, l.y + l.size * 0.45); y++) {
        for (let x = 0; x < W; x++) {
          const i = (y * W + x) * 4;
          if (
            Math.max(
              Math.abs(page.data[i] - truth.data[i]),
              Math.abs(page.data[i + 1] - truth.data[i + 1]),
              Math.abs(page.data[i + 2] - truth.data[i + 2]),
            ) <= 30
          )
            continue;
          x0 = Math.min(x0, x);
          y0 = Math.min(y0, y);
          x1 = Math.max(x1, x);
          y1 = Math.max(y1, y);
        }
      }
      return x1 < 0 ? null : { x: x0 - 3, y: y0 - 3, w: x1 - x0 + 7, h: y1 - y0 + 7 };
    })
    .filter(Boolean);
}

function meanDiff(a, b, boxes) {
  let sum = 0,
    n = 0;
  for (const box of boxes) {
    for (let y = Math.max(0, box.y); y < Math.min(a.height, box.y + box.h); y++) {
      for (let x = Math.max(0, box.x); x < Math.min(a.width, box.x + box.w); x++) {
        const i = (y * a.width + x) * 4;
        for (let c = 0; c < 3; c++) sum += Math.abs(a.data[i + c] - b.data[i + c]);
        n += 3;
      }
    }
  }
  return sum / Math.max(1, n);
}

/**
 * Where the clean plate's error lies, as a share of the MAD: on the text's solid pixels (input
 * more than 30 off the true background), on its edges (anti-aliasing, JPEG ringing: 8–30 off) or
 * on background the text never touched (≤ 8: fill spilling over real background); and the share of
 * the solid pixels left exactly as they were (missed by the mask).
 */
function errorParts(page, clean, truth, boxes) {
  const part = { solid: 0, edge: 0, background: 0, missed: 0, solidPixels: 0 };
  let n = 0;
  for (const box of boxes) {
    for (let y = Math.max(0, box.y); y < Math.min(truth.height, box.y + box.h); y++) {
      for (let x = Math.max(0, box.x); x < Math.min(truth.width, box.x + box.w); x++) {
        const i = (y * truth.width + x) * 4;
        let din = 0,
          err = 0,
          same = true;
        for (let c = 0; c < 3; c++) {
          din = Math.max(din, Math.abs(page.data[i + c] - truth.data[i + c]));
          err += Math.abs(clean.data[i + c] - truth.data[i + c]);
          if (Math.abs(clean.data[i + c] - page.data[i + c]) > 2) same = false;
        }
        n += 3;
        if (din > 30) {
          part.solid += err;
          part.solidPixels++;
          if (same) part.missed++;
        } else if (din > 8) part.edge += err;
        else part.background += err;
      }
    }
  }
  return {
    solid: part.solid / Math.max(1, n),
    edge: part.edge / Math.max(1, n),
    background: part.background / Math.max(1, n),
    missed: part.missed / Math.max(1, part.solidPixels),
  };
}

const POOL =
  "el la de que y en los del se las por un para con una su al lo como más pero sus le ya o este sí porque esta entre cuando muy sin sobre también me hasta hay donde quien desde todo nos durante todos uno les ni contra otros ese eso ante ellos".split(
    " ",
  );
/** A pseudo-translation of about `ratio` × the characters the region's lines hold (0.55 em a character). */
function translation(lines, ratio, seed) {
  const want = Math.round(lines.reduce((s, l) => s + l.w / (0.55 * l.h), 0) * ratio);
  const words = [];
  for (let k = 0; words.join(" ").length < want; k++) words.push(POOL[(seed * 7 + k * 13) % POOL.length]);
  const s = words.join(" ");
  return s[0].toUpperCase() + s.slice(1) + ".";
}

const RATIOS = [0.8, 1.0, 1.3, 1.6];
const only = process.env.RENDER_KINDS?.split(",").map((k) => k.trim());
const pick = process.env.RENDER_PAGES?.split(",").map(Number);
const set = pages().filter(([kind], i) => (!only || only.some((k) => kind.startsWith(k))) && (!pick || pick.includes(i)));
const engine = await startEngine();
const rows = [];
const kinds = {};
const overflow = { fitted: 0, shrunk: 0, overflowing: 0 };
const flaggedText = [];
let splitMs = null;
let splitStages = {};
try {
  for (const [i, [kind, p]] of set.entries()) {
    let bytes = png(p.page);
    if (p.jpeg) {
      const img = PhotonImage.new_from_byteslice(bytes);
      bytes = img.get_bytes_jpeg(85);
      img.free();
    }
    const page = rgba(bytes);
    const truth = rgba(png(p.background));
    await engine.files.put(`uploads/b/${i}`, bytes);
    const pre = await engine.call("preprocess", {
      sourceKey: `uploads/b/${i}`,
      page: 0,
      outKey: `b/${i}/page.png`,
      languages: ["eng"],
      ...(process.env.RENDER_PAGE_KIND ? { pageKind: process.env.RENDER_PAGE_KIND } : {}),
    });
    const det = await engine.call("detect", { pageKey: pre.key, outKey: `b/${i}/layout.json` });
    const layout = await (await engine.files.get(det.key)).json();
    const regions = layout.blocks.map((b) => ({ box: b.box, lines: b.items.map((l) => l.box), vertical: b.vertical }));
    if (process.env.RENDER_DEBUG) console.log(JSON.stringify(regions));
    let t = performance.now();
    const cleaned = await engine.call("inpaint", {
      pageKey: pre.key,
      sourceKey: `uploads/b/${i}`,
      page: 0,
      regions,
      maskKey: `b/${i}/mask.png`,
      cleanKey: `b/${i}/clean.png`,
      languages: ["eng"],
    });
    const inpaintWall = performance.now() - t;
    const ratio = RATIOS[i % RATIOS.length];
    t = performance.now();
    const typeset = await engine.call("typeset", {
      backgroundKey: cleaned.cleanKey,
      outKey: `b/${i}/render.png`,
      regions: regions.map((r, k) => ({
        box: r.box,
        lines: r.lines,
        text: translation(r.lines, ratio, i * 10 + k),
        style: cleaned.regions[k].style,
      })),
    });
    const typesetWall = performance.now() - t;
    const cleanBytes = new Uint8Array(await (await engine.files.get(cleaned.cleanKey)).arrayBuffer());
    const clean = rgba(cleanBytes);
    const boxes = lineBoxes(rgba(png(p.page)), truth, p.lines);
    const after = meanDiff(clean, truth, boxes),
      before = meanDiff(page, truth, boxes);
    const parts = errorParts(page, clean, truth, boxes);
    // Independent leftover check: OCR of the whole clean plate.
    // A plate with ink but nothing readable answers no_text_found: nothing read back.
    const again = await engine
      .call("recognize", { pageKey: cleaned.cleanKey, languages: ["eng"], outKey: `b/${i}/again.json` })
      .catch((err) => {
        if (String(err.message).includes("[no_text_found]")) return null;
        throw err;
      });
    const againText = again ? (await (await engine.files.get(again.key)).json()).text.replace(/\s+/g, "") : "";
    const k = (kinds[kind] ??= { pages: 0, regions: 0, lines: 0, leftover: 0, smear: 0, readable: 0, after: [], before: [], parts: [] });
    k.pages++;
    k.regions += cleaned.regions.length;
    k.lines += p.lines.length;
    k.leftover += cleaned.regions.filter((r) => r.leftover).length;
    k.smear += cleaned.regions.filter((r) => r.smear).length;
    if (againText.length) k.readable++;
    k.after.push(after);
    k.before.push(before);
    k.parts.push(parts);
    for (const r of cleaned.regions.filter((x) => x.leftover))
      flaggedText.push(`page ${i} (${kind}${p.photo ? `, ${p.photo}` : ""}): "${r.leftoverText}"`);
    for (const r of typeset.regions) overflow[r.overflow]++;
    if (kind.startsWith("two-tone (")) {
      // The first page also pays for the isolate's warm-up (wasm compilation, JIT): the report page
      // is erased three times more and the median of those is its time.
      const again = [];
      for (let k = 0; k < 3; k++)
        again.push(
          await engine.call("inpaint", {
            pageKey: pre.key,
            sourceKey: `uploads/b/${i}`,
            page: 0,
            regions,
            maskKey: `b/${i}/mask-${k}.png`,
            cleanKey: `b/${i}/clean-${k}.png`,
            languages: ["eng"],
          }),
        );
      const mid = again.sort((a, b) => a.ms.inpaint - b.ms.inpaint)[1].ms;
      splitMs = mid.inpaint;
      splitStages = mid.stages ?? {};
    }
    rows.push({
      i,
      kind,
      inpaint: cleaned.ms.inpaint,
      stages: cleaned.ms.stages ?? {},
      check: cleaned.ms.check,
      inpaintWall,
      typeset: typeset.ms,
      typesetWall,
    });
    const name = `${String(i).padStart(2, "0")}-${kind.split(" ")[0]}`;
    writeFileSync(path.join(out, `${name}-page.${p.jpeg ? "jpg" : "png"}`), bytes);
    writeFileSync(path.join(out, `${name}-clean.png`), cleanBytes);
    writeFileSync(path.join(out, `${name}-render.png`), new Uint8Array(await (await engine.files.get(typeset.key)).arrayBuffer()));
    console.log(
      `${name.padEnd(22)} regions ${String(cleaned.regions.length).padStart(2)}  leftover ${cleaned.regions.filter((r) => r.leftover).length}  smear ${cleaned.regions.filter((r) => r.smear).length}  MAD clean ${after.toFixed(2).padStart(6)}  input ${before.toFixed(2).padStart(6)}  (solid ${parts.solid.toFixed(2)}, edges ${parts.edge.toFixed(2)}, background ${parts.background.toFixed(2)}; missed ${(100 * parts.missed).toFixed(1)} %)  inpaint ${cleaned.ms.inpaint} ms  zones read ${cleaned.textCheck.zones} (no text ${cleaned.textCheck.rejected})${againText ? `  read back: ${againText.slice(0, 40)}` : ""}`,
    );
  }
} finally {
  engine.dispose();
}
const avg = (xs) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
const pct = (n, d) => `${((100 * n) / Math.max(1, d)).toFixed(1)} %`;
const regions = Object.values(kinds).reduce((s, k) => s + k.regions, 0);
console.log(
  `\nRendering benchmark: ${set.length} pages of ${W}x${H}, ${regions} regions, photographs from ${PHOTO_DIRS.filter(existsSync).join(", ")} (samples in ${out})\n`,
);
console.log(
  "| background | pages | regions | leftover text (re-OCR check) | plates read back | smear flagged | MAD clean plate | MAD input | clean / input |",
);
console.log("|---|---|---|---|---|---|---|---|---|");
for (const [kind, k] of Object.entries(kinds)) {
  console.log(
    `| ${kind} | ${k.pages} | ${k.regions} | ${k.leftover} (${pct(k.leftover, k.regions)}) | ${k.readable}/${k.pages} | ${k.smear} | ${avg(k.after).toFixed(2)} | ${avg(k.before).toFixed(2)} | ${(avg(k.after) / avg(k.before)).toFixed(3)} |`,
  );
}
console.log("\n| background | MAD clean on solid text pixels | on text edges | on untouched background | solid pixels missed |");
console.log("|---|---|---|---|---|");
for (const [kind, k] of Object.entries(kinds))
  console.log(
    `| ${kind} | ${avg(k.parts.map((p) => p.solid)).toFixed(2)} | ${avg(k.parts.map((p) => p.edge)).toFixed(2)} | ${avg(k.parts.map((p) => p.background)).toFixed(2)} | ${(100 * avg(k.parts.map((p) => p.missed))).toFixed(1)} % |`,
  );
console.log("\n| per page (mean) | ms |");
console.log("|---|---|");
console.log(`| inpaint (mask + fill + checks + encode, engine) | ${avg(rows.map((r) => r.inpaint)).toFixed(0)} |`);
console.log(`| inpaint of the report page (1400x760, flat over gradient; warm, median of 3) | ${splitMs} |`);
const stageNames = [...new Set(rows.flatMap((r) => Object.keys(r.stages)))];
for (const st of stageNames)
  console.log(
    `| · ${st} (all pages; report page warm) | ${avg(rows.map((r) => r.stages[st] ?? 0)).toFixed(0)}; ${splitStages[st] ?? "-"} |`,
  );
console.log(`| leftover check (re-OCR of each region) | ${avg(rows.map((r) => r.check)).toFixed(0)} |`);
console.log(`| inpaint call, wall | ${avg(rows.map((r) => r.inpaintWall)).toFixed(0)} |`);
console.log(`| typeset (engine) | ${avg(rows.map((r) => r.typeset)).toFixed(0)} |`);
console.log(`| typeset call, wall | ${avg(rows.map((r) => r.typesetWall)).toFixed(0)} |`);
for (const f of flaggedText) console.log(`  flagged ${f}`);
console.log(
  `overflow: fitted ${pct(overflow.fitted, regions)}, shrunk ${pct(overflow.shrunk, regions)}, overflowing ${pct(overflow.overflowing, regions)}`,
);
reportResult("render", {
  pages: set.length,
  regions,
  inpaintMs: avg(rows.map((r) => r.inpaint)),
  splitPageMs: splitMs,
  checkMs: avg(rows.map((r) => r.check)),
  typesetMs: avg(rows.map((r) => r.typeset)),
  leftoverFlagged: Object.values(kinds).reduce((s, k) => s + k.leftover, 0),
  smearFlagged: Object.values(kinds).reduce((s, k) => s + k.smear, 0),
  readablePlates: Object.values(kinds).reduce((s, k) => s + k.readable, 0),
  overflow,
  plates: Object.fromEntries(
    Object.entries(kinds).map(([kind, k]) => [
      kind,
      { regions: k.regions, leftover: k.leftover, clean: avg(k.after), input: avg(k.before) },
    ]),
  ),
});
