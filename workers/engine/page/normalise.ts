import type {
  InputFormat,
  LineWarp,
  OcrMode,
  PageKind,
  PagePath,
  PageText,
  PageTransform,
  PageWarning,
} from "../../shared/engine-contract";
import { chooseDirection, chooseLanguage } from "../ocr/auto-language";
import { AUTO, seededLanguages } from "../ocr/models";
import { detectOrientation } from "../ocr/orientation";
import { mapRegionBoxes } from "../ocr/page-text";
import { estimateSkew, inkSample, normaliseContrast } from "../image/enhance";
import { rotateQuarter, rotateSmall } from "../image/geometry";
import { evenOutShading, pictureLight } from "../image/shading";
import { applyLineWarp, measureLineWarp } from "../image/dewarp";
import { downscaleGray, type GrayImage } from "../image/gray";
import { MAX_PAGE_SIDE, MAX_PHOTON_PIXELS } from "../memory";
import { probeRaster } from "../image/headers";
import { fitScale } from "../image/limits";
import { jpegOrientation } from "../image/orientation";
import { encodeBlankGrayPng, encodeGrayPng } from "../image/png";
import type { SourcePage } from "../image/source-page";
import { looksLikePicture, photographedPicture } from "../picture/page-kind";
import { scanSkew } from "../picture/scan-skew";
import { flattenPhoto } from "./photo";
import { pictureImagePng } from "./picture-image";
import { loadSourcePage } from "./source";

export interface NormalisedPage {
  image: GrayImage;
  png: Uint8Array;
  path: PagePath;
  transform: PageTransform;
  /** `text_layer` pages: the exact text in the normalised page's coordinates. */
  textLayer?: PageText;
  /** Text-layer pages whose image is a blank canvas for now: the scale to draw the page at (`SourcePage.drawScale`). */
  drawScale?: number;
  /**
   * The model the page was found written in, as it was (kept when it was not turned): `auto`'s
   * choice, or the vertical model of a named language whose text stands in columns.
   */
  pageLanguage?: string;
  warnings?: PageWarning[];
}

export interface PreprocessContext {
  models: R2Bucket;
  browser: unknown;
  /**
   * OCR model used for the orientation trial readings, or `auto`: the language is chosen on the
   * page as it is first, and its model tried (a Latin model reads upside-down Hebrew more
   * confidently than upright Hebrew, and would turn the page over). Asked for only when the page
   * is turned upright (text-layer pages are not: they need no model).
   */
  language: () => Promise<string>;
  /** PDF pages: the languages requested (text-layer plausibility) and how text layers are used. */
  pdf?: { languages?: string[]; ocrMode?: OcrMode; drawLater?: boolean };
  /**
   * Document or picture (`PreprocessInput.pageKind`). With `auto`, images that look like pictures
   * (`looksLikePicture`) are pictures; PDF and PBM/PGM/PPM pages are documents.
   */
  kind?: PageKind;
  /** The upload is in a camera's format (JPEG, WebP): its light may be uneven, and is evened out where it is. */
  camera?: boolean;
  /** The upload is in a scanner's format (TIFF, PBM/PGM/PPM): a scan, never a photo of a page to cut out and flatten. */
  scanner?: boolean;
}

/**
 * Uploads whose pages `auto` may take for pictures: the formats of drawings, screenshots and photos,
 * and TIFF, in which comic pages are scanned and archived as well as documents.
 */
const PICTURE_FORMATS = new Set<InputFormat>(["png", "jpeg", "webp", "gif", "bmp", "tiff"]);

/** Uploads in the formats cameras save. */
const CAMERA_FORMATS = new Set<InputFormat>(["jpeg", "webp"]);

/** Uploads in the formats scanners save. */
const SCANNER_FORMATS = new Set<InputFormat>(["tiff", "pnm"]);

/** Skews below this (degrees) are left alone: resampling costs more sharpness than it gains. */
const MIN_SKEW = 0.2;

