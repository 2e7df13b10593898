import type { TestProject } from "vitest/node";
// Node-side rendering (resvg-js with the project's fonts): pages with known text on known backgrounds.
import { FONT_FILES } from "../bench/ocr-render.mjs";
import { PhotonImage } from "@cf-wasm/photon";
import { Resvg } from "@resvg/resvg-js";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { fileURLToPath } from "node:url";
import { BACKGROUNDS as PLATE_KINDS, GRASS_PAGE, HATCH_PAGE, photoScene, plateScene, SPLIT_PAGE, svgPage } from "./plates.mjs";
import { BACKGROUNDS, renderScene } from "./scenes.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    /** Text-removal scenes: the page with text and the same background without it, base64 PNG, by name. */
    renderScenes: Record<string, { page: string; background: string }>;
    /**
     * Clean-plate scenes (plates.mjs): one per background kind, `split` (flat over gradient), `hatch`,
     * `grass` and `leaf` (a real photograph, test/fixtures/real/mate_raindrops-crop.jpg), same shape.
     */
    plateScenes: Record<string, { page: string; background: string }>;
    /**
     * Loopback server of scenes too large to pass through `provide`: `GET /<name>/page` and
     * `/<name>/background` (PNG; the flower's page JPEG). `leaf` and `flower` are real photographs
     * (test/fixtures/real/mate_raindrops-crop.jpg, mate_freshflower-crop.jpg).
     */
    largeScenesUrl: string;
  }
}

let server: Server | undefined;

export default async function setup(project: TestProject) {
  const scenes: Record<string, { page: string; background: string }> = {};
  // The shared renderer's fonts lack DejaVu Sans Bold, which the bold scene needs.
  const fontFiles = [
    ...FONT_FILES,
    ...["DejaVuSans-Bold.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSansMono-Bold.ttf"].map((f) =>
      fileURLToPath(new URL(`../../node_modules/dejavu-fonts-ttf/ttf/${f}`, import.meta.url)),
    ),
  ];
  const draw = (svg: string) =>
    Buffer.from(
      new Resvg(svg, { font: { fontFiles, loadSystemFonts: false, defaultFontFamily: "DejaVu Sans" } }).render().asPng(),
    ).toString("base64");
  for (const name of Object.keys(BACKGROUNDS) as (keyof typeof BACKGROUNDS)[]) {
    const s = renderScene(name);
    scenes[name] = { page: draw(s.page), background: draw(s.background) };
  }
  project.provide("renderScenes", scenes);
  const plates: Record<string, { page: string; background: string }> = {};
  for (const kind of Object.keys(PLATE_KINDS)) {
    const s = plateScene(kind, 1, 900, 400);
    plates[kind] = { page: draw(s.page), background: draw(s.background) };
  }
  for (const [name, p] of [
    ["split", SPLIT_PAGE],
    ["hatch", HATCH_PAGE],
    ["grass", GRASS_PAGE],
  ] as const) {
    plates[name] = {
      page: draw(svgPage(p.width, p.height, p.background, p.lines)),
      background: draw(svgPage(p.width, p.height, p.background, [])),
    };
  }
  project.provide("plateScenes", plates);
  const real = (file: string) => readFileSync(fileURLToPath(new URL(`../fixtures/real/${file}`, import.meta.url)));
  const large: Record<string, Buffer> = {};
  // The flower page is uploaded as JPEG (quality 85), as the render benchmark uploads it.
  const jpeg = (png: Buffer) => {
    const img = PhotonImage.new_from_byteslice(png);
    try {
      return Buffer.from(img.get_bytes_jpeg(85));
    } finally {
      img.free();
    }
  };
  for (const [name, s, asJpeg] of [
    ["leaf", photoScene(real("mate_raindrops-crop.jpg")), false],
    ["flower", photoScene(real("mate_freshflower-crop.jpg"), 3), true],
  ] as const) {
    const page = Buffer.from(draw(s.page), "base64");
    large[`/${name}/page`] = asJpeg ? jpeg(page) : page;
    large[`/${name}/background`] = Buffer.from(draw(s.background), "base64");
  }
  server = createServer((req, res) => {
    const bytes = req.method === "GET" ? large[req.url ?? ""] : undefined;
    if (!bytes) res.writeHead(404).end();
    else res.writeHead(200).end(bytes);
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("the large-scene server has no port");
  project.provide("largeScenesUrl", `http://127.0.0.1:${address.port}`);
  // Returned, not exported as `teardown`: vitest ignores a named teardown beside a default export.
  return () =>
    new Promise<void>((resolve) => {
      server!.close(() => resolve());
      server!.closeAllConnections();
    });
}
