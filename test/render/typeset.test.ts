import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { styleFrame, type TypesetRegion } from "../../workers/shared/engine-contract";
import { fontChain } from "../../workers/engine/typeset/fonts";
import { regionSvg } from "../../workers/engine/typeset/draw";
import { atomsOf, fitText } from "../../workers/engine/typeset/layout";
import { turnedWithin } from "../../workers/engine/typeset/typeset-page";
import { characterErrorRate } from "../helpers/text-image";
import { decode, decodeKey, inkBox, pageText, readBack, regionsOf, scene, seedModels } from "./helpers";

const WHITE = "work/typeset/white.png";

/** A white page of the given size, as the background to typeset on. */
async function whitePage(w: number, h: number, key = WHITE): Promise<string> {
  const { PhotonImage } = await import("@cf-wasm/photon");
  const img = new PhotonImage(new Uint8Array(w * h * 4).fill(255), w, h);
  try {
    await env.FILES.put(key, img.get_bytes());
  } finally {
    img.free();
  }
  return key;
}

async function typeset(regions: TypesetRegion[], out: string, background = WHITE) {
  return env.ENGINE.typeset({ backgroundKey: background, regions, outKey: out });
}

describe("typesetting", () => {
  beforeAll(async () => {
    await seedModels(["spa", "chi_sim"]);
    await whitePage(1200, 700);
  });

  it("typesets a translation onto the clean plate that reads back as the translation, in the original's style", async () => {
    const s = scene("flat");
    await env.FILES.put("uploads/t/flat", s.page);
    const pre = await env.ENGINE.preprocess({ sourceKey: "uploads/t/flat", page: 0, outKey: "work/t/page.png", languages: ["eng"] });
    const text = await pageText((await env.ENGINE.recognize({ pageKey: pre.key, languages: ["eng"], outKey: "work/t/text.json" })).key);
    const cleaned = await env.ENGINE.inpaint({
      pageKey: pre.key,
      sourceKey: "uploads/t/flat",
      page: 0,
      regions: regionsOf(text),
      maskKey: "work/t/mask.png",
      cleanKey: "work/t/clean.png",
    });
    const translation = "Pan fresco cada mañana. Abierto todos los días desde las siete.";
    const out = await typeset(
      [{ box: text.regions[0]!.box, lines: text.regions[0]!.lines.map((l) => l.box), text: translation, style: cleaned.regions[0]!.style }],
      "work/t/render.png",
      cleaned.cleanKey,
    );
    expect(out.regions[0]!.overflow, JSON.stringify(out)).not.toBe("overflowing");
    expect(out.regions[0]!.lines).toBeGreaterThan(1);
    const read = await readBack(out.key, ["spa"]);
    expect(characterErrorRate(translation, read.text), read.text).toBeLessThanOrEqual(0.05);
    // Drawn in the original's colour (#1a2b4c): the darkest pixels of the region are that blue.
    const img = await decodeKey(out.key);
    const b = text.regions[0]!.box;
    let best = [255, 255, 255];
    for (let y = b.y; y < b.y + b.h; y++)
      for (let x = b.x; x < b.x + b.w; x++) {
        const i = (y * img.width + x) * 4;
        if (img.data[i]! + img.data[i + 1]! + img.data[i + 2]! < best[0]! + best[1]! + best[2]!)
          best = [img.data[i]!, img.data[i + 1]!, img.data[i + 2]!];
      }
    [0x1a, 0x2b, 0x4c].forEach((v, i) => expect(Math.abs(best[i]! - v), JSON.stringify(best)).toBeLessThanOrEqual(25));
  });

  it("reports fitted, shrunk and overflowing regions", async () => {
    const box = { x: 50, y: 50, w: 500, h: 60 };
    const out = await typeset(
      [
        { box, text: "Short text", style: { font_size: 40 } },
        { box: { ...box, y: 150 }, text: "A much longer sentence that cannot stay at forty pixels on one line", style: { font_size: 40 } },
        {
          box: { x: 50, y: 300, w: 120, h: 20 },
          text: "This paragraph is far too long for such a small box, whatever size it is drawn at, so it overflows.",
          style: { font_size: 16 },
        },
      ],
      "work/typeset/overflow.png",
    );
    expect(out.regions.map((r) => r.overflow)).toEqual(["fitted", "shrunk", "overflowing"]);
    expect(out.regions[0]!.fontSize).toBe(40);
    expect(out.regions[1]!.fontSize).toBeLessThan(40);
    expect(out.regions[1]!.fontSize).toBeGreaterThanOrEqual(18);
  });

  it("aligns lines as asked", async () => {
    const mk = (align: "left" | "center" | "right", y: number) => ({
      box: { x: 100, y, w: 800, h: 60 },
      text: "Centre me",
      style: { font_size: 40, align },
    });
    const out = await typeset([mk("left", 50), mk("center", 150), mk("right", 250)], "work/typeset/align.png");
    const img = await decodeKey(out.key);
    const bg = decode(await (await env.FILES.get(WHITE))!.bytes());
    const [l, c, r] = [50, 150, 250].map((y) => inkBox(img, bg, { x: 100, y, w: 800, h: 60 }));
    expect(l!.x0 - 100).toBeLessThan(10);
    expect(Math.abs((c!.x0 + c!.x1) / 2 - 500)).toBeLessThan(10);
    expect(900 - r!.x1).toBeLessThan(10);
  });

  it("takes a style's frame only where it is a box of positive size", () => {
    // A region's stored style is open: a client may have put anything in its `frame`.
    expect(styleFrame({ frame: { x: 4, y: 6, w: 120, h: 40 }, color: "#000000" })).toEqual({ x: 4, y: 6, w: 120, h: 40 });
    for (const frame of [
      { x: 10, y: "top", w: -5 },
      { x: 0, y: 0, w: 0, h: 9 },
      { x: 0, y: 0, w: "9", h: 9 },
      { x: NaN, y: 0, w: 9, h: 9 },
      "box",
      null,
      [1, 2, 3, 4],
    ])
      expect(styleFrame({ frame }), JSON.stringify(frame)).toBeUndefined();
    expect(styleFrame(null)).toBeUndefined();
  });

  it("sets no translation over a neighbour's frame that covers a band along its own frame's edge", async () => {
    // A newspaper held up over a caption: its frame's lower 60 px are the caption's upper part.
    const paper = { x: 300, y: 100, w: 300, h: 200 };
    const caption = { x: 200, y: 240, w: 500, h: 90 };
    const regions: TypesetRegion[] = [
      { box: paper, text: "TERROR DE CARENCIA JUSTICIA ENTREGADA", style: { frame: paper, color: "#000000", lettering: "caps" } },
      { box: caption, text: "", style: { frame: caption, color: "#000000", lettering: "caps" } },
    ];
    const out = await typeset(regions, "work/typeset/neighbours.png");
    const img = await decodeKey(out.key);
    const bg = decode(await (await env.FILES.get(WHITE))!.bytes());
    expect(inkBox(img, bg, paper).n).toBeGreaterThan(500);
    expect(inkBox(img, bg, caption).n).toBe(0);
  });

  it("sets text turned by its style's angle, inside the turned rectangle its frame is the box around", async () => {
    // A 420 x 170 balloon interior turned 8° clockwise about (600, 350), as a photo at a slant shows it.
    const [cx, cy, w, h, angle] = [600, 350, 420, 170, 8];
    const t = (angle * Math.PI) / 180;
    const [c, s] = [Math.cos(t), Math.sin(t)];
    const [W, H] = [w * c + h * s, w * s + h * c];
    const frame = { x: Math.round(cx - W / 2), y: Math.round(cy - H / 2), w: Math.round(W), h: Math.round(H) };
    expect(turnedWithin(frame, angle).w).toBeCloseTo(w, -1);
    expect(turnedWithin(frame, angle).h).toBeCloseTo(h, -1);
    const region = (a: number) => ({
      box: { x: 450, y: 320, w: 300, h: 60 },
      lines: [{ x: 450, y: 320, w: 300, h: 28 }],
      text: "Una línea que se gira con el globo entero",
      style: { frame, angle: a, lettering: "caps" as const, font_family: "lettering" },
    });
    const bg = decode(await (await env.FILES.get(WHITE))!.bytes());
    /** Ink of a typeset page: its pixels' slope (least squares of y on x) and how many fall outside the turned interior. */
    async function inkOf(a: number, key: string) {
      const out = await typeset([region(a)], key);
      expect(out.regions[0]!.overflow).not.toBe("overflowing");
      const img = await decodeKey(out.key);
      let [n, sx, sy, sxx, sxy, outside] = [0, 0, 0, 0, 0, 0];
      for (let y = 0; y < img.height; y++)
        for (let x = 0; x < img.width; x++) {
          const i = (y * img.width + x) * 4;
          if (bg.data[i]! - img.data[i]! < 80) continue;
          [n, sx, sy, sxx, sxy] = [n + 1, sx + x, sy + y, sxx + x * x, sxy + x * y];
          // In the interior's own axes: turned back by the angle about its centre.
          const [u, v] = [(x - cx) * c + (y - cy) * s, -(x - cx) * s + (y - cy) * c];
          if (Math.abs(u) > w / 2 || Math.abs(v) > h / 2) outside++;
        }
      return { n, slope: (n * sxy - sx * sy) / (n * sxx - sx * sx), outside };
    }
    const turned = await inkOf(angle, "work/typeset/turned.png");
    expect(turned.n).toBeGreaterThan(500);
    expect(turned.outside).toBe(0);
    expect(turned.slope, JSON.stringify(turned)).toBeGreaterThan(Math.tan(t) * 0.6);
    expect(turned.slope).toBeLessThan(Math.tan(t) * 1.4);
    // Without the angle, the same text is set upright in the frame.
    const upright = await inkOf(0, "work/typeset/upright.png");
    expect(Math.abs(upright.slope), JSON.stringify(upright)).toBeLessThan(0.03);
  });

  it("sets turned text in a turned oval balloon as wide as its interior allows, never over its outline", async () => {
    // An oval balloon (radii 230 x 110, outline 4 px) on a grey panel, turned 8° clockwise about
    // (600, 350): its frame is the box around the turned rectangle that holds the oval, whose corners
    // lie outside it.
    const [cx, cy, a, b, angle] = [600, 350, 230, 110, 8];
    const t = (angle * Math.PI) / 180;
    const [c, s] = [Math.cos(t), Math.sin(t)];
    const [W, H] = [2 * a * c + 2 * b * s, 2 * a * s + 2 * b * c];
    const frame = { x: Math.round(cx - W / 2), y: Math.round(cy - H / 2), w: Math.round(W), h: Math.round(H) };
    /** Where a page pixel lies against the oval: below 1 inside, 1 on its inner edge (in the oval's own axes). */
    const oval = (x: number, y: number) => {
      const [u, v] = [(x - cx) * c + (y - cy) * s, -(x - cx) * s + (y - cy) * c];
      return (u / a) ** 2 + (v / b) ** 2;
    };
    const { PhotonImage } = await import("@cf-wasm/photon");
    const [pw, ph] = [1200, 700];
    const px = new Uint8Array(pw * ph * 4);
    for (let y = 0; y < ph; y++)
      for (let x = 0; x < pw; x++) {
        const d = oval(x, y);
        px.set(d <= 1 ? [255, 255, 255, 255] : d <= 1.04 ? [0, 0, 0, 255] : [120, 140, 160, 255], (y * pw + x) * 4);
      }
    const background = "work/typeset/turned-oval-bg.png";
    const img = new PhotonImage(px, pw, ph);
    try {
      await env.FILES.put(background, img.get_bytes());
    } finally {
      img.free();
    }
    const text = "Su gran área hace de ese espejo una lupa tremenda, ¡me quema las muñecas! ¡Ojalá ardan las cuerdas!";
    const out = await typeset(
      [{ box: frame, lines: [], text, style: { frame, angle, lettering: "caps", font_family: "lettering" } }],
      "work/typeset/turned-oval.png",
      background,
    );
    expect(out.regions[0]!.overflow, JSON.stringify(out)).not.toBe("overflowing");
    const bg = decode(await (await env.FILES.get(background))!.bytes());
    const set = await decodeKey(out.key);
    let [drawn, outside] = [0, 0];
    for (let y = 0; y < ph; y++)
      for (let x = 0; x < pw; x++) {
        const i = (y * pw + x) * 4;
        if (Math.abs(bg.data[i]! - set.data[i]!) + Math.abs(bg.data[i + 2]! - set.data[i + 2]!) < 80) continue;
        drawn++;
        if (oval(x, y) > 1) outside++;
      }
    // Laid out in the turned rectangle alone, the first and last lines reached past the outline at its corners.
    expect(drawn).toBeGreaterThan(2000);
    expect(outside, `${outside} of ${drawn} drawn pixels outside the oval`).toBe(0);
  });

  it("sets a paragraph as wide as most of its lines, not out to one line that sticks out", async () => {
    // Six lines from x = 60; the fourth was read from the page's edge (a dark border taken into its first word).
    const lines = [0, 1, 2, 3, 4, 5].map((i) => ({ x: i === 3 ? 0 : 60, y: 100 + i * 40, w: i === 3 ? 560 : 500, h: 30 }));
    const box = { x: 0, y: 100, w: 560, h: 230 };
    const text = "Un texto largo que llena el párrafo entero de una columna, línea tras línea, hasta el final de la caja.";
    const out = await typeset([{ box, lines, text, style: { align: "left" } }], "work/typeset/body.png");
    const img = await decodeKey(out.key);
    const bg = decode(await (await env.FILES.get(WHITE))!.bytes());
    const ink = inkBox(img, bg, box)!;
    expect(out.regions[0]!.overflow).not.toBe("overflowing");
    expect(ink.x0, JSON.stringify(ink)).toBeGreaterThanOrEqual(58);
    expect(ink.x1).toBeLessThanOrEqual(562);
  });

  it("covers Latin, Cyrillic, Greek, Chinese and Japanese through the font chain", async () => {
    const box = (i: number) => ({ x: 40, y: 30 + i * 110, w: 1100, h: 90 });
    const texts = ["Grüße aus Köln", "Привет, мир", "Καλημέρα κόσμε", "欢迎光临本店", "ありがとうございます"];
    const out = await typeset(
      texts.map((t, i) => ({ box: box(i), text: t, style: { font_size: 56 } })),
      "work/typeset/scripts.png",
    );
    expect(out.regions.map((r) => r.fonts)).toEqual([
      ["DejaVu Sans"],
      ["DejaVu Sans"],
      ["DejaVu Sans"],
      ["Noto Sans SC"],
      ["Noto Sans SC"],
    ]);
    const img = await decodeKey(out.key);
    const bg = decode(await (await env.FILES.get(WHITE))!.bytes());
    for (let i = 0; i < texts.length; i++) expect(inkBox(img, bg, box(i)).n, texts[i]).toBeGreaterThan(500);
    // The Chinese line reads back with the Chinese model.
    await env.FILES.put("work/typeset/zh.png", await cropPng(img, box(3)));
    const read = await readBack("work/typeset/zh.png", ["chi_sim"]);
    expect(characterErrorRate("欢迎光临本店", read.text.replace(/\s+/g, "")), read.text).toBeLessThanOrEqual(0.2);
  });

  it("writes vertical CJK regions top to bottom in columns from the right", async () => {
    const box = { x: 500, y: 40, w: 140, h: 420 };
    const out = await typeset(
      [{ box, text: "欢迎光临本店欢迎再来", vertical: true, style: { font_size: 48 } }],
      "work/typeset/vertical.png",
    );
    expect(out.regions[0]!.lines).toBe(2);
    const img = await decodeKey(out.key);
    const bg = decode(await (await env.FILES.get(WHITE))!.bytes());
    const ink = inkBox(img, bg, box);
    expect(ink.y1 - ink.y0, JSON.stringify(ink)).toBeGreaterThan(350);
    // Ten characters in two columns: the right column is full (eight), the left holds the rest.
    const right = inkBox(img, bg, { x: box.x + box.w / 2, y: box.y, w: box.w / 2, h: box.h });
    const left = inkBox(img, bg, { x: box.x, y: box.y, w: box.w / 2, h: box.h });
    expect(right.y1 - right.y0).toBeGreaterThan(left.y1 - left.y0);
  });

  it("breaks space-less text between characters, never before closing punctuation", async () => {
    await seedModels();
    const chain = await fontChain(env.MODELS, false);
    const text = "今天天气很好，我们去公园散步。然后在湖边吃午饭，晚上回家。";
    const { layout } = fitText(chain, text, { x: 0, y: 0, w: 200, h: 400 }, 30, false);
    expect(layout.lines.length).toBeGreaterThan(3);
    expect(layout.lines.map((l) => l.text).join("")).toBe(text);
    for (const l of layout.lines) expect(l.text[0], JSON.stringify(layout.lines)).not.toMatch(/[，。、]/);
    expect(atomsOf("Hello world 你好").map((a) => a.text)).toEqual(["Hello", "world", "你", "好"]);
  });

  it("sets columns within their box, the long vowel and brackets turned, commas and stops at the top right", async () => {
    await seedModels();
    const chain = await fontChain(env.MODELS, false);
    // Eight characters a column: the ninth is "！", which may not start a column and takes "ー" with it.
    const text = "コーヒーがすきですー！「はい」、そうです。";
    const box = { x: 0, y: 0, w: 200, h: 8 * 20 };
    const { layout, overflow } = fitText(chain, text, box, 20, true);
    expect(overflow).toBe("fitted");
    expect(layout.lines.map((c) => c.text).join("")).toBe(text);
    for (const c of layout.lines) {
      expect(c.width, JSON.stringify(layout.lines)).toBeLessThanOrEqual(box.h);
      expect(c.text[0], JSON.stringify(layout.lines)).not.toMatch(/[！、。」]/);
    }
    const { svg } = regionSvg(chain, layout, box, { color: "#000000", align: "center", weight: 400 }, null);
    // Each "ー" and corner bracket is drawn turned a quarter about its own cell; "、" and "。" move
    // to the cell's top right.
    expect(svg.match(/rotate\(90 /g)?.length).toBe(5);
    expect(svg.match(/translate\(12\.00 -12\.00\)/g)?.length).toBe(2);
    // In a balloon (centred) the columns sit in the middle of a taller box.
    const tall = regionSvg(chain, layout, { ...box, h: 400 }, { color: "#000000", align: "center", weight: 400 }, null).svg;
    const firstY = Number(/<text x="[\d.]+" y="([\d.]+)"/.exec(tall)![1]);
    expect(firstY).toBeGreaterThan((400 - 8 * 20) / 2);
  });
});

/** A PNG of a rectangle of an RGBA image (for reading one line back). */
async function cropPng(img: { width: number; data: Uint8Array }, b: { x: number; y: number; w: number; h: number }): Promise<Uint8Array> {
  const { PhotonImage } = await import("@cf-wasm/photon");
  const out = new Uint8Array(b.w * b.h * 4);
  for (let y = 0; y < b.h; y++)
    out.set(img.data.subarray(((b.y + y) * img.width + b.x) * 4, ((b.y + y) * img.width + b.x + b.w) * 4), y * b.w * 4);
  const p = new PhotonImage(out, b.w, b.h);
  try {
    return p.get_bytes();
  } finally {
    p.free();
  }
}
