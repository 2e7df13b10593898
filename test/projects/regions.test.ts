import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { api, body, seedAccount } from "../helpers/api";
import { detail, json, seedProject } from "./seed";

async function call(path: string, init: RequestInit, status: number) {
  const res = await api(path, init);
  const b = res.status === 204 ? null : await body(res);
  expect(res.status, JSON.stringify(b)).toBe(status);
  return b;
}

const orderOf = async (projectId: string, auth: Record<string, string>, page = 0) =>
  (await detail(projectId, auth)).regions.filter((r: any) => r.page_index === page).map((r: any) => [r.order, r.user_text ?? r.text]);

describe("regions: create, update, delete", () => {
  it("creates regions by page id or index, in a given reading position, inside the page", async () => {
    const { userId, auth } = await seedAccount();
    const p = await seedProject(userId, { pages: [{ width: 600, height: 400, regions: [{ text: "first" }, { text: "second" }] }] });
    const base = `/api/v1/projects/${p.projectId}/regions`;
    const before = await detail(p.projectId, auth);

    const made = await call(
      base,
      json("POST", auth, {
        page_id: p.pageIds[0],
        box: { x: 100, y: 300, w: 200, h: 50 },
        text: "missed caption",
        translation: "légende",
        kind: "caption",
        order: 1,
      }),
      201,
    );
    expect(made).toMatchObject({
      page_id: p.pageIds[0],
      page_index: 0,
      order: 1,
      kind: "caption",
      text: "",
      user_text: "missed caption",
      translation: null,
      user_translation: "légende",
      confidence: null,
      box: { x: 100, y: 300, w: 200, h: 50 },
    });
    expect(made.id).toMatch(/^rgn_/);
    expect(await orderOf(p.projectId, auth)).toEqual([
      [0, "first"],
      [1, "missed caption"],
      [2, "second"],
    ]);
    const after = await detail(p.projectId, auth);
    expect(Date.parse(after.updated_at)).toBeGreaterThanOrEqual(Date.parse(before.updated_at));

    const last = await call(base, json("POST", auth, { page_index: 0, box: { x: 0, y: 0, w: 10, h: 10 } }), 201);
    expect(last.order).toBe(3);

    for (const bad of [
      { page_index: 0, box: { x: 500, y: 0, w: 200, h: 10 } }, // beyond the right edge
      { page_index: 0, box: { x: 0, y: 0, w: 0, h: 10 } },
      { box: { x: 0, y: 0, w: 5, h: 5 } }, // no page
      { page_index: 0, page_id: p.pageIds[0], box: { x: 0, y: 0, w: 5, h: 5 } },
    ]) {
      const err = await call(base, json("POST", auth, bad), 422);
      expect(err.error.code).toBe("validation_error");
    }
    await call(base, json("POST", auth, { page_index: 7, box: { x: 0, y: 0, w: 5, h: 5 } }), 404);
  });

  it("keeps recognised text and machine translation apart from the user's edits", async () => {
    const { userId, auth } = await seedAccount();
    const p = await seedProject(userId, {
      tool: "translate",
      targetLanguage: "es",
      pages: [{ regions: [{ text: "Helo wrld", translation: "Hola mundo" }, { text: "b" }, { text: "c" }] }],
    });
    const url = `/api/v1/projects/${p.projectId}/regions/${p.regionIds[0]![0]}`;

    const r = await call(
      url,
      json("PATCH", auth, { text: "Hello world", translation: "¡Hola, mundo!", style: { font_size: 18, color: "#222222" } }),
      200,
    );
    expect(r).toMatchObject({
      text: "Helo wrld",
      user_text: "Hello world",
      translation: "Hola mundo",
      user_translation: "¡Hola, mundo!",
      style: { font_size: 18, color: "#222222" },
    });

    // The user's translation feeds the translation memory.
    const tm = await env.DB.prepare("SELECT source_text, target_text FROM translation_memory WHERE user_id = ?").bind(userId).all();
    expect(tm.results).toEqual([{ source_text: "Hello world", target_text: "¡Hola, mundo!" }]);

    const moved = await call(url, json("PATCH", auth, { box: { x: 5, y: 6, w: 70, h: 20 }, order: 2 }), 200);
    expect(moved).toMatchObject({ box: { x: 5, y: 6, w: 70, h: 20 }, order: 2 });
    expect(await orderOf(p.projectId, auth)).toEqual([
      [0, "b"],
      [1, "c"],
      [2, "Hello world"],
    ]);

    const cleared = await call(url, json("PATCH", auth, { text: null, translation: null }), 200);
    expect(cleared).toMatchObject({ text: "Helo wrld", user_text: null, translation: "Hola mundo", user_translation: null });

    for (const bad of [
      {},
      { text: 5 },
      { box: { x: -1, y: 0, w: 1, h: 1 } },
      { order: -1 },
      { unknown: true },
      { box: { x: 990, y: 0, w: 20, h: 5 } },
      { style: { frame: { x: 10, y: "top", w: -5 } } },
      { style: { frame: { x: 0, y: 0, w: 0, h: 5 } } },
      { style: { lettering: 7 } },
    ]) {
      expect((await call(url, json("PATCH", auth, bad), 422)).error.code).toBe("validation_error");
    }
    await call(`/api/v1/projects/${p.projectId}/regions/rgn_doesnotexist`, json("PATCH", auth, { text: "x" }), 404);
  });

  it("deletes a region and closes the gap in reading order", async () => {
    const { userId, auth } = await seedAccount();
    const p = await seedProject(userId, { pages: [{ regions: [{ text: "a" }, { text: "b" }, { text: "c" }] }] });
    await call(`/api/v1/projects/${p.projectId}/regions/${p.regionIds[0]![1]}`, { method: "DELETE", headers: auth }, 204);
    expect(await orderOf(p.projectId, auth)).toEqual([
      [0, "a"],
      [1, "c"],
    ]);
    await call(`/api/v1/projects/${p.projectId}/regions/${p.regionIds[0]![1]}`, { method: "DELETE", headers: auth }, 404);
  });
});

