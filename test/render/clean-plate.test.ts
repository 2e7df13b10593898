import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { InpaintRegion, PageLayout, PageText } from "../../workers/shared/engine-contract";
import { checkPlate } from "../../workers/engine/inpaint/plate-check";
import { db as makeDb } from "../../src/db/client";
import { inpaintingStage } from "../../src/pipeline/stages/inpainting";
import { picture } from "../engine/helpers";
import { api, body, seedAccount, waitForJob } from "../helpers/api";
import { decode, decodeKey, difference, ocr, plate, seedModels, upload, type Rgba } from "./helpers";
import { HATCH_PAGE, plateScene, SPLIT_PAGE } from "./plates.mjs";

type Rect = { x: number; y: number; w: number; h: number };

/** The box around every pixel where the page differs from its true background (the text), padded. */
function textArea(page: Rgba, truth: Rgba, within: Rect = { x: 0, y: 0, w: page.width, h: page.height }, pad = 6): Rect {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -1,
    y1 = -1;
  for (let y = within.y; y < within.y + within.h; y++) {
    for (let x = within.x; x < within.x + within.w; x++) {
      const i = (y * page.width + x) * 4;
      const d = Math.max(
        Math.abs(page.data[i]! - truth.data[i]!),
        Math.abs(page.data[i + 1]! - truth.data[i + 1]!),
        Math.abs(page.data[i + 2]! - truth.data[i + 2]!),
      );
      if (d <= 30) continue;
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x);
      y1 = Math.max(y1, y);
    }
  }
  const left = Math.max(within.x, x0 - pad),
    top = Math.max(within.y, y0 - pad);
  return { x: left, y: top, w: Math.min(within.x + within.w, x1 + pad + 1) - left, h: Math.min(within.y + within.h, y1 + pad + 1) - top };
}

/** Regions as the `erase` tool makes them: the detected text blocks and their line boxes. */
async function detectedRegions(name: string, bytes: Uint8Array): Promise<{ pageKey: string; sourceKey: string; regions: InpaintRegion[] }> {
  const sourceKey = `uploads/plates/${name}`;
  await env.FILES.put(sourceKey, bytes);
  const pre = await env.ENGINE.preprocess({ sourceKey, page: 0, outKey: `work/plates/${name}/page.png`, languages: ["eng"] });
  const det = await env.ENGINE.detect({ pageKey: pre.key, outKey: `work/plates/${name}/layout.json` });
  const layout = (await (await env.FILES.get(det.key))!.json()) as PageLayout;
  return {
    pageKey: pre.key,
    sourceKey,
    regions: layout.blocks.map((b) => ({ box: b.box, lines: b.items.map((l) => l.box), vertical: b.vertical })),
  };
}

/** Erases given regions of a page already preprocessed (`detectedRegions`), its plates named `name` under work/plates/`page`/. */
function eraserOf(page: string, pageKey: string, sourceKey: string) {
  return (regions: InpaintRegion[], name: string) =>
    env.ENGINE.inpaint({
      pageKey,
      sourceKey,
      page: 0,
      regions,
      maskKey: `work/plates/${page}/${name}-mask.png`,
      cleanKey: `work/plates/${page}/${name}.png`,
      languages: ["eng"],
    });
}

/** Mean absolute difference to the true background over the text area, of the clean plate and of the untouched page. */
async function plateFigures(s: { page: Uint8Array; background: Uint8Array }, cleanKey: string) {
  const page = decode(s.page),
    truth = decode(s.background),
    clean = await decodeKey(cleanKey);
  const area = textArea(page, truth);
  return { area, after: difference(clean, truth, [area]).mean, before: difference(page, truth, [area]).mean };
}

/** Uploads a page and erases the given regions (chosen from the page image's size), as the inpainting stage does. */
async function eraseRegions(name: string, bytes: Uint8Array, regionsOf: (page: { width: number; height: number }) => InpaintRegion[]) {
  const sourceKey = `uploads/plates/${name}`;
  await env.FILES.put(sourceKey, bytes);
  const pre = await env.ENGINE.preprocess({ sourceKey, page: 0, outKey: `work/plates/${name}/page.png`, languages: ["eng"] });
  return env.ENGINE.inpaint({
    pageKey: pre.key,
    sourceKey,
    page: 0,
    regions: regionsOf(pre),
    maskKey: `work/plates/${name}/mask.png`,
    cleanKey: `work/plates/${name}/clean.png`,
    languages: ["eng"],
  });
}