function scaleText(page: PageText, s: number, width: number, height: number): PageText {
  const box = (b: { x: number; y: number; w: number; h: number }) => ({
    x: Math.round(b.x * s * 10) / 10,
    y: Math.round(b.y * s * 10) / 10,
    w: Math.round(b.w * s * 10) / 10,
    h: Math.round(b.h * s * 10) / 10,
  });
  return {
    ...page,
    width,
    height,
    ...(page.rules ? { rules: page.rules.map(box) } : {}),
    ...(page.figures ? { figures: page.figures.map(box) } : {}),
    regions: mapRegionBoxes(page.regions, box),
  };
}

/**
 * Normalises one page: read it (decode, PDF text layer / scan / rendering), fit it within
 * MAX_PAGE_SIDE (a photographed page: cut out, made flat and its light evened out), turn it
 * upright (0/90/180/270), deskew it (±5°), stretch its contrast (a photographed page: straighten
 * its bent lines), and encode it as an 8-bit gray PNG. Text-layer pages keep their geometry: their
 * text is exact and their boxes must stay on it.
 */
export async function normalisePage(bytes: Uint8Array, format: InputFormat, page: number, ctx: PreprocessContext): Promise<NormalisedPage> {
  const source = await loadSourcePage(bytes, format, page, ctx.browser, ctx.pdf);
  const out = await normaliseUploaded(source, format, ctx);
  const original = uploadSize(bytes, format);
  if (original && (original.width !== out.transform.sourceWidth || original.height !== out.transform.sourceHeight))
    out.transform = { ...out.transform, original };
  const later = { ...(source.drawScale ? { drawScale: source.drawScale } : {}), ...(source.warnings ? { warnings: source.warnings } : {}) };
  // A blank canvas (a text-layer page not drawn) is encoded without reading its pixels; a picture keeps its colours.
  const png =
    out.path === "picture"
      ? await pictureImagePng(bytes, format, page, out.image, source.colourless)
      : source.rendered
        ? await encodeGrayPng(out.image)
        : await encodeBlankGrayPng(out.image.width, out.image.height);
  return { ...out, png, ...later };
}

/** An image upload's own size, upright (EXIF turns applied), from its headers; null for PDF and TIFF pages. */
function uploadSize(bytes: Uint8Array, format: InputFormat): { width: number; height: number } | null {
  if (format === "pdf" || format === "tiff") return null;
  const { width, height } = probeRaster(bytes, format);
  return format === "jpeg" && jpegOrientation(bytes) >= 5 ? { width: height, height: width } : { width, height };
}

/** `normaliseSource` of a page of an upload in `format`: what its format says of it (`auto`, camera, scanner) taken into account. */
export function normaliseUploaded(source: SourcePage, format: InputFormat, ctx: PreprocessContext): Promise<Omit<NormalisedPage, "png">> {
  const kind = ctx.kind === "auto" && !PICTURE_FORMATS.has(format) ? "document" : ctx.kind;
  return normaliseSource(source, { ...ctx, kind, camera: CAMERA_FORMATS.has(format), scanner: SCANNER_FORMATS.has(format) });
}

