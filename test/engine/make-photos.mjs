// Makes the phone-photo captures of photos.test.ts (test/fixtures/pictures/photo-*.jpg) from page 1
// of test/fixtures/real/ocrmypdf_linn.pdf (a 300 dpi scan): `node test/engine/make-photos.mjs`.
// The page is rendered with `pdftoppm -r 300 -gray -png` (poppler-utils), then made into camera-like
// captures by test/bench/camera-captures.mjs (ImageMagick; deterministic: noise and corner offsets come
// from a seed derived from "linn" and the kind), with the page's long side 1 700 px in the photo, a
// lighter sensor noise (0.1) and a 0.6 px blur (which keep the JPEGs small), JPEG quality 85:
//  - photo-angled.jpg:  the "strong" recipe (perspective on a table, a 10 % margin of table) with the
//                       corners where a pinhole camera sees them (ANGLED below: the page tilted 12°
//                       about its horizontal axis, turned 10° about its vertical one and 3° in its
//                       plane, focal length 0.96 × the page's height, the quadrilateral centred in the
//                       photo): every corner moves 3–8 % of the page's width or height, and the page's
//                       proportions can be recovered from its outline (independent random moves of
//                       the corners, as the bench makes, are in general no view a camera could take
//                       of a rectangle);
//  - photo-shading.jpg: the "shading" recipe (mild perspective on a table, light falling linearly
//                       from 1.0 at the page's top-left corner to 0.45 at its bottom-right one);
//  - photo-curl.jpg:    the "curl" recipe (lines bending up near the right edge, by up to 2.5 % of
//                       the page's height; mild perspective on a table).
// and from the colour comic page test/fixtures/pictures/ctd_006013.jpg, its long side 1 400 px:
//  - photo-comic.jpg:   the "mild" recipe (corners moved 1–3 %, on a table), in colour;
//  - photo-comic-shading.jpg: the "shading" recipe (mild perspective, light 1.0 → 0.45 across the page);
//  - photo-comic-angled.jpg: the "strong" recipe with a camera's corners (COMIC_ANGLED below: tilted
//                       20°, turned 15°, rolled 6°, focal length 0.9 × the page's height), in colour.
// and from the comic prose page test/fixtures/pictures/ctd_006014.jpg, its long side 1 400 px:
//  - photo-prose-shadow.jpg: the "shadow" recipe (mild perspective, a hard band of shadow at 0.55 of
//                       the light across the title illustration and two columns).
// Prints each capture's size and page corners (photo-angled's are the test's true corners).
import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { makeCapture } from "../bench/camera-captures.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const pictures = path.join(here, "../fixtures/pictures");
const LONG_SIDE = 1700;
const COMIC_LONG_SIDE = 1400;
const ANGLED = { tilt: 12, turn: 10, roll: 3, focal: 0.96 };
/** The angled comic photo's camera: the page tilted 20°, turned 15° and rolled 6°, seen from closer than the report page. */
const COMIC_ANGLED = { tilt: 20, turn: 15, roll: 6, focal: 0.9 };
/** `node test/engine/make-photos.mjs photo-comic-angled.jpg` makes that one capture only. */
const only = process.argv[2];

/**
 * The corner moves (shares of the page's width and height, TL, TR, BR, BL) of a `w` x `h` page seen by
 * a pinhole camera aimed at its centre, the page rotated by `tilt` (about x), `turn` (about y) and
 * `roll` (about the view axis) degrees; scaled to the page's area and centred where the page was.
 */
function cameraMoves(w, h, { tilt, turn, roll, focal }) {
  const rad = (d) => (d * Math.PI) / 180;
  const [a, b, c] = [rad(tilt), rad(turn), rad(roll)];
  const rotate = ([x, y, z]) => {
    [y, z] = [y * Math.cos(a) - z * Math.sin(a), y * Math.sin(a) + z * Math.cos(a)];
    [x, z] = [x * Math.cos(b) + z * Math.sin(b), -x * Math.sin(b) + z * Math.cos(b)];
    [x, y] = [x * Math.cos(c) - y * Math.sin(c), x * Math.sin(c) + y * Math.cos(c)];
    return [x, y, z];
  };
  const f = focal * h;
  const flat = [
    [-w / 2, -h / 2],
    [w / 2, -h / 2],
    [w / 2, h / 2],
    [-w / 2, h / 2],
  ];
  let seen = flat.map(([x, y]) => {
    const [X, Y, Z] = rotate([x, y, 0]);
    return [(f * X) / (Z + f), (f * Y) / (Z + f)];
  });
  const area = Math.abs(seen.reduce((s, [x, y], i) => s + x * seen[(i + 1) % 4][1] - y * seen[(i + 1) % 4][0], 0)) / 2;
  const k = Math.sqrt((w * h) / area);
  const cx = seen.reduce((s, p) => s + p[0], 0) / 4;
  const cy = seen.reduce((s, p) => s + p[1], 0) / 4;
  seen = seen.map(([x, y]) => [(x - cx) * k, (y - cy) * k]);
  return seen.map(([x, y], i) => [(x - flat[i][0]) / w, (y - flat[i][1]) / h]);
}

