/**
 * The engine's RPC contract, shared by the engine Worker and the api Worker.
 * Payloads stay small: R2 keys, boxes, text and counts, never page bitmaps.
 */

/** Input formats recognised by their magic bytes. */
export type InputFormat = "png" | "jpeg" | "webp" | "gif" | "bmp" | "tiff" | "pnm" | "pdf";

/** Axis-aligned box in page pixel coordinates of the normalised page image. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface InspectInput {
  /** R2 FILES key of the uploaded file. */
  sourceKey: string;
}

export interface InspectResult {
  format: InputFormat;
  pages: number;
  bytes: number;
}

/**
 * How a page's text is obtained:
 * - `ocr`: a raster page (image, TIFF page, or a scanned PDF page's embedded image) recognised by OCR;
 * - `text_layer`: a PDF page whose text layer is read directly (exact text, no OCR);
 * - `rasterized`: a vector-only PDF page rendered to pixels by Browser Rendering, then recognised.
 */
/**
 * How a page's text is obtained: `text_layer` (a PDF's own text), `ocr` (a document read by OCR),
 * `rasterized` (a PDF page drawn, then read), `picture` (a comic, manga page or photo: text blocks
 * found on their grounds and read one by one; never turned, colour kept).
 */
export type PagePath = "ocr" | "text_layer" | "rasterized" | "picture";

/** Something a page's reading should say without failing it (`code` snake_case, as the job's warnings). */
export interface PageWarning {
  code: string;
  message: string;
}

export interface PreprocessInput {
  sourceKey: string;
  /** Zero-based page index inside the source document. */
  page: number;
  /** R2 FILES key where the normalised page image (PNG) is written. */
  outKey: string;
  /** Languages expected on the page (helps orientation detection); defaults to eng. */
  languages?: string[];
  /**
   * How a PDF page's text layer is used: `auto` (default) takes a plausible layer, `force`
   * recognises every page, `redo` replaces invisible text (an earlier OCR) by a new recognition.
   */
  ocrMode?: OcrMode;
  /**
   * How the page is read: `document` (turned upright, deskewed, gray normalised image), `picture`
   * (never turned; the page image keeps the upload's colours; text read block by block), or `auto`
   * (default): images that look like pictures (comics, manga) are pictures, all else documents.
   */
  pageKind?: PageKind;
  /**
   * Text-layer PDF pages drawn by Browser Rendering: `now` (default) waits for the drawing;
   * `background` writes a blank canvas of the page's size, which `drawPage` replaces with the
   * drawing later, for jobs whose later stages and exports read the text layer only.
   */
  pageImage?: "now" | "background";
  /**
   * Where to write the page's layout (`PageLayout`) and text (`PageText`) if it is read from its
   * text layer: what `detect` (with `languages`) and `recognize` (with `languages`) would write
   * there from the page image. A job can then skip both calls for such pages: `PreprocessResult.read`
   * says when this happened. Needs `languages`; other pages ignore it.
   */
  readOutKeys?: { layout: string; text: string };
}

export type OcrMode = "auto" | "force" | "redo";

export type PageKind = "auto" | "document" | "picture";

/** Draws a page `preprocess` left as a blank canvas (`pageImage: "background"`) over that canvas. */
export interface DrawPageInput {
  sourceKey: string;
  /** Zero-based page index of the source. */
  page: number;
  /** The page image `preprocess` wrote (its `outKey`). */
  pageKey: string;
}

export interface DrawPageResult {
  key: string;
  /** False when the page had nothing left to draw (already drawn, or not a canvas). */
  drawn: boolean;
}

/**
 * Maps the normalised page image back to the source page: the source raster was turned by
 * `rotation` (clockwise), then rotated by `skew` degrees (counter-clockwise positive, about its
 * centre, same canvas), then scaled by `scale`. Recorded so re-OCR can crop the original.
 */
/** A quadrilateral's corners in pixels: top left, top right, bottom right, bottom left. */
export type Quad = [[number, number], [number, number], [number, number], [number, number]];

/**
 * A photographed page made flat: the page's outline in the source raster (`quad`) was resampled
 * onto a `width` x `height` rectangle, which the rest of the transform then treats as its source.
 */
export interface FlatPage {
  quad: Quad;
  width: number;
  height: number;
  /**
   * The outline reaches beyond the raster (a scan's page turned level): each pixel there is the
   * raster's nearest edge pixel, so grounds end at the raster's edge as they do on the raster itself.
   * Otherwise what lies outside is white.
   */
  edge?: boolean;
}