describe("POST …/regions/merge", () => {
  it("unites boxes and joins texts in reading order, whatever order the ids come in", async () => {
    const { userId, auth } = await seedAccount();
    const p = await seedProject(userId, {
      pages: [
        {
          regions: [
            { text: "Dear Ann,", box: { x: 10, y: 10, w: 100, h: 20 }, translation: "Querida Ann:", confidence: 0.9 },
            { text: "thank you", box: { x: 12, y: 40, w: 200, h: 22 }, translation: "gracias", confidence: 0.5 },
            { text: "for the tea.", box: { x: 8, y: 70, w: 150, h: 20 }, confidence: 0.7 },
            { text: "P.S.", box: { x: 10, y: 300, w: 40, h: 20 } },
          ],
        },
        { regions: [{ text: "other page" }] },
      ],
    });
    const [a, b, c, d] = p.regionIds[0]!;
    await call(`/api/v1/projects/${p.projectId}/regions/${b}`, json("PATCH", auth, { text: "thank you so much" }), 200);
    const merged = await call(`/api/v1/projects/${p.projectId}/regions/merge`, json("POST", auth, { region_ids: [c, a, b] }), 200);
    expect(merged).toMatchObject({
      id: a,
      order: 0,
      box: { x: 8, y: 10, w: 204, h: 80 },
      text: "Dear Ann,\nthank you\nfor the tea.",
      user_text: "Dear Ann,\nthank you so much\nfor the tea.",
      translation: "Querida Ann:\ngracias",
    });
    expect(merged.confidence).toBeGreaterThan(0.5);
    expect(merged.confidence).toBeLessThan(0.9);
    expect(await orderOf(p.projectId, auth)).toEqual([
      [0, "Dear Ann,\nthank you so much\nfor the tea."],
      [1, "P.S."],
    ]);
    expect((await detail(p.projectId, auth)).regions.map((r: any) => r.id)).not.toContain(b);

    const across = await call(
      `/api/v1/projects/${p.projectId}/regions/merge`,
      json("POST", auth, { region_ids: [d, p.regionIds[1]![0]] }),
      422,
    );
    expect(across.error).toMatchObject({ code: "validation_error", details: { pages: [0, 1] } });
    const missing = await call(
      `/api/v1/projects/${p.projectId}/regions/merge`,
      json("POST", auth, { region_ids: [d, "rgn_missing"] }),
      404,
    );
    expect(missing.error.details.missing).toEqual(["rgn_missing"]);
    await call(`/api/v1/projects/${p.projectId}/regions/merge`, json("POST", auth, { region_ids: [d] }), 422);
    await call(`/api/v1/projects/${p.projectId}/regions/merge`, json("POST", auth, { region_ids: [d, d] }), 422);
    // Nothing changed by the refusals.
    expect(await orderOf(p.projectId, auth)).toEqual([
      [0, "Dear Ann,\nthank you so much\nfor the tea."],
      [1, "P.S."],
    ]);
  });
});

