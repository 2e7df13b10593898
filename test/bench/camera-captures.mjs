// Phone-photo "captures" of a flat page, made with ImageMagick, for the camera bench (camera.mjs).
// Deterministic: every random choice (corner offsets, noise) comes from a seed derived from the page
// and capture names. The page is placed so its long side is about PAGE_LONG_SIDE pixels in the photo
// (what a phone gives for a page that fills most of the frame). Kinds:
//  - mild:    corners moved 1–3 % of the page, on a table (brownish grey, grained), JPEG q90;
//  - strong:  corners moved 6–10 %, on the table, blur 0.8 px, JPEG q80;
//  - shading: mild perspective, light falling from 1.0 to 0.45 across the page, JPEG q85;
//  - shadow:  mild perspective, a diagonal band of hard shadow (0.55, edge blurred 1.5 px), JPEG q85;
//  - curl:    a book-page curl near the right edge (lines bend by up to 2 % of the page height, the
//             curled part foreshortened and shaded to 0.7), mild perspective, JPEG q85;
//  - nobg:    corners moved 3–5 %, white around the page (no visible edge), light 1.0 → 0.6, blur 0.6 px,
//             JPEG q75 (what a crude simulation does).
import { spawnSync } from "node:child_process";
import path from "node:path";

export const CAPTURES = ["mild", "strong", "shading", "shadow", "curl", "nobg"];
export const PAGE_LONG_SIDE = 2400;

const KINDS = {
  mild: { move: [0.01, 0.03], margin: 0.07, quality: 90 },
  strong: { move: [0.06, 0.1], margin: 0.13, blur: 0.8, quality: 80 },
  shading: { move: [0.01, 0.03], margin: 0.07, light: 0.45, quality: 85 },
  shadow: { move: [0.01, 0.03], margin: 0.07, shadow: 0.55, quality: 85 },
  curl: { move: [0.01, 0.03], margin: 0.07, curl: 0.02, quality: 85 },
  nobg: { move: [0.03, 0.05], margin: 0, white: true, light: 0.6, blur: 0.6, quality: 75 },
};

/** Runs a tool (one thread for tesseract), its output as bytes or, with `encoding`, text; its first error line on failure. */
export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { maxBuffer: 512 * 2 ** 20, env: { ...process.env, OMP_THREAD_LIMIT: "1" }, ...opts });
  if (r.status !== 0)
    throw new Error(
      `${cmd} ${args.join(" ")}: ${
        String(r.stderr ?? r.error)
          .trim()
          .split("\n")[0]
      }`,
    );
  return r.stdout;
}