/** The normalisation of `normalisePage` on a page already read, without encoding it. */
export async function normaliseSource(source: SourcePage, ctx: PreprocessContext): Promise<Omit<NormalisedPage, "png">> {
  const { width: sourceWidth, height: sourceHeight } = source.image;
  const fit = fitScale(sourceWidth, sourceHeight, MAX_PAGE_SIDE);
  let image = downscaleGray(source.image, fit);
  let scale = fit >= 1 ? 1 : image.width / sourceWidth;
  // A text layer set sideways was read upright: its page image was turned with it.
  let rotation: PageTransform["rotation"] = source.turn ?? 0;
  let skew = 0;
  let chosen: string | undefined;
  let dewarp: LineWarp | null = null;
  const readable = !source.textLayer && source.path === "ocr";
  // A photographed page is cut out of its photo and made flat before anything else looks at it, and
  // its uneven light (a lamp's falloff, a shadow) is evened out for reading. A scanner's file is not
  // looked at for it (94 ms of a 300 dpi TIFF page's preprocessing).
  const photo = readable && ctx.kind !== "picture" && !ctx.scanner ? flattenPhoto(source.image, MAX_PAGE_SIDE) : null;
  const evened = photo && evenOutShading(photo.image);
  // A picture is never turned, deskewed or restretched: it is read as it is and kept as it is.
  // Its size is kept up to the pixels a colour page may hold, not only within a document's longest side.
  // A page found lying in a photo is judged as that page, flat and evenly lit: a photographed comic
  // or manga page is a picture, kept as it was taken, in its colours.
  if (
    readable &&
    (ctx.kind === "picture" || (ctx.kind === "auto" && (photo ? photographedPicture(photo.image, evened) : looksLikePicture(image))))
  ) {
    const kept = fitScale(sourceWidth, sourceHeight, Infinity, MAX_PHOTON_PIXELS);
    const picture = downscaleGray(source.image, kept);
    const s = kept >= 1 ? 1 : picture.width / sourceWidth;
    // One scanned askew is read on a copy turned level (`PageTransform.level`).
    const level = photo ? 0 : scanSkew(image);
    // A photographed one is read on its page made flat (`PageTransform.lying`), with the light
    // evened out where the page lay in uneven light (`pictureGray`); one in a camera's format with
    // no page found in it (taken close, the page's edges out of view), with the light it was taken
    // in evened out where that falls unevenly (`pictureLight`).
    const transform: PageTransform = {
      rotation: 0,
      skew: 0,
      scale: s,
      sourceWidth,
      sourceHeight,
      ...(photo ? { lying: photo.flat } : {}),
      ...(level ? { level } : {}),
      ...(evened || (!photo && ctx.camera && pictureLight(image)) ? { shading: true } : {}),
    };
    return { image: picture, path: "picture", transform };
  }
  if (photo) ({ image, scale } = { image: photo.image, scale: 1 });
  // A scan's or a rendering's own tones (a tinted box, a figure) are left as they are.
  const photographed = readable && (!!photo || !!ctx.camera);
  const shading = photo ? evened : photographed && evenOutShading(image);
  if (shading) image = shading;
  // Pages with a text layer keep their geometry: the layer's boxes must stay on the text.
  if (!source.textLayer) {
    const language = await ctx.language();
    // One ink sample serves a named language's direction, orientation (when the lines do not bend)
    // and, on a page left as it is or turned over (its lines keep their slope), the skew estimate.
    const ink = inkSample(image);
    const found =
      language === AUTO
        ? await chooseLanguage(ctx.models, image, await seededLanguages(ctx.models))
        : await chooseDirection(ctx.models, image, language, ink);
    if (found !== language) chosen = found;
    const skewAsIs = estimateSkew(ink);
    // A photographed page's bent lines can pass for lines running down the page: its orientation
    // is judged on a copy with them straightened.
    const bent = photographed ? measureLineWarp(image) : null;
    const judged = bent ? applyLineWarp(image, bent) : image;
    rotation = await detectOrientation(ctx.models, judged, chosen ?? language, bent ? inkSample(judged) : ink, bent ? 0 : skewAsIs);
    image = rotateQuarter(image, rotation);
    skew = rotation % 180 === 0 ? skewAsIs : estimateSkew(inkSample(image));
    if (Math.abs(skew) >= MIN_SKEW) image = rotateSmall(image, skew);
    else skew = 0;
    image = normaliseContrast(image);
    // A photographed page's lines may still bend (a book's curl, a slant that varies over the page).
    dewarp = photographed ? measureLineWarp(image) : null;
    if (dewarp) image = applyLineWarp(image, dewarp);
  }
  const textLayer = source.textLayer ? scaleText(source.textLayer, scale, image.width, image.height) : undefined;
  return {
    image,
    path: source.path,
    transform: {
      rotation,
      skew,
      scale,
      sourceWidth,
      sourceHeight,
      ...(source.rotation ? { sourceRotation: source.rotation } : {}),
      ...(photo ? { flat: photo.flat } : {}),
      ...(shading ? { shading: true } : {}),
      ...(dewarp ? { dewarp } : {}),
      // A photographed page cut out of its photo has its own scale, which no file states.
      ...(source.resolution && !photo ? { resolution: source.resolution } : {}),
    },
    ...(textLayer ? { textLayer } : {}),
    ...(chosen && rotation === 0 ? { pageLanguage: chosen } : {}),
  };
}