/**
 * Erases a scene handed over as one "line" the size of the picture (what layout analysis returns
 * on a photograph), checks that the zone was read and kept as text, and measures the clean plate.
 */
async function eraseWholePicture(name: string) {
  const s = await plate(name);
  const out = await eraseRegions(name, s.page, ({ width, height }) => {
    const whole = { x: 0, y: 0, w: width, h: height };
    return [{ box: whole, lines: [whole] }];
  });
  expect(out.textCheck, JSON.stringify(out)).toEqual({ zones: 1, rejected: 0, read: 1 });
  return { out, figures: await plateFigures(s, out.cleanKey) };
}

describe("clean plates on every kind of background", () => {
  // Limits: the mean absolute difference (0–255) to the true background inside the text area, on
  // its own (flat, gradient and two-tone come back almost exactly; paper grain within its noise)
  // or as a share of the untouched input's (the photograph-like texture).
  it.each([
    ["flat", 2.0, null],
    ["gradient", 2.0, null],
    ["two-tone", 2.0, null],
    ["paper", 2.5, null],
    ["photo", null, 0.35],
  ] as const)("%s: no text left, the fill matches the true background", async (kind, maxMean, maxRatio) => {
    const s = await plate(kind);
    const { pageKey, sourceKey, regions } = await detectedRegions(kind, s.page);
    expect(regions.length).toBeGreaterThan(0);
    const out = await env.ENGINE.inpaint({
      pageKey,
      sourceKey,
      page: 0,
      regions,
      maskKey: `work/plates/${kind}/mask.png`,
      cleanKey: `work/plates/${kind}/clean.png`,
      languages: ["eng"],
    });
    expect(
      out.regions.map((r) => [r.leftover, r.smear]),
      JSON.stringify(out.regions),
    ).toEqual(regions.map(() => [false, false]));
    const { area, after, before } = await plateFigures(s, out.cleanKey);
    const figures = JSON.stringify({ area, after, before });
    if (maxMean !== null) expect(after, figures).toBeLessThanOrEqual(maxMean);
    if (maxRatio !== null) expect(after / before, figures).toBeLessThanOrEqual(maxRatio);
    // Nothing of the text is read back (texture may read as a stray mark, as on the true background).
    const again = await ocr(new Uint8Array(await (await env.FILES.get(out.cleanKey))!.arrayBuffer()), `work/plates/${kind}/again.png`, [
      "eng",
    ]);
    const words = new Set(
      (plateScene(kind, 1, 900, 400).lines as { text: string }[]).flatMap((l) => l.text.toLowerCase().match(/[a-z]{3,}/g) ?? []),
    );
    expect(
      (again.toLowerCase().match(/[a-z]{3,}/g) ?? []).filter((w) => words.has(w)),
      again,
    ).toEqual([]);
  });

  it("leaves a picture untouched where layout analysis took its texture for lines of text", async () => {
    // The photograph-like background alone, uploaded as a page, with "lines" where there is no text.
    const s = await plate("photo");
    const lines = [
      { x: 60, y: 60, w: 700, h: 56 },
      { x: 60, y: 140, w: 640, h: 44 },
      { x: 120, y: 260, w: 600, h: 60 },
    ];
    const regions: InpaintRegion[] = [
      { box: { x: 60, y: 60, w: 700, h: 200 }, lines: lines.slice(0, 2) },
      { box: lines[2]!, lines: [lines[2]!] },
    ];
    const out = await eraseRegions("photo-only", s.background, () => regions);
    expect(out.textCheck.zones, JSON.stringify(out)).toBeGreaterThan(0);
    expect(out.textCheck.rejected, JSON.stringify(out)).toBe(out.textCheck.zones);
    expect(
      out.regions.map((r) => r.masked),
      JSON.stringify(out.regions),
    ).toEqual([0, 0]);
    const clean = await decodeKey(out.cleanKey),
      truth = decode(s.background);
    expect(difference(clean, truth, [{ x: 0, y: 0, w: truth.width, h: truth.height }]).mean).toBe(0);
  });

  it("keeps a comic prose page's illustration, which layout analysis takes for a block of text, and removes its text (a real page)", async () => {
    // The page's top third (a drawn title and an illustration) is one "block" to layout analysis;
    // its paper is textured, so every zone is read. The drawing read as "22%", "DMN", "WHEE" at
    // 0.5–0.65, and those words and their neighbours along its rows were wiped (a man's face and leg).
    const { pageKey, sourceKey, regions } = await detectedRegions("prose-page", await picture("ctd_006014.jpg"));
    const erase = eraserOf("prose-page", pageKey, sourceKey);
    const out = await erase(regions, "clean");
    expect(out.textCheck.read, JSON.stringify(out.textCheck)).toBeGreaterThan(100);
    // The page as the plate starts from, nothing removed: what each area is compared with.
    const base = await decodeKey((await erase([], "base")).cleanKey);
    const clean = await decodeKey(out.cleanKey);
    const changed = (r: Rect) => {
      let n = 0;
      for (let y = r.y; y < r.y + r.h; y++)
        for (let x = r.x; x < r.x + r.w; x++) {
          const i = (y * base.width + x) * 4;
          if ([0, 1, 2].some((c) => Math.abs(base.data[i + c]! - clean.data[i + c]!) > 40)) n++;
        }
      return n / (r.w * r.h);
    };
    const illustration = changed({ x: 330, y: 30, w: 490, h: 300 });
    const columns = changed({ x: 20, y: 360, w: 800, h: 840 });
    expect(illustration, `illustration ${illustration}, columns ${columns}`).toBeLessThan(0.01);
    expect(columns, `illustration ${illustration}, columns ${columns}`).toBeGreaterThan(0.15);
  });

  it("removes the lines of a photographed prose page that cross a hard shadow's edge (a real page)", async () => {
    // Its paper is textured, so every zone is read; read on the photo's own light, a line whose
    // ground steps from light to shadow read as nothing and was left. Zones are read on the page as
    // recognition read it, its light evened out.
    const { pageKey, sourceKey, regions } = await detectedRegions("prose-shadow", await picture("photo-prose-shadow.jpg"));
    const erase = eraserOf("prose-shadow", pageKey, sourceKey);
    const out = await erase(regions, "clean");
    expect(out.textCheck.read, JSON.stringify(out.textCheck)).toBeGreaterThan(50);
    const wordsOn = async (key: string) => {
      const bytes = new Uint8Array(await (await env.FILES.get(key))!.arrayBuffer());
      return (await ocr(bytes, `${key}.read`, ["eng"])).split(/\s+/).filter((w) => /[a-z]{3}/i.test(w));
    };
    const before = await wordsOn((await erase([], "base")).cleanKey);
    const after = await wordsOn(out.cleanKey);
    expect(before.length).toBeGreaterThan(300);
    expect(after.length, after.join(" ")).toBeLessThan(0.05 * before.length);
  });

  it("removes the text inside a whole-picture 'line' (what layout analysis returns on a photograph)", async () => {
    // Text over sky and tall grass, handed over as one line the size of the picture: that zone is
    // read with tesseract's own layout and local binarisation (a uniform-block reading of the whole
    // picture reads no word there), and the words found are removed.
    const { figures } = await eraseWholePicture("grass");
    expect(figures.after / figures.before, JSON.stringify(figures)).toBeLessThanOrEqual(0.7);
  });

  it("removes yellow text on a green leaf, which stands out in hue more than in lightness (a real photograph as one 'line')", async () => {
    // A reading of the whole picture finds no word here: the picture is read again in bands,
    // locally binarised, and a band with nothing read in lightness on its colours' second
    // principal axis. All three lines are found and removed.
    const { out, figures } = await eraseWholePicture("leaf");
    expect(figures.after / figures.before, JSON.stringify(figures)).toBeLessThanOrEqual(0.35);
    const again = await ocr(new Uint8Array(await (await env.FILES.get(out.cleanKey))!.arrayBuffer()), "work/plates/leaf/again.png", [
      "eng",
    ]);
    expect(again.toLowerCase(), again).not.toMatch(/flour|butter|seasonal|orders|birthdays|welcome|closed|public|holidays/);
  });

  it("removes yellow text on an orange flower whose lit petals hide much of the glyphs (a real photograph uploaded as JPEG, regions from layout analysis)", async () => {
    // The petals' texture sets the ink threshold above much of the glyphs' contrast: each read
    // word's ink is grown by its colour against the background's main colours, and words the
    // leftover check still reads are removed once more. No region is left flagged.
    const s = await plate("flower");
    const { pageKey, sourceKey, regions } = await detectedRegions("flower", s.page);
    const out = await env.ENGINE.inpaint({
      pageKey,
      sourceKey,
      page: 0,
      regions,
      maskKey: "work/plates/flower/mask.png",
      cleanKey: "work/plates/flower/clean.png",
      languages: ["eng"],
    });
    expect(
      out.regions.filter((r) => r.leftover),
      JSON.stringify(out.regions),
    ).toEqual([]);
    const figures = await plateFigures(s, out.cleanKey);
    expect(figures.after / figures.before, JSON.stringify(figures)).toBeLessThanOrEqual(0.5);
    const again = await ocr(new Uint8Array(await (await env.FILES.get(out.cleanKey))!.arrayBuffer()), "work/plates/flower/again.png", [
      "eng",
    ]);
    const words = (plateScene("photo", 3, 1400, 760).lines as { text: string }[]).flatMap(
      (l) => l.text.toLowerCase().match(/[a-z]{4,}/g) ?? [],
    );
    expect(
      words.filter((w) => again.toLowerCase().includes(w)),
      again,
    ).toEqual([]);
  });

  it("takes a line recognition read surely for text without reading it again, and removes it as well", async () => {
    // Regions as recognition gives them, with their words: on a textured page the check takes the
    // recognised words of a line-shaped zone as its text, where it would otherwise read it again.
    const s = await plate("photo");
    const sourceKey = "uploads/plates/photo-read";
    await env.FILES.put(sourceKey, s.page);
    const pre = await env.ENGINE.preprocess({ sourceKey, page: 0, outKey: "work/plates/photo-read/page.png", languages: ["eng"] });
    const rec = await env.ENGINE.recognize({ pageKey: pre.key, languages: ["eng"], outKey: "work/plates/photo-read/text.json" });
    const text = (await (await env.FILES.get(rec.key))!.json()) as PageText;
    const regions: InpaintRegion[] = text.regions.map((r) => ({
      box: r.box,
      lines: r.lines.map((l) => l.box),
      words: r.lines.flatMap((l) => l.words),
    }));
    const erase = (name: string, given: InpaintRegion[]) =>
      env.ENGINE.inpaint({
        pageKey: pre.key,
        sourceKey,
        page: 0,
        regions: given,
        maskKey: `work/plates/${name}/mask.png`,
        cleanKey: `work/plates/${name}/clean.png`,
        languages: ["eng"],
      });
    const out = await erase("photo-read", regions);
    const reread = await erase(
      "photo-reread",
      regions.map(({ words: _, ...r }) => r),
    );
    expect(out.textCheck.zones, JSON.stringify(out.textCheck)).toBeGreaterThan(0);
    expect(reread.textCheck.read, JSON.stringify(reread.textCheck)).toBe(reread.textCheck.zones);
    expect(out.textCheck.read, JSON.stringify(out.textCheck)).toBeLessThan(out.textCheck.zones / 2);
    expect(out.regions.filter((r) => r.leftover)).toEqual([]);
    const [taken, again] = [await plateFigures(s, out.cleanKey), await plateFigures(s, reread.cleanKey)];
    expect(taken.after / taken.before, JSON.stringify({ taken, again })).toBeLessThanOrEqual(
      Math.max(0.35, (again.after / again.before) * 1.1),
    );
  });

  it("keeps each side of a background boundary its own colour where a line crosses it", async () => {
    const s = await plate("two-tone");
    const { pageKey, sourceKey, regions } = await detectedRegions("two-tone-edge", s.page);
    const out = await env.ENGINE.inpaint({
      pageKey,
      sourceKey,
      page: 0,
      regions,
      maskKey: "work/plates/edge/mask.png",
      cleanKey: "work/plates/edge/clean.png",
    });
    const page = decode(s.page),
      truth = decode(s.background),
      clean = await decodeKey(out.cleanKey);
    // The boundary's column: where the true background's first row changes colour.
    let edge = 0;
    while (Math.abs(truth.data[edge * 4]! - truth.data[0]!) + Math.abs(truth.data[edge * 4 + 2]! - truth.data[2]!) < 30) edge++;
    const area = textArea(page, truth);
    // A band 12 px each side of the boundary over the text: no smear from one side into the other.
    const band = { x: edge - 12, y: area.y, w: 24, h: area.h };
    const diff = difference(clean, truth, [band]);
    expect(diff.mean, JSON.stringify({ band, diff })).toBeLessThanOrEqual(4);
    expect(diff.bad, JSON.stringify({ band, diff })).toBeLessThanOrEqual(0.03);
  });

  it("flags a fill with no real background near it, and not a fill that follows the background", () => {
    // The true two-tone background and a hole across its lower (blue) half.
    const width = 200,
      height = 100;
    const truth: Rgba = { width, height, data: new Uint8Array(width * height * 4) };
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) truth.data.set(y < 50 ? [239, 229, 207, 255] : [40, 90, 170, 255], (y * width + x) * 4);
    }
    const mask = new Uint8Array(width * height);
    for (let y = 60; y < 70; y++) for (let x = 20; x < 180; x++) mask[y * width + x] = 1;
    const zones = [{ x0: 10, y0: 55, x1: 190, y1: 75 }];
    expect(checkPlate(truth, mask, zones, 8).flagged).toBe(false);
    // Beige dragged down into the blue half: the smear the check is for.
    const smeared = { ...truth, data: truth.data.slice() };
    for (let y = 60; y < 70; y++) for (let x = 20; x < 120; x++) smeared.data.set([239, 229, 207, 255], (y * width + x) * 4);
    const check = checkPlate(smeared, mask, zones, 8);
    expect(check.flagged, JSON.stringify(check)).toBe(true);
    expect(check.smear).toBeGreaterThan(0.5);
  });
});

