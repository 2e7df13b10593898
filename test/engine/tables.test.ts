import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { PageTables, PageText } from "../../workers/shared/engine-contract";
import { gridCells, tablePdf, type DrawnTable } from "../helpers/table-pdf";
import { fixture, pageText, put, realFixture } from "./helpers";

async function tablesOf(name: string, bytes: Uint8Array): Promise<{ page: PageTables; text: PageText }> {
  const key = await put(`uploads/tables/${name}`, bytes);
  const pre = await env.ENGINE.preprocess({ sourceKey: key, page: 0, outKey: `work/tables/${name}.png` });
  const res = await env.ENGINE.extractTables({
    pageKey: pre.key,
    languages: ["eng"],
    outKey: `work/tables/${name}.json`,
    textOutKey: `work/tables/${name}.text.json`,
  });
  const obj = await env.FILES.get(res.key);
  const page = (await obj!.json()) as PageTables;
  expect(res.tables).toBe(page.tables.length);
  expect(res.textKey).toBe(`work/tables/${name}.text.json`);
  return { page, text: await pageText(res.textKey!) };
}

const cellsOf = (t: PageTables["tables"][number]) =>
  t.cells.map((c) => ({ row: c.row, col: c.col, rowSpan: c.rowSpan, colSpan: c.colSpan, text: c.text }));
/** Cell texts as a grid (spanning cells at their top-left position, "" elsewhere). */
function grid(t: PageTables["tables"][number]): string[][] {
  const out = Array.from({ length: t.rows }, () => Array<string>(t.cols).fill(""));
  for (const c of t.cells) out[c.row]![c.col] = c.text;
  return out;
}

const PROSE = [
  "The figures below are taken from the annual report of the regional statistics office,",
  "which publishes them every spring together with a short commentary on the main trends.",
];

