import { bilinearTaps, downscaleGray, type GrayImage } from "./gray";
import { closeBright } from "./morphology";

/** The page's paper is estimated on a grid this many cells along its longer side. */
const CELLS = 40;
/** In each cell, the paper is its pixels' 95th percentile: print rarely covers 5 % of a cell. */
const PAPER_PERCENTILE = 0.95;
/** A cell holds print when its darkest 5 % lie below 60 % of its paper. */
const PRINT_PERCENTILE = 0.05;
const PRINT_CONTRAST = 0.6;
/** Fewer cells with print than this and the light is not judged. */
const MIN_PRINT_CELLS = 12;
/** Light that varies by this much (gray levels, 10th to 90th percentile of the paper under print) is uneven. */
const UNEVEN_FROM = 30;
/** The paper's edges (a shadow's) are followed on a copy this long, print closed away within this radius. */
const FINE_SIDE = 800;
const FINE_CLOSE = 3;
/** A cell whose light is below this share of the brightest paper near it is not paper. */
const NON_PAPER_BELOW = 0.45;
/** Paper darker than this is not divided up to white: it is a dark area, not a dim one. */
const DARKEST_PAPER = 48;

/**
 * Per cell of a `cols` x `rows` grid: the paper's brightness (the cell's 95th percentile) and
 * whether print lies on it (its 5th percentile well below the paper).
 */
function paperGrid(img: GrayImage, cell: number, cols: number, rows: number): { paper: Float32Array; print: Uint8Array } {
  const { width: w, height: h, data } = img;
  const hist = new Uint32Array(cols * rows * 256);
  for (let y = 0; y < h; y++) {
    const base = Math.min(rows - 1, Math.floor(y / cell)) * cols;
    const row = y * w;
    for (let x = 0; x < w; x++) hist[(base + Math.min(cols - 1, Math.floor(x / cell))) * 256 + data[row + x]!]!++;
  }
  const paper = new Float32Array(cols * rows);
  const print = new Uint8Array(cols * rows);
  for (let c = 0; c < cols * rows; c++) {
    let total = 0;
    for (let v = 0; v < 256; v++) total += hist[c * 256 + v]!;
    let acc = 0;
    let dark = -1;
    let v = 0;
    for (; v < 255 && (acc += hist[c * 256 + v]!) < PAPER_PERCENTILE * total; v++)
      if (dark < 0 && acc >= PRINT_PERCENTILE * total) dark = v;
    paper[c] = v;
    print[c] = dark >= 0 && dark <= PRINT_CONTRAST * v ? 1 : 0;
  }
  return { paper, print };
}

/** The brightest value of a grid within `reach` cells of each cell (a square window). */
function nearMax(grid: Float32Array, cols: number, rows: number, reach: number): Float32Array {
  const out = new Float32Array(grid.length);
  for (let y = 0; y < rows; y++)
    for (let x = 0; x < cols; x++) {
      let most = 0;
      for (let yy = Math.max(0, y - reach); yy <= Math.min(rows - 1, y + reach); yy++)
        for (let xx = Math.max(0, x - reach); xx <= Math.min(cols - 1, x + reach); xx++) most = Math.max(most, grid[yy * cols + xx]!);
      out[y * cols + x] = most;
    }
  return out;
}

/**
 * Cells far darker than the brightest paper near them (within two cells), and the cells as dark
 * joined to them, are not paper: a photo, a dark box, the scanner's lid beside the page. Lamplight falls off over many cells and even a hard
 * shadow keeps half the light; these are filled from the paper cells around them, so dividing by
 * the paper leaves them dark.
 */