/**
 * Text lines straightened: the vertical displacement (pixels of the page) at the nodes of a
 * `cols` x `rows` grid over the page (cell centres), row by row; output row y at a node was row
 * y + dy of the page before.
 */
export interface LineWarp {
  cols: number;
  rows: number;
  dy: number[];
}

export interface PageTransform {
  rotation: 0 | 90 | 180 | 270;
  skew: number;
  scale: number;
  /** Size of the source raster before any of the above. */
  sourceWidth: number;
  sourceHeight: number;
  /** The upload's own size, upright, when its raster was decoded smaller than that (a JPEG above 9 MP). */
  original?: { width: number; height: number };
  /** PDF pages: the page's own /Rotate (clockwise), already applied when the source raster was drawn. */
  sourceRotation?: 0 | 90 | 180 | 270;
  /** A photographed page: its outline in the source raster and the flat page it was resampled to, before the steps above. */
  flat?: FlatPage;
  /**
   * A photographed picture: the page found lying in it (outline in the source raster, flat size).
   * The picture is kept as taken; its text is read on that page made flat and put back on the photo.
   */
  lying?: FlatPage;
  /**
   * A picture scanned askew: its skew (degrees, rows descending to the right positive). The picture
   * is kept as scanned; its text is found, read and erased on a copy turned level and put back.
   */
  level?: number;
  /**
   * The page's uneven lighting was evened out (the reading copy only; geometry unchanged). A
   * picture keeps its pixels: its light is evened out where its text is found, read and erased.
   */
  shading?: boolean;
  /** Bent text lines (a curled or unevenly slanted page) were straightened, after every step above. */
  dewarp?: LineWarp;
  /**
   * The source raster's pixels per inch, where known: a PDF page's drawing, or what an image file
   * states and is believed (`credibleResolution`). Absent for pictures and photographed pages.
   */
  resolution?: number;
}

export interface PreprocessResult {
  key: string;
  width: number;
  height: number;
  /** Clockwise rotation applied to make text upright. */
  rotation: 0 | 90 | 180 | 270;
  /** Which way the page's text is obtained. */
  path: PagePath;
  /** Deskew angle applied, degrees (counter-clockwise positive). */
  skew: number;
  transform: PageTransform;
  /** With `readOutKeys`, on a page read from its text layer: the answers `detect` and `recognize` would give. */
  read?: { detect: DetectResult; recognize: RecognizeResult };
  /** What the page's reading says without failing (a text layer kept in another script than asked). */
  warnings?: PageWarning[];
}

export interface DetectInput {
  /** R2 FILES key of the normalised page image. */
  pageKey: string;
  /** R2 FILES key where the layout (JSON `PageLayout`) is written. */
  outKey: string;
  /**
   * The languages the page will be recognised in, when `recognize` follows. The page is then read
   * once, here: the layout comes from the same layout analysis as the text, and the reading is
   * kept beside the page image for `recognize` with the same languages (tesseract's layout
   * analysis is a sizeable share of a page's OCR; done twice it was ~15 % of the page).
   */
  languages?: string[];
  /**
   * With `languages`: the most parts the page's reading may be divided into. When its text holds
   * enough lines, the answer's `bands` lists parts of the page, each holding whole lines in reading
   * order: bands across the page cut along blank rows between lines, or, on a page of columns side
   * by side, parts cut down blank columns of pixels between them (`Band.x`, `w`); nothing is written: each
   * band is then read by its own `recognize` call (`band`), all at once, and `detect` is called
   * again with `bandTexts` to join them. Otherwise the page is read here as without `split`.
   */
  split?: number;
  /**
   * With `languages`: the `recognize` outputs of the bands of an earlier answer's `bands`, in
   * order. Their lines, in reading order, make the page's reading, kept and laid out as above.
   */
  bandTexts?: string[];
  /**
   * Without `languages`: the languages a picture page's text blocks are read in (only text that
   * reads is laid out: a picture's blocks are checked by reading them). Document pages ignore it.
   */
  pictureLanguages?: string[];
}

/**
 * A part of a page image, in page pixels: rows from `y` down `h` rows (a band across the page), or,
 * with `x` and `w`, the rectangle of those rows and columns.
 */
export interface Band {
  y: number;
  h: number;
  x?: number;
  w?: number;
}

export interface DetectResult {
  key: string;
  regions: number;
  lines: number;
  words: number;
  path: PagePath;
  /** With `split`: the bands to read apart, top to bottom (absent when the page was read here). */
  bands?: Band[];
  /** With `bands`: the languages to read the bands in (`auto` resolved on the whole page). */
  languages?: string[];
}

/** A detected line: its box, its words' boxes in reading order, and whether it runs top to bottom. */
export interface LayoutLine {
  box: Box;
  words: Box[];
  vertical: boolean;
}

