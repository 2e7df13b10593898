import type { FlatPage, PageTransform } from "../../shared/engine-contract";
import { estimateSkew, inkSample, skewGain } from "../image/enhance";
import type { GrayImage } from "../image/gray";

/** Skews (degrees) from which a picture's text is read on a level copy: below it tesseract reads the rows as they stand. */
const LEAST_SKEW = 0.5;
/** Turns beyond this are lettering drawn turned, read block by block (`level-block.ts`), not a scan's skew. */
const MOST_SKEW = 4;
/**
 * How much more sharply the page's rows of ink must line up at the skew than level. A comic page
 * scanned 0.7–3° askew lines up its panel borders and lettering 2.4–7.6 times as sharply turned;
 * balloons of upright vertical lettering, with no rows, reach 1.1–1.2 at a chance best of ±1–2°,
 * and a panel photographed close in dim light 1.85 at −3.8°.
 */
const LEAST_GAIN = 2;

/**
 * The skew of a picture scanned askew (degrees, rows descending to the right positive), or 0: the
 * turn that lines the rows of its ink up best within ±5° (panel borders, caption boxes, lettering),
 * kept where it is at least LEAST_SKEW, at most MOST_SKEW and lines them up LEAST_GAIN times as
 * sharply as level. Read as scanned, a comic page turned by 1–3° lost 7–17 points of its words:
 * tesseract reads each balloon's rows as they stand.
 */
export function scanSkew(gray: GrayImage): number {
  const ink = inkSample(gray);
  const skew = estimateSkew(ink);
  if (Math.abs(skew) < LEAST_SKEW || Math.abs(skew) > MOST_SKEW) return 0;
  return skewGain(ink, skew) >= LEAST_GAIN ? skew : 0;
}

/**
 * The page of a `width` x `height` source raster scanned `skew` degrees askew, turned level: the
 * box around the turned page (nothing of it cut off), outlined on the source raster. Its corners
 * lie outside the raster, where the raster's edge is drawn on: white there joined the grounds
 * of balloons cut by the raster's edge into one, and a column of a 4-koma page went with its title.
 */
export function levelPage(width: number, height: number, skew: number): FlatPage {
  const a = (skew * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  const w = Math.ceil(width * cos + height * Math.abs(sin));
  const h = Math.ceil(width * Math.abs(sin) + height * cos);
  // A point of the level page, from its centre, lies on the raster turned by the skew about the raster's centre.
  const onSource = (x: number, y: number): [number, number] => {
    const dx = x - w / 2;
    const dy = y - h / 2;
    return [width / 2 + dx * cos - dy * sin, height / 2 + dx * sin + dy * cos];
  };
  return { quad: [onSource(0, 0), onSource(w, 0), onSource(w, h), onSource(0, h)], width: w, height: h, edge: true };
}

/**
 * The page a picture's text is found, read and erased on, outlined on its source raster: the page
 * found lying in a photo (`PageTransform.lying`), or a scan's page turned level (`PageTransform.level`);
 * none for a picture read as it stands.
 */
export function readingPage(transform: PageTransform | null | undefined): FlatPage | undefined {
  if (!transform) return undefined;
  if (transform.lying) return transform.lying;
  return transform.level ? levelPage(transform.sourceWidth, transform.sourceHeight, transform.level) : undefined;
}