describe("POST …/regions/{id}/split", () => {
  const lines = [
    {
      x: 10,
      y: 10,
      w: 200,
      h: 20,
      text: "Hello there",
      words: [
        { x: 10, y: 10, w: 90, h: 20, text: "Hello" },
        { x: 110, y: 10, w: 100, h: 20, text: "there" },
      ],
    },
    { x: 10, y: 40, w: 120, h: 20, text: "General", words: [{ x: 10, y: 40, w: 120, h: 20, text: "General" }] },
  ];
  const region = { text: "Hello there\nGeneral", box: { x: 10, y: 10, w: 200, h: 50 }, lines, translation: "Hola" };

  it("splits by line, with each line's box", async () => {
    const { userId, auth } = await seedAccount();
    const p = await seedProject(userId, { pages: [{ regions: [region, { text: "after" }] }] });
    const pieces = await call(
      `/api/v1/projects/${p.projectId}/regions/${p.regionIds[0]![0]}/split`,
      json("POST", auth, { mode: "lines" }),
      200,
    );
    expect(pieces.map((r: any) => [r.order, r.text, r.box])).toEqual([
      [0, "Hello there", { x: 10, y: 10, w: 200, h: 20 }],
      [1, "General", { x: 10, y: 40, w: 120, h: 20 }],
    ]);
    expect(pieces[0].id).toBe(p.regionIds[0]![0]);
    expect(pieces.every((r: any) => r.translation === null && r.user_text === null)).toBe(true);
    expect(await orderOf(p.projectId, auth)).toEqual([
      [0, "Hello there"],
      [1, "General"],
      [2, "after"],
    ]);
    // A single line cannot be split by line.
    const again = await call(`/api/v1/projects/${p.projectId}/regions/${pieces[1].id}/split`, json("POST", auth, { mode: "lines" }), 422);
    expect(again.error.code).toBe("validation_error");
  });

  it("splits at a character offset, dividing the line's box", async () => {
    const { userId, auth } = await seedAccount();
    const p = await seedProject(userId, { pages: [{ regions: [region] }] });
    const url = `/api/v1/projects/${p.projectId}/regions/${p.regionIds[0]![0]}/split`;
    for (const offset of [0, 19, 200]) {
      const err = await call(url, json("POST", auth, { mode: "offset", offset }), 422);
      expect(err.error.code).toBe("validation_error");
    }
    // Offset 5 cuts "Hello| there": the cut leaves "Hello" and "there\nGeneral".
    const [first, second] = await call(url, json("POST", auth, { mode: "offset", offset: 5 }), 200);
    expect(first).toMatchObject({ text: "Hello", box: { x: 10, y: 10, h: 20 } });
    expect(first.box.w).toBeGreaterThan(80);
    expect(first.box.w).toBeLessThan(100);
    expect(second.text).toBe("there\nGeneral");
    expect(second.box.y).toBe(10);
    expect(second.box.y + second.box.h).toBe(60);
    expect(second.box.x).toBeGreaterThanOrEqual(10);
  });

  it("splits a corrected text at a point; recognised words follow their boxes", async () => {
    const { userId, auth } = await seedAccount();
    const p = await seedProject(userId, { pages: [{ regions: [region] }] });
    const id = p.regionIds[0]![0]!;
    await call(`/api/v1/projects/${p.projectId}/regions/${id}`, json("PATCH", auth, { text: "Hello there\nGeneral Kenobi" }), 200);
    await call(`/api/v1/projects/${p.projectId}/regions/${id}/split`, json("POST", auth, { mode: "point", x: 500, y: 500 }), 422);
    // A point at the start of the second line cuts between the lines.
    const [top, bottom] = await call(
      `/api/v1/projects/${p.projectId}/regions/${id}/split`,
      json("POST", auth, { mode: "point", x: 10, y: 50 }),
      200,
    );
    expect(top).toMatchObject({ user_text: "Hello there", text: "Hello there", box: { x: 10, y: 10, w: 200, h: 20 } });
    expect(bottom).toMatchObject({ user_text: "General Kenobi", text: "General", box: { x: 10, y: 40, w: 120, h: 20 } });
  });
});