function fillNonPaper(grid: Float32Array, cols: number, rows: number): Float32Array {
  const out = Float32Array.from(grid);
  const near = nearMax(grid, cols, rows, 2);
  const known = Uint8Array.from(grid, (v, i) => (v >= NON_PAPER_BELOW * near[i]! ? 1 : 0));
  // A dark area wider than the window is not paper in its middle either: grown from its rim over
  // cells as dark as their neighbour and, as its rim is, far darker than the paper beside the rim.
  // Without that bound the growth crept up 10 % a cell from a figure's dark part across a hard
  // shadow touching it (0.55 of the light), which was then taken for a dark area and left dark.
  const paperBeside = Float32Array.from(near);
  const stack: number[] = [];
  for (let i = 0; i < grid.length; i++) if (!known[i]) stack.push(i);
  while (stack.length > 0) {
    const i = stack.pop()!;
    const x = i % cols;
    for (const j of [x > 0 ? i - 1 : -1, x < cols - 1 ? i + 1 : -1, i - cols, i + cols]) {
      if (j < 0 || j >= grid.length || !known[j] || grid[j]! > grid[i]! * 1.1 + 4 || grid[j]! >= NON_PAPER_BELOW * paperBeside[i]!)
        continue;
      known[j] = 0;
      paperBeside[j] = paperBeside[i]!;
      stack.push(j);
    }
  }
  // Grown inwards from the paper: each pass fills the unknown cells that touch known ones.
  for (let changed = true; changed;) {
    changed = false;
    const fresh: number[] = [];
    for (let i = 0; i < grid.length; i++) {
      if (known[i]) continue;
      const x = i % cols;
      let sum = 0;
      let n = 0;
      for (const j of [x > 0 ? i - 1 : -1, x < cols - 1 ? i + 1 : -1, i - cols, i + cols])
        if (j >= 0 && j < grid.length && known[j]) ((sum += out[j]!), n++);
      if (n > 0) ((out[i] = sum / n), fresh.push(i));
    }
    for (const i of fresh) known[i] = 1;
    changed = fresh.length > 0;
  }
  return out;
}

/** 3 x 3 median of a grid: a cell inside a figure or a dark box takes its neighbours' paper; a shadow's edge stays. */
function median3(grid: Float32Array, cols: number, rows: number): Float32Array {
  const out = new Float32Array(grid.length);
  const window: number[] = [];
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      window.length = 0;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const yy = y + dy;
          const xx = x + dx;
          if (yy >= 0 && xx >= 0 && yy < rows && xx < cols) window.push(grid[yy * cols + xx]!);
        }
      window.sort((a, b) => a - b);
      out[y * cols + x] = window[window.length >> 1]!;
    }
  }
  return out;
}

/** How much the paper under print varies (10th to 90th percentile); 0 when too little of the page holds print. */
function spread(grid: Float32Array, print: Uint8Array): number {
  const sorted = Array.from(grid.filter((_, i) => print[i])).sort((a, b) => a - b);
  if (sorted.length < MIN_PRINT_CELLS) return 0;
  return sorted[Math.floor(0.9 * (sorted.length - 1))]! - sorted[Math.floor(0.1 * (sorted.length - 1))]!;
}

/** The grid the light is judged on: CELLS cells along the longer side; null when too small for three each way. */
function cellsOf(img: GrayImage): { cell: number; cols: number; rows: number } | null {
  const cell = Math.max(8, Math.ceil(Math.max(img.width, img.height) / CELLS));
  const cols = Math.ceil(img.width / cell);
  const rows = Math.ceil(img.height / cell);
  return cols < 3 || rows < 3 ? null : { cell, cols, rows };
}

/**
 * Evens out uneven light (a lamp's falloff, a shadow across a photographed page): the paper's
 * brightness is estimated on a coarse grid and every pixel divided by it, so the paper comes out
 * white and print keeps its contrast against it wherever it lies. Returns null when the light is
 * already even (a scan): the page is left as it is.
 */
export function evenOutShading(img: GrayImage): GrayImage | null {
  const cells = cellsOf(img);
  if (!cells) return null;
  const { cell, cols, rows } = cells;
  const grid = paperGrid(img, cell, cols, rows);
  const paper = median3(fillNonPaper(grid.paper, cols, rows), cols, rows);
  // Only light that falls unevenly on print matters: a figure's own tones are not shading.
  if (spread(paper, grid.print) < UNEVEN_FROM) return null;
  return divideBy(img, finePaper(img, paper, cell, cols, rows));
}

/**
 * The paper's brightness at a finer scale, where a shadow's edge is sharp: the page seen at
 * FINE_SIDE with its print closed away (`closeBright`), lightly blurred; where that is far darker
 * than the cells' paper (a figure wider than the closing), the cells' paper.
 */