/** A small deterministic generator (mulberry32) seeded by a string. */
export function rng(name) {
  let a = 2166136261;
  for (const c of name) a = Math.imul(a ^ c.charCodeAt(0), 16777619) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const size = (file) =>
  run("identify", ["-format", "%w %h", `${file}[0]`], { encoding: "utf8" })
    .trim()
    .split(" ")
    .map(Number);
const f1 = (x) => x.toFixed(1);

/**
 * Makes one capture of `src` (a flat page image, ideally 300 dpi) as the JPEG `out`; scratch files go
 * to `work`. `longSide` (default PAGE_LONG_SIDE) is the page's long side in the photo; `tweaks`
 * replace settings of the kind (`move` or `moves`, `margin`, `light`, `curl`, `blur`, `noise`,
 * `quality`: the test fixtures of test/engine/make-photos.mjs). Returns { file, width, height,
 * corners } (the page's corners in the photo, clockwise from the top left).
 */
export function makeCapture(src, kind, out, { work, seedName, longSide = PAGE_LONG_SIDE, tweaks = {} }) {
  if (!KINDS[kind]) throw new Error(`unknown capture ${kind}`);
  const k = { ...KINDS[kind], ...tweaks };
  const rand = rng(`${seedName}/${kind}`);
  const seed = String(Math.floor(rand() * 1e6));
  const between = ([lo, hi]) => lo + (hi - lo) * rand();
  const sign = () => (rand() < 0.5 ? -1 : 1);
  const stem = path.join(work, `${path.basename(out).replace(/\.[^.]+$/, "")}`);

  const [W0, H0] = size(src);
  const s = longSide / Math.max(W0, H0);
  const w = Math.round(W0 * s);
  const h = Math.round(H0 * s);
  const M = Math.round(k.margin * Math.max(w, h));
  const CW = w + 2 * M;
  const CH = h + 2 * M;
  // Corners moved by a share of the page's width (x) and height (y), in either direction; with no
  // margin (nobg) an outward move crops the page at the photo's edge, an inward one leaves white.
  // `moves` (a tweak): the four moves given, as shares of the width and height, instead.
  const corners = [
    [M, M],
    [M + w, M],
    [M + w, M + h],
    [M, M + h],
  ].map(([x, y], i) =>
    k.moves ? [x + k.moves[i][0] * w, y + k.moves[i][1] * h] : [x + sign() * between(k.move) * w, y + sign() * between(k.move) * h],
  );
  // The curl bends the page within a transparent band of `pad` rows above and below it.
  const pad = k.curl ? Math.ceil(k.curl * H0) + 4 : 0;
  const srcCorners = [
    [0, pad],
    [W0, pad],
    [W0, H0 + pad],
    [0, H0 + pad],
  ];
  const persp = srcCorners.map(([x, y], i) => `${x},${y} ${f1(corners[i][0])},${f1(corners[i][1])}`).join("  ");

  // The page as paper: a warm off-white (paper under room light is never 255), and the curl.
  const page = `${stem}.page.png`;
  const pageArgs = [src, "-alpha", "off", "-colorspace", "sRGB", "-type", "TrueColor"];
  pageArgs.push("-channel", "R", "-evaluate", "multiply", "0.95", "-channel", "G", "-evaluate", "multiply", "0.93");
  pageArgs.push("-channel", "B", "-evaluate", "multiply", "0.88", "+channel");
  if (k.curl) {
    // Curl: from x0 to the right edge the lookup moves by t² (t = 0 at x0, 1 at the edge): down by up
    // to curl·H (the lines bend up) and right by 1.2 % of W (the curled part is foreshortened);
    // shaded to 0.7 at the edge. The maps are one row, computed with -fx, stretched to the page.
    const map = `${stem}.curl-map.png`;
    const shade = `${stem}.curl-shade.png`;
    const t = `pow(max(0,(i-${0.55 * W0})/${0.45 * W0}),2)`;
    run("convert", ["-size", `${W0}x1`, "xc:", "-fx", `0.5+0.5*${t}`, "-scale", `${W0}x${H0 + 2 * pad}!`, map]);
    run("convert", ["-size", `${W0}x1`, "xc:", "-fx", `1-0.3*${t}`, "-scale", `${W0}x${H0}!`, shade]);
    // Shaded first (the shade moves with the paper), then given a transparent band above and below
    // (room for the top edge to rise), then bent; what the lookup finds beyond the page is transparent.
    pageArgs.push(shade, "-compose", "multiply", "-composite");
    pageArgs.push("-alpha", "set", "-bordercolor", "none", "-compose", "copy", "-border", `0x${pad}`);
    pageArgs.push("-virtual-pixel", "transparent", map);
    pageArgs.push("-define", `compose:args=${f1(0.012 * W0)}x${f1(k.curl * H0)}`, "-compose", "displace", "-composite");
  }
  pageArgs.push("-alpha", "set", "-virtual-pixel", k.white ? "white" : "transparent");
  pageArgs.push("-define", `distort:viewport=${CW}x${CH}+0+0`, "-distort", "Perspective", persp, "+repage", page);
  run("convert", pageArgs);

  const args = [];
  if (k.white) args.push("-size", `${CW}x${CH}`, "xc:white", page, "-compose", "over", "-composite");
  else {
    // The table: brownish grey, a grain drawn at a quarter of the size and stretched, light falling off
    // towards the bottom.
    const q = (n) => Math.max(1, Math.round(n / 4));
    args.push("(", "-size", `${q(CW)}x${q(CH)}`, "xc:#6f6052", "-seed", seed, "-attenuate", "0.9", "+noise", "Gaussian");
    args.push("-motion-blur", "0x8+10", "-resize", `${CW}x${CH}!`, ")");
    args.push("(", "-size", `${CW}x${CH}`, "gradient:gray95-gray65", ")", "-compose", "multiply", "-composite");
    args.push(page, "-compose", "over", "-composite");
  }
  if (k.light) {
    // Light falling linearly across the page, from its top-left corner (1.0) to its bottom-right (light).
    const [a, , c] = corners;
    const g = Math.round(255 * k.light);
    args.push("(", "-size", `${CW}x${CH}`, "xc:white", "-sparse-color", "Barycentric");
    args.push(`${f1(a[0])},${f1(a[1])} white ${f1(c[0])},${f1(c[1])} rgb(${g},${g},${g})`, ")");
    args.push("-compose", "multiply", "-composite");
  }
  if (k.shadow) {
    // A diagonal band of shadow across the page (a phone's or a hand's), hard-edged: from 45–70 % of
    // the top edge down to 5–30 % of the bottom edge.
    const at = (u, v) => {
      // A point of the page (u, v in 0..1) in the photo, by bilinear interpolation of the corners.
      const [p0, p1, p2, p3] = corners;
      const x = (1 - v) * ((1 - u) * p0[0] + u * p1[0]) + v * ((1 - u) * p3[0] + u * p2[0]);
      const y = (1 - v) * ((1 - u) * p0[1] + u * p1[1]) + v * ((1 - u) * p3[1] + u * p2[1]);
      return `${f1(x)},${f1(y)}`;
    };
    const g = Math.round(255 * k.shadow);
    const poly = [at(0.45, -0.1), at(0.7, -0.1), at(0.3, 1.1), at(0.05, 1.1)].join(" ");
    args.push("(", "-size", `${CW}x${CH}`, "xc:white", "-fill", `rgb(${g},${g},${g})`, "-draw", `polygon ${poly}`);
    args.push("-blur", "0x1.5", ")", "-compose", "multiply", "-composite");
  }
  // A camera's sensor noise, then its blur, then its JPEG.
  args.push("-seed", seed, "-attenuate", String(k.noise ?? 0.25), "+noise", "Gaussian");
  if (k.blur) args.push("-blur", `0x${k.blur}`);
  args.push("-sampling-factor", "2x2", "-quality", String(k.quality), "-strip", out);
  run("convert", args);
  const [width, height] = size(out);
  return { file: out, width, height, corners: corners.map(([x, y]) => [Math.round(x), Math.round(y)]) };
}
