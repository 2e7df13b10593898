import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { PageTables } from "../../workers/engine/contract";
import { fixture, put } from "./helpers";

async function tablesOf(name: string): Promise<PageTables> {
  const key = await put(`uploads/tables/${name}.png`, fixture(name));
  const pre = await env.ENGINE.preprocess({ sourceKey: key, page: 0, outKey: `work/tables/${name}.png` });
  const res = await env.ENGINE.extractTables({ pageKey: pre.key, languages: ["eng"], outKey: `work/tables/${name}.json` });
  const obj = await env.FILES.get(res.key);
  const tables = (await obj!.json()) as PageTables;
  expect(res.tables).toBe(tables.tables.length);
  return tables;
}

const cellsOf = (t: PageTables["tables"][number]) => t.cells.map((c) => ({ row: c.row, col: c.col, rowSpan: c.rowSpan, colSpan: c.colSpan, text: c.text }));

describe("tables", () => {
  it("a ruled table: grid from the rules, spanning cells, each cell recognised", async () => {
    const page = await tablesOf("table_ruled");
    expect(page.tables, JSON.stringify(page.tables)).toHaveLength(1);
    const t = page.tables[0]!;
    expect(t).toMatchObject({ kind: "ruled", rows: 4, cols: 3 });
    expect(cellsOf(t)).toEqual([
      { row: 0, col: 0, rowSpan: 1, colSpan: 1, text: "Region" },
      { row: 0, col: 1, rowSpan: 1, colSpan: 2, text: "Q1 sales" },
      { row: 1, col: 0, rowSpan: 1, colSpan: 1, text: "North" },
      { row: 1, col: 1, rowSpan: 1, colSpan: 1, text: "120" },
      { row: 1, col: 2, rowSpan: 1, colSpan: 1, text: "130" },
      { row: 2, col: 0, rowSpan: 1, colSpan: 1, text: "South" },
      { row: 2, col: 1, rowSpan: 1, colSpan: 1, text: "95" },
      { row: 2, col: 2, rowSpan: 1, colSpan: 1, text: "101" },
      { row: 3, col: 0, rowSpan: 1, colSpan: 1, text: "Total" },
      { row: 3, col: 1, rowSpan: 1, colSpan: 2, text: "215" },
    ]);
    for (const c of t.cells) expect(c.confidence).toBeGreaterThan(0.5);
  });

  it("a borderless table from word alignment", async () => {
    const page = await tablesOf("table_borderless");
    expect(page.tables, JSON.stringify(page.tables)).toHaveLength(1);
    const t = page.tables[0]!;
    expect(t).toMatchObject({ kind: "aligned", rows: 4, cols: 3 });
    expect(t.cells.map((c) => c.text), JSON.stringify(t.cells)).toEqual(["Item", "Qty", "Price", "Apples", "12", "3.40", "Pears", "7", "2.10", "Plums", "30", "5.75"]);
  });

  it("plain text has no tables", async () => {
    const page = await tablesOf("lang_eng");
    expect(page.tables).toEqual([]);
  });
});