function finePaper(img: GrayImage, paper: Float32Array, cell: number, cols: number, rows: number): GrayImage {
  const small = downscaleGray(img, Math.min(1, FINE_SIDE / Math.max(img.width, img.height)));
  const closed = boxBlur3(closeBright(small, FINE_CLOSE));
  const { width: fw, height: fh, data } = closed;
  const sx = img.width / fw;
  const sy = img.height / fh;
  for (let y = 0; y < fh; y++) {
    const gy = Math.min(rows - 1, Math.max(0, ((y + 0.5) * sy) / cell - 0.5));
    const r0 = Math.floor(gy);
    const r1 = Math.min(rows - 1, r0 + 1);
    const fy = gy - r0;
    for (let x = 0; x < fw; x++) {
      const gx = Math.min(cols - 1, Math.max(0, ((x + 0.5) * sx) / cell - 0.5));
      const c0 = Math.floor(gx);
      const c1 = Math.min(cols - 1, c0 + 1);
      const fx = gx - c0;
      const top = paper[r0 * cols + c0]! + (paper[r0 * cols + c1]! - paper[r0 * cols + c0]!) * fx;
      const bottom = paper[r1 * cols + c0]! + (paper[r1 * cols + c1]! - paper[r1 * cols + c0]!) * fx;
      const coarse = top + (bottom - top) * fy;
      if (data[y * fw + x]! < NON_PAPER_BELOW * coarse) data[y * fw + x] = coarse;
    }
  }
  return closed;
}

/** 3 x 3 box blur (edges clamped). */
function boxBlur3(img: GrayImage): GrayImage {
  const { width: w, height: h, data } = img;
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let sum = 0;
      for (let dy = -1; dy <= 1; dy++) {
        const yy = Math.min(h - 1, Math.max(0, y + dy));
        for (let dx = -1; dx <= 1; dx++) sum += data[yy * w + Math.min(w - 1, Math.max(0, x + dx))]!;
      }
      out[y * w + x] = Math.round(sum / 9);
    }
  }
  return { width: w, height: h, data: out };
}

/** Every pixel divided by the paper under it (bilinear in the paper map), so paper comes out white. */
function divideBy(img: GrayImage, paper: GrayImage): GrayImage {
  const { width: w, height: h, data } = img;
  const { width: pw, height: ph, data: p } = paper;
  const out = new Uint8Array(w * h);
  const { lo: c0, hi: c1, w: fx } = bilinearTaps(pw, w);
  const line = new Float32Array(pw);
  for (let y = 0; y < h; y++) {
    const gy = Math.min(ph - 1, Math.max(0, ((y + 0.5) * ph) / h - 0.5));
    const r0 = Math.floor(gy);
    const r1 = Math.min(ph - 1, r0 + 1);
    const fy = gy - r0;
    for (let c = 0; c < pw; c++) line[c] = p[r0 * pw + c]! * (1 - fy) + p[r1 * pw + c]! * fy;
    const row = y * w;
    for (let x = 0; x < w; x++) {
      const v = line[c0[x]!]! + (line[c1[x]!]! - line[c0[x]!]!) * fx[x]!;
      out[row + x] = Math.min(255, (data[row + x]! * 255) / Math.max(DARKEST_PAPER, v));
    }
  }
  return { width: w, height: h, data: out };
}

/** A picture's light at a cell is the brightest paper within this many cells of it (a thirteenth of its longer side). */
const PICTURE_REACH = 3;

/**
 * The light a picture was photographed in, where it is uneven (a lamp's falloff, a dim half): a
 * coarse map to divide it by, or null when its light is even (a scan, a drawing). A picture's own
 * tones are not paper (a coloured or dark panel holds no white), so its light at a cell is the
 * brightest paper within PICTURE_REACH cells (a balloon, a gutter, the margin lie that close on a
 * comic page). What stays below NON_PAPER_BELOW of the picture's light there is a dark area, not a
 * dim one, and is left as it is.
 */
export function pictureLight(img: GrayImage): GrayImage | null {
  const cells = cellsOf(img);
  if (!cells) return null;
  const { cell, cols, rows } = cells;
  const { paper } = paperGrid(img, cell, cols, rows);
  const light = nearMax(paper, cols, rows, PICTURE_REACH);
  const sorted = Array.from(light).sort((a, b) => a - b);
  const top = sorted[Math.floor(0.9 * (sorted.length - 1))]!;
  if (top - sorted[Math.floor(0.1 * (sorted.length - 1))]! < UNEVEN_FROM) return null;
  return boxBlur3({ width: cols, height: rows, data: Uint8Array.from(light, (v) => Math.round(v < NON_PAPER_BELOW * top ? top : v)) });
}

/**
 * A picture photographed with no page found in the photo to flatten (its edges out of view), its
 * light evened out (`pictureLight`); null when that light is even.
 */
export function evenOutPictureLight(img: GrayImage): GrayImage | null {
  const light = pictureLight(img);
  return light && divideBy(img, light);
}
