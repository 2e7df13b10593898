import type { PagePath, PageText, PageWarning } from "../../shared/engine-contract";
import type { GrayImage } from "./gray";

/** One page of an upload as pixels, with the way its text is to be obtained. */
export interface SourcePage {
  image: GrayImage;
  path: PagePath;
  /**
   * The exact text of a PDF page's text layer, boxes in `image` coordinates: all of the text on
   * `text_layer` pages; on `ocr` pages (a scan with visible text on it) merged with the OCR.
   */
  textLayer?: PageText;
  /** `text_layer` pages: false when no browser could draw the page and `image` is a blank canvas of its size. */
  rendered: boolean;
  /** PDF pages: the page's /Rotate, applied when it was drawn. */
  rotation?: 0 | 90 | 180 | 270;
  /**
   * Text-layer pages whose drawing was left for later (`image` is a blank canvas of its size): the
   * scale (pixels per PDF point) to draw the page at, by `drawPage` once the job no longer waits.
   */
  drawScale?: number;
  /** `text_layer` pages set sideways: the quarter turn (clockwise) that set `image` and the layer's text upright. */
  turn?: 90 | 180 | 270;
  /** Raster uploads: the upload holds no colour (`decodePage`), so its gray `image` is its own colours. */
  colourless?: boolean;
  /** Pixels per inch of `image`, where known (`SourcePage` of a PDF page, or stated by the file and believed). */
  resolution?: number;
  /** What the page's reading should say without failing (a text layer kept in another script). */
  warnings?: PageWarning[];
}