describe("erase: the page of the text-removal report", () => {
  it("exports a PNG whose flat half and gradient half are both clean", async () => {
    const { auth } = await seedAccount({ credits: 20 });
    const s = await plate("split");
    const created = await body(
      await api("/api/v1/process", {
        method: "POST",
        headers: auth,
        body: upload(s.page, "split.png", { tool: "erase", export_formats: ["png"] }),
      }),
    );
    const job = await waitForJob(created.id, auth);
    expect(job.status, JSON.stringify(job)).toBe("completed");
    const exp = job.output.exports.find((e: any) => e.format === "png");
    const link = await body(await api(exp.download, { headers: auth }));
    const url = new URL(link.url);
    const png = new Uint8Array(await (await api(url.pathname + url.search)).arrayBuffer());
    const clean = decode(png),
      page = decode(s.page),
      truth = decode(s.background);
    expect([clean.width, clean.height]).toEqual([SPLIT_PAGE.width, SPLIT_PAGE.height]);
    const half = SPLIT_PAGE.height / 2;
    for (const within of [
      { x: 0, y: 0, w: SPLIT_PAGE.width, h: half },
      { x: 0, y: half, w: SPLIT_PAGE.width, h: half },
    ]) {
      const area = textArea(page, truth, within);
      const after = difference(clean, truth, [area]),
        before = difference(page, truth, [area]);
      const figures = JSON.stringify({ area, after, before });
      expect(after.mean, figures).toBeLessThanOrEqual(2.0);
      expect(after.mean / before.mean, figures).toBeLessThan(0.1);
      expect(after.bad, figures).toBeLessThanOrEqual(0.005);
      // Nothing of one half is carried into the other: the whole half matches its true background.
      expect(difference(clean, truth, [within]).mean, JSON.stringify(within)).toBeLessThanOrEqual(1.0);
    }
    const text = await ocr(png, "work/plates/split-export.png", ["eng"]);
    expect(text.replace(/\s+/g, ""), text).toBe("");
    const project = await body(await api(`/api/v1/projects/${job.project_id}`, { headers: auth }));
    expect(project.regions.length).toBeGreaterThan(0);
    expect(project.regions.map((r: any) => [r.leftover_text, r.smear])).toEqual(project.regions.map(() => [false, false]));
  });

  it("flags a smeared region on the region and as a stage warning", async () => {
    const { auth, userId } = await seedAccount({ credits: 20 });
    const s = await plate("hatch");
    const created = await body(
      await api("/api/v1/process", {
        method: "POST",
        headers: auth,
        body: upload(s.page, "hatch.png", { tool: "erase", export_formats: ["png"] }),
      }),
    );
    const job = await waitForJob(created.id, auth);
    expect(job.status, JSON.stringify(job)).toBe("completed");
    // A region drawn over the bars (as a user would, without line boxes): they are all taken for
    // strokes, and the fill has no real background near the middle of the block.
    const row = await env.DB.prepare("SELECT id FROM regions WHERE project_id = ? ORDER BY reading_order LIMIT 1")
      .bind(job.project_id)
      .first<{ id: string }>();
    // Region boxes are in page-image pixels (preprocessing may rescale the upload).
    const before = await body(await api(`/api/v1/projects/${job.project_id}`, { headers: auth }));
    const k = before.pages[0].width / HATCH_PAGE.width;
    const b = HATCH_PAGE.bars;
    await env.DB.prepare("UPDATE regions SET x = ?, y = ?, w = ?, h = ?, lines = NULL WHERE id = ?")
      .bind(Math.round(b.x * k), Math.round(b.y * k), Math.round(b.w * k), Math.round(b.h * k), row!.id)
      .run();
    const plan = {
      jobId: job.id,
      attempt: 0,
      kind: "rerender" as const,
      userId,
      projectId: job.project_id,
      tool: "erase" as const,
      pages: 1,
      pagesToRun: [0],
      exportPages: [0],
      sourceKey: `uploads/${userId}/${job.id}/source`,
      languages: ["eng"],
      targetLanguage: null,
      formats: ["png"],
      baseName: "hatch",
      concurrency: 1,
    };
    const result = await inpaintingStage(env, makeDb(env.DB), plan, 0);
    const smear = result.warnings?.filter((w) => w.code === "smear") ?? [];
    expect(smear.map((w) => w.message).filter((m) => m.includes(row!.id)).length, JSON.stringify(result)).toBe(1);
    const project = await body(await api(`/api/v1/projects/${job.project_id}`, { headers: auth }));
    expect(project.regions.find((r: any) => r.id === row!.id).smear).toBe(true);
  });
});

