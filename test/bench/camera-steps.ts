// The steps preprocess adds for a photographed page, timed alone on one image (bundled by
// camera.mjs with esbuild and run in Node): page outline and perspective, light, bent lines.
import type { GrayImage } from "../../workers/engine/image/gray";
import { applyLineWarp, measureLineWarp } from "../../workers/engine/image/dewarp";
import { MAX_PAGE_SIDE } from "../../workers/engine/memory";
import { evenOutShading } from "../../workers/engine/image/shading";
import { flattenPhoto } from "../../workers/engine/page/photo";

export interface StepTimes {
  outlineMs: number;
  lightMs: number;
  linesMs: number;
  flat: boolean;
  shading: boolean;
  dewarp: boolean;
}

/** Milliseconds each step takes on a gray image, in preprocess's order, and whether it changed the page. */
export function timePhotoSteps(img: GrayImage): StepTimes {
  let t = performance.now();
  const photo = flattenPhoto(img, MAX_PAGE_SIDE);
  const outlineMs = performance.now() - t;
  let page = photo?.image ?? img;
  t = performance.now();
  const even = evenOutShading(page);
  const lightMs = performance.now() - t;
  page = even ?? page;
  // Bent lines are measured twice: on the page before it is turned upright (its orientation is
  // judged on a straightened copy) and after it is deskewed (the straightening kept).
  t = performance.now();
  const probe = measureLineWarp(page);
  if (probe) applyLineWarp(page, probe);
  const warp = measureLineWarp(page);
  if (warp) applyLineWarp(page, warp);
  const linesMs = performance.now() - t;
  return { outlineMs, lightMs, linesMs, flat: !!photo, shading: !!even, dewarp: !!warp };
}