/** Layout found by detection: text blocks with their line boxes, in reading order. */
export interface PageLayout {
  width: number;
  height: number;
  /** `lines` are the line boxes (kept for existing readers); `items` add words and direction. */
  blocks: { box: Box; lines: Box[]; items: LayoutLine[]; vertical: boolean }[];
  path: PagePath;
}

export interface RecognizeInput {
  pageKey: string;
  /**
   * Tesseract language codes, e.g. ["eng"]; each must be seeded in R2 MODELS. `["auto"]` picks
   * the model by script (trial readings) and then language detection of the text.
   */
  languages: string[];
  /** R2 FILES key where the result (JSON `PageText`) is written. */
  outKey: string;
  /**
   * Reads only these rows of the page (a band from `detect`'s `bands`), with the pixels and scale
   * the whole page is read at; boxes are in page pixels. The page's text layer and kept reading are
   * left to `detect`'s joining of the bands.
   */
  band?: Band;
}

export interface RecognizeResult {
  key: string;
  regions: number;
  words: number;
  chars: number;
  /** Mean word confidence, 0..1. */
  confidence: number;
  path: PagePath;
  /** Languages the text was read in (the chosen ones when `auto` was asked). */
  languages: string[];
  /**
   * Size of the largest tesseract wasm heap in the isolate after the page, bytes (0 for text-layer
   * pages). Heaps never shrink, so this is the peak so far: for monitoring the 128 MB budget.
   */
  heapBytes: number;
  /** Clockwise quarter turns that made the page upright: a PDF page's /Rotate plus the turn detected. */
  rotation: 0 | 90 | 180 | 270;
}

export interface WordText {
  box: Box;
  text: string;
  confidence: number;
}

export interface LineText {
  box: Box;
  text: string;
  confidence: number;
  words: WordText[];
  /** True for a vertical (top-to-bottom) CJK line. */
  vertical?: boolean;
}

export interface RegionText {
  box: Box;
  text: string;
  confidence: number;
  lines: LineText[];
  vertical?: boolean;
  /** Pictures: the interior of the balloon or caption box that holds the text, where its translation may be set. */
  frame?: Box;
  /**
   * Pictures: how far (degrees clockwise) the region's lines are turned — by a photo taken at a
   * slant (`frame` is then the upright box around the turned interior), or as the lettering was drawn.
   */
  angle?: number;
}

/** Recognised text of one page, regions in reading order. */
export interface PageText {
  width: number;
  height: number;
  languages: string[];
  text: string;
  confidence: number;
  regions: RegionText[];
  /** Absent in pages written before paths were recorded; treat as `ocr`. */
  path?: PagePath;
  /**
   * Text-layer pages: the straight lines the PDF draws (strokes, thin filled rectangles), in page
   * coordinates, each as its thin bounding box. Table detection reads the ruling from them.
   */
  rules?: Box[];
  /**
   * Text-layer pages: areas the PDF draws as pictures with vector paths (charts, diagrams: slanted
   * strokes, curves, filled shapes), in page coordinates. Their labels are no table.
   */
  figures?: Box[];
}

export interface ExtractTablesInput {
  /** R2 FILES key of the normalised page image. */
  pageKey: string;
  languages: string[];
  /** R2 FILES key where the result (JSON `PageTables`) is written. */
  outKey: string;
  /**
   * R2 FILES key where the page's text (JSON `PageText`) is written: the text layer, or the OCR of
   * the page read with its ruling lines removed, so that one reading serves regions and tables.
   */
  textOutKey?: string;
}

export interface TableCell {
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
  box: Box;
  text: string;
  confidence: number;
}

export interface PageTable {
  box: Box;
  rows: number;
  cols: number;
  /** `ruled`: found from ruling lines; `aligned`: a borderless table found from word alignment. */
  kind: "ruled" | "aligned";
  /** One entry per cell (a spanning cell once, at its top-left grid position), row-major. */
  cells: TableCell[];
}

export interface PageTables {
  width: number;
  height: number;
  languages: string[];
  path: PagePath;
  tables: PageTable[];
}

export interface ExtractTablesResult {
  key: string;
  tables: number;
  cells: number;
  /** The page text's key (when `textOutKey` was given), its region count and the languages it was read in. */
  textKey?: string;
  regions: number;
  path: PagePath;
  languages: string[];
}

export interface ReocrInput {
  /** R2 FILES key of the original upload. */
  sourceKey: string;
  /** Zero-based page index. */
  page: number;
  /** Rectangle in the normalised page image's coordinates (what regions are stored in). */
  box: Box;
  languages: string[];
  /**
   * The page image written by preprocess: its recorded transform maps the box onto the original
   * without detecting orientation and skew again. Optional; recommended.
   */
  pageKey?: string;
}