describe("tables from page images", () => {
  it("a ruled table: grid from the rules, spanning cells, each cell recognised", async () => {
    const { page } = await tablesOf("table_ruled.png", fixture("table_ruled"));
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

  it("a fully ruled 4 x 3 table at 1020 x 504 px: every cell's text exact, and the page text loses none of it", async () => {
    const { page, text } = await tablesOf("table_items.png", fixture("table_items"));
    expect(page.tables, JSON.stringify(page.tables)).toHaveLength(1);
    expect(page.tables[0]).toMatchObject({ kind: "ruled", rows: 4, cols: 3 });
    expect(grid(page.tables[0]!)).toEqual([
      ["Item", "Quantity", "Price"],
      ["Rye", "12", "4.25"],
      ["Wheat", "2", "3.10"],
      ["Barley", "1", "2.80"],
    ]);
    // The page is read with its rules painted out: the regions carry every cell's text.
    const words = text.regions.flatMap((r) => r.lines.flatMap((l) => l.words.map((w) => w.text)));
    for (const w of ["Item", "Quantity", "Price", "Rye", "12", "4.25", "Wheat", "2", "3.10", "Barley", "1", "2.80"])
      expect(words, JSON.stringify(words)).toContain(w);
  });

  it("a borderless table from word alignment", async () => {
    const { page } = await tablesOf("table_borderless.png", fixture("table_borderless"));
    expect(page.tables, JSON.stringify(page.tables)).toHaveLength(1);
    const t = page.tables[0]!;
    expect(t).toMatchObject({ kind: "aligned", rows: 4, cols: 3 });
    expect(
      t.cells.map((c) => c.text),
      JSON.stringify(t.cells),
    ).toEqual(["Item", "Qty", "Price", "Apples", "12", "3.40", "Pears", "7", "2.10", "Plums", "30", "5.75"]);
  });

  it("plain text has no tables", async () => {
    const { page } = await tablesOf("lang_eng.png", fixture("lang_eng"));
    expect(page.tables).toEqual([]);
  });
});

describe("tables from born-digital pages (text layer and drawn rules)", () => {
  const sales: DrawnTable = {
    style: "ruled",
    x: 60,
    y: 120,
    colWidths: [120, 80, 80],
    cells: [
      { row: 0, col: 0, rowSpan: 2, lines: ["Region"] },
      { row: 0, col: 1, colSpan: 2, lines: ["Sales"] },
      { row: 1, col: 1, lines: ["Q1"] },
      { row: 1, col: 2, lines: ["Q2"] },
      ...gridCells([[], [], ["North", "120", "130"], ["South", "95", "101"]]),
    ],
  };

  it("a ruled table with spanning header cells", async () => {
    const { page } = await tablesOf("ruled.pdf", await tablePdf({ paragraphs: [{ y: 60, lines: PROSE }], tables: [sales] }));
    expect(page.path).toBe("text_layer");
    expect(page.tables, JSON.stringify(page.tables)).toHaveLength(1);
    expect(page.tables[0]).toMatchObject({ kind: "ruled", rows: 4, cols: 3 });
    expect(cellsOf(page.tables[0]!)).toEqual([
      { row: 0, col: 0, rowSpan: 2, colSpan: 1, text: "Region" },
      { row: 0, col: 1, rowSpan: 1, colSpan: 2, text: "Sales" },
      { row: 1, col: 1, rowSpan: 1, colSpan: 1, text: "Q1" },
      { row: 1, col: 2, rowSpan: 1, colSpan: 1, text: "Q2" },
      { row: 2, col: 0, rowSpan: 1, colSpan: 1, text: "North" },
      { row: 2, col: 1, rowSpan: 1, colSpan: 1, text: "120" },
      { row: 2, col: 2, rowSpan: 1, colSpan: 1, text: "130" },
      { row: 3, col: 0, rowSpan: 1, colSpan: 1, text: "South" },
      { row: 3, col: 1, rowSpan: 1, colSpan: 1, text: "95" },
      { row: 3, col: 2, rowSpan: 1, colSpan: 1, text: "101" },
    ]);
  });

  it("multi-line cells of a ruled table stay one cell", async () => {
    const table: DrawnTable = {
      style: "ruled",
      x: 60,
      y: 100,
      colWidths: [150, 90],
      rowLines: [1, 2, 2],
      cells: [
        ...gridCells([["Measure", "Value"]]),
        { row: 1, col: 0, lines: ["Net income", "after tax"] },
        { row: 1, col: 1, lines: ["1,250"] },
        { row: 2, col: 0, lines: ["Staff at the end", "of the year"] },
        { row: 2, col: 1, lines: ["48"] },
      ],
    };
    const { page } = await tablesOf("multiline.pdf", await tablePdf({ tables: [table] }));
    expect(page.tables, JSON.stringify(page.tables)).toHaveLength(1);
    expect(grid(page.tables[0]!)).toEqual([
      ["Measure", "Value"],
      ["Net income after tax", "1,250"],
      ["Staff at the end of the year", "48"],
    ]);
  });

  it("a partly ruled table (a rule under the header, one under the last row) with a two-line header, between paragraphs", async () => {
    const table: DrawnTable = {
      style: "framed",
      x: 60,
      y: 110,
      colWidths: [140, 100, 100],
      rowLines: [2],
      cells: [
        { row: 0, col: 0, lines: ["Country"] },
        { row: 0, col: 1, lines: ["Population", "(millions)"] },
        { row: 0, col: 2, lines: ["Area"] },
        ...gridCells([
          [],
          ["Belgium", "11.6", "30,689"],
          ["Denmark", "5.9", "42,933"],
          ["Ireland", "5.1", "70,273"],
          ["Portugal", "10.3", "92,212"],
        ]),
      ],
    };
    const { page } = await tablesOf(
      "framed.pdf",
      await tablePdf({
        paragraphs: [
          { y: 60, lines: PROSE },
          { y: 260, lines: PROSE },
        ],
        tables: [table],
      }),
    );
    expect(page.tables, JSON.stringify(page.tables)).toHaveLength(1);
    expect(grid(page.tables[0]!)).toEqual([
      ["Country", "Population (millions)", "Area"],
      ["Belgium", "11.6", "30,689"],
      ["Denmark", "5.9", "42,933"],
      ["Ireland", "5.1", "70,273"],
      ["Portugal", "10.3", "92,212"],
    ]);
  });

  it("a borderless table beside running text", async () => {
    const table: DrawnTable = {
      style: "none",
      x: 60,
      y: 110,
      colWidths: [140, 90, 90],
      cells: gridCells([
        ["Product", "Units", "Revenue"],
        ["Apples", "1,200", "3,400"],
        ["Pears", "800", "2,100"],
        ["Plums", "450", "1,575"],
      ]),
    };
    const { page } = await tablesOf(
      "borderless.pdf",
      await tablePdf({
        paragraphs: [
          { y: 60, lines: PROSE },
          { y: 230, lines: PROSE },
        ],
        tables: [table],
      }),
    );
    expect(page.tables, JSON.stringify(page.tables)).toHaveLength(1);
    expect(page.tables[0]!.kind).toBe("aligned");
    expect(grid(page.tables[0]!)).toEqual([
      ["Product", "Units", "Revenue"],
      ["Apples", "1,200", "3,400"],
      ["Pears", "800", "2,100"],
      ["Plums", "450", "1,575"],
    ]);
  });

  it("two tables on one page are two tables", async () => {
    const second: DrawnTable = {
      style: "framed",
      x: 60,
      y: 330,
      colWidths: [140, 100],
      cells: gridCells([
        ["Year", "Visitors"],
        ["2021", "10,400"],
        ["2022", "12,950"],
        ["2023", "14,020"],
      ]),
    };
    const { page } = await tablesOf(
      "two.pdf",
      await tablePdf({
        paragraphs: [
          { y: 60, lines: PROSE },
          { y: 260, lines: PROSE },
        ],
        tables: [sales, second],
      }),
    );
    expect(
      page.tables.map((t) => [t.rows, t.cols]),
      JSON.stringify(page.tables),
    ).toEqual([
      [4, 3],
      [4, 2],
    ]);
    expect(grid(page.tables[1]!)).toEqual([
      ["Year", "Visitors"],
      ["2021", "10,400"],
      ["2022", "12,950"],
      ["2023", "14,020"],
    ]);
  });

  it("paragraphs and lists make no table", async () => {
    const list = [
      "- Open the application and sign in with your account.",
      "- Upload the scanned document you want to convert.",
      "- Choose the export format and start the job.",
    ];
    const numbered = [
      "1. The first step is reading the page.",
      "2. The second step finds its tables.",
      "3. The third step writes the exports.",
    ];
    const { page } = await tablesOf(
      "prose.pdf",
      await tablePdf({
        paragraphs: [
          { y: 60, lines: PROSE },
          { y: 110, lines: list },
          { y: 170, lines: numbered },
          { y: 230, lines: PROSE },
        ],
      }),
    );
    expect(page.tables, JSON.stringify(page.tables)).toEqual([]);
  });
});

describe("tables of real born-digital documents (ICDAR 2013, test/fixtures/real)", () => {
  it("a page with decorative images beside its text is read from its text layer, and its table found (eu-011 p. 3)", async () => {
    const { page } = await tablesOf("eu-011-p3.pdf", realFixture("icdar2013_eu-011-p3.pdf"));
    // Image bands across the page are no scan: the text layer is the page's text.
    expect(page.path).toBe("text_layer");
    const table = page.tables.find((t) => t.cells.some((c) => c.text === "Portugal"));
    expect(table, JSON.stringify(page.tables)).toBeDefined();
    expect(grid(table!).slice(-5), JSON.stringify(grid(table!))).toEqual([
      ["Differences with respect to Germany", "Portugal", "Greece", "Spain", "Italy", "France"],
      ["Q2 2006 – Q1 2010**", "0.33", "0.51", "0.31", "0.18", "0.05"],
      ["Q1 2009 – Q4 2009", "-0.01", "0.45", "0.21", "0.18", "0.05"],
      ["Q4 2009", "0.17", "0.70", "0.26", "0.09", "-0.01"],
      ["Q1 2010", "0.64", "0.72", "0.56", "0.43", "0.25"],
    ]);
  });

  it("a pie chart's labels beside three tables make no table (eu-015 p. 2)", async () => {
    const { page } = await tablesOf("eu-015-p2.pdf", realFixture("icdar2013_eu-015-p2.pdf"));
    expect(page.path).toBe("text_layer");
    expect(
      page.tables.map((t) => grid(t)[0]),
      JSON.stringify(page.tables.map((t) => grid(t))),
    ).toEqual([
      ["Air passengers rights", "Enquiries"],
      ["Free movement of persons / workers", "Enquiries"],
      ["Treaty reform / IGC / Lisbon Treaty", "Enquiries"],
    ]);
    expect(page.tables.map((t) => grid(t)[1])).toEqual([
      ["Spain", "268"],
      ["Spain", "153"],
      ["Germany", "91"],
    ]);
  });

  it("small-multiple line charts with nearly flat series and their labels make no table (eu-017 p. 1)", async () => {
    const { page } = await tablesOf("eu-017-p1.pdf", realFixture("icdar2013_eu-017-p1.pdf"));
    expect(page.path).toBe("text_layer");
    expect(
      page.tables.map((t) => grid(t)),
      JSON.stringify(page.tables.map((t) => grid(t))),
    ).toEqual([]);
  });
});