const work = mkdtempSync(path.join(os.tmpdir(), "lingoscan-photos-"));
try {
  const stem = path.join(work, "linn");
  const r = spawnSync("pdftoppm", [
    "-r",
    "300",
    "-gray",
    "-png",
    "-singlefile",
    path.join(here, "../fixtures/real/ocrmypdf_linn.pdf"),
    stem,
  ]);
  if (r.status !== 0) throw new Error(`pdftoppm: ${r.stderr}`);
  const page = `${stem}.png`;
  // The page's size in the photo, as makeCapture computes it (2550 x 3300 at 300 dpi).
  const [W0, H0] = [2550, 3300];
  const s = LONG_SIDE / Math.max(W0, H0);
  const moves = cameraMoves(Math.round(W0 * s), Math.round(H0 * s), ANGLED);
  const common = { blur: 0.6, noise: 0.1, quality: 85 };
  const photos = [
    { name: "photo-angled.jpg", kind: "strong", tweaks: { ...common, moves, margin: 0.1 } },
    { name: "photo-shading.jpg", kind: "shading", tweaks: common },
    { name: "photo-curl.jpg", kind: "curl", tweaks: { ...common, curl: 0.025 } },
  ];
  for (const p of photos) {
    if (only && p.name !== only) continue;
    const out = path.join(pictures, p.name);
    const cap = makeCapture(page, p.kind, out, { work, seedName: "linn", longSide: LONG_SIDE, tweaks: p.tweaks });
    const kb = Math.round(statSync(out).size / 1024);
    console.log(`${p.name}: ${cap.width}x${cap.height}, ${kb} KB, corners ${JSON.stringify(cap.corners)}`);
  }
  // A photographed comic page: the "mild" and the "shading" recipes on the colour page, its long side
  // 1 400 px, and the "strong" one with a camera's corners (COMIC_ANGLED).
  const [CW, CH] = [845, 1280].map((v) => Math.round((v * COMIC_LONG_SIDE) / 1280));
  const comicMoves = cameraMoves(CW, CH, COMIC_ANGLED);
  for (const [name, kind, tweaks] of [
    ["photo-comic.jpg", "mild", common],
    ["photo-comic-shading.jpg", "shading", common],
    ["photo-comic-angled.jpg", "strong", { ...common, moves: comicMoves, margin: 0.1 }],
  ]) {
    if (only && name !== only) continue;
    const out = path.join(pictures, name);
    const cap = makeCapture(path.join(pictures, "ctd_006013.jpg"), kind, out, {
      work,
      seedName: "006013",
      longSide: COMIC_LONG_SIDE,
      tweaks,
    });
    console.log(`${name}: ${cap.width}x${cap.height}, ${Math.round(statSync(out).size / 1024)} KB, corners ${JSON.stringify(cap.corners)}`);
  }
  // A photographed prose page under a hard shadow: the "shadow" recipe on the comic prose page, the
  // band crossing its title illustration and two of its columns.
  if (!only || only === "photo-prose-shadow.jpg") {
    const out = path.join(pictures, "photo-prose-shadow.jpg");
    const cap = makeCapture(path.join(pictures, "ctd_006014.jpg"), "shadow", out, {
      work,
      seedName: "006014",
      longSide: COMIC_LONG_SIDE,
      tweaks: common,
    });
    console.log(
      `photo-prose-shadow.jpg: ${cap.width}x${cap.height}, ${Math.round(statSync(out).size / 1024)} KB, corners ${JSON.stringify(cap.corners)}`,
    );
  }
  console.log(`angled moves (% of w, h): ${JSON.stringify(moves.map((m) => m.map((v) => +(100 * v).toFixed(1))))}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