export interface ReocrResult {
  text: string;
  confidence: number;
  /** Lines with their words, boxes in normalised page coordinates. */
  lines: LineText[];
  languages: string[];
  path: PagePath;
}

/**
 * Export formats the engine builds. Text: txt, json, md, hocr, alto; office: docx, xlsx, csv;
 * PDF: `searchable_pdf` (original page images + invisible recognised text), `pdf` (rendered pages +
 * the translated text, or the page images when nothing was rendered); images of the rendered pages:
 * png, jpg, webp; `zip`: every other format of the request in one archive. The api's list of
 * formats is this one and `html` (src/db/schema/enums.ts), which the engine does not build.
 */
export const EXPORT_FORMATS = [
  "txt",
  "json",
  "hocr",
  "alto",
  "pdf",
  "searchable_pdf",
  "docx",
  "md",
  "xlsx",
  "csv",
  "png",
  "jpg",
  "webp",
  "zip",
] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface BuildExportsInput {
  /** R2 FILES keys of each page's `PageText`, in page order (recognition output). */
  pageTextKeys?: string[];
  /**
   * R2 FILES key of an `ExportDocument` (JSON): pages with their images, edited regions (text and
   * translation) and tables. Takes precedence over `pageTextKeys`; needed for image, PDF and table formats.
   */
  documentKey?: string;
  formats: ExportFormat[];
  /** Which text the text formats carry (default `source`); JSON always carries both. */
  content?: "source" | "translation";
  /** R2 FILES key prefix for the files written, e.g. `exports/<job_id>/`. */
  outPrefix: string;
  /** Base name for the files, without extension. */
  baseName: string;
}

export interface BuiltExport {
  format: ExportFormat;
  key: string;
  bytes: number;
  contentType: string;
  /** Download file name: `<baseName>.<ext>`, or `<baseName>-<format>.zip` when one format makes several files. */
  filename: string;
}

/** A table for export: cells row-major, a merged cell once at its top-left position. */
export interface ExportTable {
  box: Box;
  rows: number;
  cols: number;
  cells: { row: number; col: number; rowSpan: number; colSpan: number; text: string }[];
}

/** A region for export: its current (edited) text and translation, with recognised lines when known. */
export interface ExportRegion {
  box: Box;
  text: string;
  translation?: string | null;
  confidence?: number | null;
  kind?: string;
  vertical?: boolean;
  lines?: LineText[];
}

export interface ExportPage {
  /** Zero-based page index in the document. */
  index: number;
  width: number;
  height: number;
  /** R2 FILES key of the page image the regions' boxes refer to. */
  imageKey?: string | null;
  /** R2 FILES key of the rendered page (translated or erased), when there is one. */
  renderKey?: string | null;
  /** Languages the page was read in, and its mean recognition confidence (0..1). */
  languages?: string[];
  confidence?: number | null;
  regions: ExportRegion[];
  tables?: ExportTable[];
}

/** What the export builders read (`BuildExportsInput.documentKey`). */
export interface ExportDocument {
  title: string;
  sourceLanguage?: string | null;
  targetLanguage?: string | null;
  pages: ExportPage[];
}

/** A region to clear: its box and, when known, its line boxes (the mask stays inside them). */
export interface InpaintRegion {
  box: Box;
  lines?: Box[];
  vertical?: boolean;
  /** Pictures: the interior its translation is set in (`RegionText.frame`); its text is removed within it. */
  frame?: Box;
  /**
   * The words recognition read in it (page pixels, confidence 0..1), when it was read: on a
   * textured page, a line read surely there needs no second reading to be taken for text.
   */
  words?: { box: Box; text: string; confidence: number }[];
}

export interface InpaintInput {
  /** R2 FILES key of the normalised page image (the regions' coordinates). */
  pageKey: string;
  /**
   * The original upload and page: when it is a colour raster the page was not turned or deskewed,
   * the clean plate is made from its colours (scaled to the page image); otherwise from the page image.
   */
  sourceKey?: string;
  page?: number;
  regions: InpaintRegion[];
  /** R2 FILES keys written: the text mask (gray PNG, white = removed) and the clean plate (PNG). */
  maskKey: string;
  cleanKey: string;
  /** OCR languages for the leftover-text check of each cleaned region; empty skips the check. */
  languages?: string[];
}

/**
 * A style's `frame` where it is a box of positive size, else none: the API refuses any other
 * frame, but a region's stored style is open and one stored before that rule may hold anything.
 */