describe("typesetting over a clean plate", () => {
  it("draws no line across a background edge under the region", async () => {
    await seedModels();
    const s = await plate("split");
    await env.FILES.put("work/plates/typeset/background.png", s.background);
    const text =
      "Fresh bread and pastries every morning from seven, cakes for birthdays and weddings to order, coffee until the last loaf is sold, closed on public holidays and on Sundays in August.";
    const box = { x: 80, y: 90, w: 800, h: 600 };
    const out = await env.ENGINE.typeset({
      backgroundKey: "work/plates/typeset/background.png",
      outKey: "work/plates/typeset/render.png",
      regions: [{ box, text, style: { color: "#2a1d10", font_size: 54, align: "left" } }],
    });
    expect(["fitted", "shrunk"]).toContain(out.regions[0]!.overflow);
    expect(out.regions[0]!.lines).toBeGreaterThan(3);
    const render = await decodeKey(out.key),
      bg = decode(s.background);
    const inkRows = new Set<number>();
    for (let y = box.y; y < box.y + box.h; y++) {
      for (let x = box.x; x < box.x + box.w; x++) {
        const i = (y * bg.width + x) * 4;
        if (
          Math.max(
            Math.abs(render.data[i]! - bg.data[i]!),
            Math.abs(render.data[i + 1]! - bg.data[i + 1]!),
            Math.abs(render.data[i + 2]! - bg.data[i + 2]!),
          ) > 40
        )
          inkRows.add(y);
      }
    }
    const edge = SPLIT_PAGE.height / 2;
    const near = [...inkRows].filter((y) => Math.abs(y - edge) <= 4);
    expect(near, JSON.stringify(near)).toEqual([]);
    // Text on both sides of the edge.
    const rows = [...inkRows];
    expect(
      { above: rows.some((y) => y < edge - 20), below: rows.some((y) => y > edge + 20) },
      JSON.stringify({ out, first: Math.min(...rows), last: Math.max(...rows) }),
    ).toEqual({ above: true, below: true });
  });
});