describe("PATCH …/tables/{id}/cells", () => {
  it("writes all valid cells, or none with a 422 listing the invalid ones", async () => {
    const { userId, auth } = await seedAccount();
    const p = await seedProject(userId, {
      tool: "tables",
      table: {
        page: 0,
        rows: 3,
        cols: 2,
        cells: [
          { row: 0, col: 0, text: "Item" },
          { row: 0, col: 1, text: "Price" },
          { row: 1, col: 0, text: "Tea", colSpan: 2 },
          { row: 2, col: 0, text: "Cake" },
        ],
      },
    });
    const url = `/api/v1/projects/${p.projectId}/tables/${p.tableId}/cells`;
    const bad = await call(
      url,
      json("PATCH", auth, [
        { row: 0, column: 1, text: "Cost" },
        { row: 3, column: 0, text: "x" },
        { row: 1, column: 1, text: "inside the merged cell" },
        { row: -1, column: 0, text: "x" },
        { row: 0, column: 1, text: "again" },
      ]),
      422,
    );
    expect(bad.error.code).toBe("validation_error");
    expect(bad.error.details.invalid.map((i: any) => [i.index, i.row, i.column])).toEqual([
      [1, 3, 0],
      [2, 1, 1],
      [3, -1, 0],
      [4, 0, 1],
    ]);
    expect(bad.error.details).toMatchObject({ rows: 3, columns: 2 });
    const untouched = (await detail(p.projectId, auth)).tables[0];
    expect(untouched.cells.find((c: any) => c.row === 0 && c.column === 1)).toMatchObject({ text: "Price", edited: false });

    const ok = await call(
      url,
      json("PATCH", auth, [
        { row: 0, column: 1, text: "Cost" },
        { row: 0, column: 0, text: "Item" },
        { row: 2, column: 1, text: "3.50" },
      ]),
      200,
    );
    expect(ok).toEqual({ updated: 2, unchanged: 1, received: 3 });
    const table = (await detail(p.projectId, auth)).tables[0];
    expect(table.cells.map((c: any) => [c.row, c.column, c.text, c.edited])).toEqual([
      [0, 0, "Item", false],
      [0, 1, "Cost", true],
      [1, 0, "Tea", false],
      [2, 0, "Cake", false],
      [2, 1, "3.50", true],
    ]);
    await call(`/api/v1/projects/${p.projectId}/tables/tbl_nope/cells`, json("PATCH", auth, [{ row: 0, column: 0, text: "x" }]), 404);
    await call(url, json("PATCH", auth, []), 422);
  });
});