export function styleFrame(style: object | null | undefined): Box | undefined {
  const f = (style as { frame?: Partial<Record<keyof Box, unknown>> | null } | null | undefined)?.frame;
  if (!f || typeof f !== "object") return undefined;
  const { x, y, w, h } = f;
  const finite = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
  if (!finite(x) || !finite(y) || !finite(w) || !finite(h) || w < 1 || h < 1) return undefined;
  return { x, y, w, h };
}

/** Typesetting style taken from the original glyphs (or set by the user). */
export interface TextStyle {
  /** `#rrggbb`. */
  color?: string;
  /** 400 or 700 as found; users may also set 100–900 or "normal"/"bold". */
  font_weight?: number | string;
  align?: "left" | "center" | "right" | "justify";
  /** Pixels; the starting point of the size search. */
  font_size?: number;
  /**
   * Pictures: the interior of the balloon or caption box (page pixels) the text is set in, centred,
   * instead of the region's box; the text never leaves it.
   */
  frame?: Box;
  /** `caps`: the original is lettered in capitals (comics), and so is its translation. */
  lettering?: "caps";
  /**
   * Degrees clockwise the text is set turned by, about the centre of its frame (or box): laid out
   * in the largest rectangle so turned that the frame holds. A balloon seen at a slant in a photo.
   */
  angle?: number;
  /** The face the text is set in first (`FONT_FAMILIES`); characters it lacks fall back along the chain. */
  font_family?: string;
}

export interface InpaintRegionResult {
  /** Pixels removed in this region. */
  masked: number;
  /** Source glyphs still readable after cleaning (re-OCR found text). */
  leftover: boolean;
  /** What the re-OCR read there ("" when clean or unchecked). */
  leftoverText: string;
  /** The fill differs strongly from the background around it (a visible smear): review the clean plate there. */
  smear: boolean;
  /** Share (0..1) of the region's filled pixels outside the colour range of the real background near them. */
  smearShare: number;
  /** Style of the original text: colour, approximate weight, alignment, size. */
  style: TextStyle;
}

export interface InpaintResult {
  maskKey: string;
  cleanKey: string;
  width: number;
  height: number;
  regions: InpaintRegionResult[];
  /**
   * Milliseconds spent clearing and checking; `stages` splits `inpaint` (load, mask, textCheck,
   * fill, plateCheck, encode, write).
   */
  ms: { inpaint: number; check: number; stages: Record<string, number> };
  /**
   * On a textured page (photograph, patterned paper) every text zone is checked for text before its
   * ink is removed: zones checked, zones left untouched because nothing in them read as text, and
   * zones read again by OCR (a line the region's `words` already give as text is not).
   */
  textCheck: { zones: number; rejected: number; read: number };
}

export interface TypesetRegion {
  box: Box;
  /** The text to draw (the translation); empty draws nothing. */
  text: string;
  vertical?: boolean;
  /** Recognised line boxes of the original (their height sets the starting size). */
  lines?: Box[];
  style?: TextStyle | null;
}

export interface TypesetInput {
  /** R2 FILES key of the background (the clean plate). */
  backgroundKey: string;
  /** Faces and line breaking follow each character's script, so no language is needed. */
  regions: TypesetRegion[];
  /** R2 FILES key of the rendered page (PNG). */
  outKey: string;
}

/** fitted: at the original size; shrunk: smaller but whole; overflowing: does not fit even at the smallest size. */
export type TypesetOverflow = "fitted" | "shrunk" | "overflowing";

export interface TypesetRegionResult {
  overflow: TypesetOverflow;
  fontSize: number;
  lines: number;
  /** Font families used, in fallback order. */
  fonts: string[];
}

export interface TypesetResult {
  key: string;
  width: number;
  height: number;
  regions: TypesetRegionResult[];
  ms: number;
}

export interface EngineHealth {
  ok: boolean;
  ocrLanguages: string[];
  fonts: string[];
  /** The tesseract WebAssembly build the engine loads: its version, int8 kernel and module file. */
  tesseract: { version: string; kernel: string; module: string };
}

/**
 * Errors cross the RPC boundary as plain `Error`s whose message starts with `[code]`;
 * `parseEngineError` recovers the code on the api side.
 */
export function engineErrorMessage(code: string, message: string): string {
  return `[${code}] ${message}`;
}

export function parseEngineError(err: unknown): { code: string; message: string } | null {
  const msg = err instanceof Error ? err.message : String(err);
  const m = /\[([a-z_]+)\] ([\s\S]*)$/.exec(msg);
  return m ? { code: m[1]!, message: m[2]! } : null;
}
