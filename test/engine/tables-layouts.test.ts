import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { PageTables } from "../../workers/shared/engine-contract";
import { gridCells, tablePdf, type DrawnTable } from "../helpers/table-pdf";
import { put, realFixture } from "./helpers";

// Page layouts that line text up without being tables, and a table whose rules and spanning header
// cut it into bands: born-digital pages through the engine (text layer and drawn rules).

async function tablesOf(name: string, bytes: Uint8Array, page = 0): Promise<PageTables> {
  const key = await put(`uploads/tables-layouts/${name}`, bytes);
  const pre = await env.ENGINE.preprocess({ sourceKey: key, page, outKey: `work/tables-layouts/${name}-${page}.png` });
  const res = await env.ENGINE.extractTables({ pageKey: pre.key, languages: ["eng"], outKey: `work/tables-layouts/${name}-${page}.json` });
  return (await (await env.FILES.get(res.key))!.json()) as PageTables;
}

/** Cell texts as a grid (spanning cells at their top-left position, "" elsewhere). */
function grid(t: PageTables["tables"][number]): string[][] {
  const out = Array.from({ length: t.rows }, () => Array<string>(t.cols).fill(""));
  for (const c of t.cells) out[c.row]![c.col] = c.text;
  return out;
}
const grids = (page: PageTables) => JSON.stringify(page.tables.map(grid));

/** Lines of running text, set as cells of a borderless one-row "table" so that they sit where a layout puts them. */
const column = (x: number, width: number, lines: string[]): DrawnTable => ({
  style: "none",
  x,
  y: 80,
  colWidths: [width],
  pad: 0,
  rowLines: [lines.length],
  cells: [{ row: 0, col: 0, lines }],
});

const LEFT = [
  "Vocational teacher education is always",
  "consecutive. It builds on two basic",
  "requirements: the degree and work",
  "experience. When student teachers apply",
  "to study, they are already professionals",
  "with experience of a career in a certain",
  "field. Special needs teachers and",
  "guidance counsellors can either have the",
  "same training as core subject teachers",
  "or as vocational subject teachers before",
  "their specialisation.",
];
const RIGHT = [
  "Teacher qualifications for general and",
  "vocational institutions were harmonised",
  "at the beginning of 1999. Teachers within",
  "all types of formal institution must have",
  "pedagogical studies worth a minimum of",
  "60 credits. The principle is that student",
  "teachers are to achieve a core knowledge",
  "of teaching and learning that can be",
  "generalised to all forms of education",
  "and training, whatever their subject.",
  "",
];

describe("text lined up in columns is no table", () => {
  it("running text in two columns", async () => {
    const page = await tablesOf(
      "two-columns.pdf",
      await tablePdf({ tables: [column(50, 235, LEFT), column(305, 235, RIGHT.filter(Boolean))] }),
    );
    expect(page.tables, grids(page)).toEqual([]);
  });

  it("running text beside a narrow side column", async () => {
    const side = [
      "The qualification of",
      "teachers is defined",
      "by law, in decrees",
      "on teaching and in",
      "the polytechnics act",
      "of the same year.",
    ];
    const page = await tablesOf("side-column.pdf", await tablePdf({ tables: [column(50, 330, LEFT.slice(0, 6)), column(400, 150, side)] }));
    expect(page.tables, grids(page)).toEqual([]);
  });

  it("a bulleted list set in two columns", async () => {
    const countries = ["Belgium", "Bulgaria", "Czech Republic", "Denmark", "Germany", "Estonia", "Ireland", "Greece", "Spain", "France"];
    const rows = countries.slice(0, 5).map((c, i) => ["•", c, "•", countries[i + 5]!]);
    const list: DrawnTable = { style: "none", x: 60, y: 120, colWidths: [18, 160, 18, 160], pad: 1, cells: gridCells(rows) };
    const page = await tablesOf("bullets.pdf", await tablePdf({ paragraphs: [{ y: 80, lines: LEFT.slice(0, 2) }], tables: [list] }));
    expect(page.tables, grids(page)).toEqual([]);
  });

  it("a table of contents: headings and their page numbers", async () => {
    const entries = [
      ["1. Introduction", "5"],
      ["2. Vocational education and training in context", "9"],
      ["2.1 Political and socio-economic context", "9"],
      ["2.2 Population and demographics", "11"],
      ["3. Policy development", "17"],
      ["4. Institutional framework", "23"],
      ["5. Initial vocational education and training", "29"],
      ["6. Training of VET teachers and trainers", "38"],
      ["Annex: glossary and abbreviations", "51"],
    ];
    const toc: DrawnTable = { style: "none", x: 60, y: 120, colWidths: [420, 40], pad: 2, cells: gridCells(entries) };
    const page = await tablesOf("contents.pdf", await tablePdf({ paragraphs: [{ y: 80, lines: ["Contents"] }], tables: [toc] }));
    expect(page.tables, grids(page)).toEqual([]);
  });

  it("an index set in two columns: terms and their page numbers (as in a thesis's Stichwortverzeichnis)", async () => {
    const entries = [
      ["Homotopie, 44", "Lot, 86"],
      ["Homotopieklasse, 47", "Lotfusspunkt, 86"],
      ["Inklusionsabbildung, 47", "Mannigfaltigkeit, 24"],
      ["Innenwinkel, 70", "differenzierbare, 29"],
      ["Inneres, 3", "geschlossene, 25"],
      ["Inzidenzaxiome, 64", "Normalenvektor, 87, 89"],
      ["Knoten, 20, 17-21", "Normalkrümmung, 91, 92, 98"],
      ["Kongruenz, siehe Isometrie", "Oktaeder, 34"],
    ];
    const index: DrawnTable = { style: "none", x: 60, y: 120, colWidths: [240, 240], pad: 1, cells: gridCells(entries) };
    const page = await tablesOf("index.pdf", await tablePdf({ paragraphs: [{ y: 80, lines: ["Index"] }], tables: [index] }));
    expect(page.tables, grids(page)).toEqual([]);
  });

  it("the pieces of typeset formulas: matrices, fractions and brackets", async () => {
    const pieces = [
      ["(", ") (", ")", "("],
      ["0", "1 a b", "c", "d"],
      ["", "· =", "", "z"],
      ["-1 0 c d", "", "-a -b", "r"],
    ];
    const formula: DrawnTable = { style: "none", x: 200, y: 140, colWidths: [40, 60, 40, 40], pad: 0, cells: gridCells(pieces) };
    const page = await tablesOf("formula.pdf", await tablePdf({ paragraphs: [{ y: 80, lines: LEFT.slice(0, 3) }], tables: [formula] }));
    expect(page.tables, grids(page)).toEqual([]);
  });

  it("a diagram's lattice of ruled squares holding marks, beside a ruled table of names and ticks that stays", async () => {
    const lattice: DrawnTable = {
      style: "ruled",
      x: 60,
      y: 120,
      colWidths: [30, 30, 30, 30, 30],
      cells: gridCells(Array.from({ length: 5 }, () => Array<string>(5).fill("*"))),
    };
    const ticks = [
      ["Member", "2022", "2023"],
      ["Alice", "x", ""],
      ["Bob", "x", "x"],
      ["Carol", "", "x"],
    ];
    const table: DrawnTable = { style: "ruled", x: 60, y: 400, colWidths: [120, 60, 60], cells: gridCells(ticks) };
    const page = await tablesOf(
      "lattice.pdf",
      await tablePdf({ paragraphs: [{ y: 80, lines: LEFT.slice(0, 2) }], tables: [lattice, table] }),
    );
    expect(page.tables, grids(page)).toHaveLength(1);
    expect(grid(page.tables[0]!)).toEqual(ticks);
  });

  it("a real page of running text with a bulleted list (ICDAR 2013 eu-013 p. 7)", async () => {
    const page = await tablesOf("eu-013-p7.pdf", realFixture("icdar2013_eu-013-p7.pdf"));
    expect(page.tables, grids(page)).toEqual([]);
  });
});

describe("one table stays one table", () => {
  it("across its spanning header, group rows set off by rules and internal rules", async () => {
    const body = [
      ["Region", "2022", "2023", "2022", "2023"],
      ["Northern regions"],
      ["North", "120", "130", "14", "15"],
      ["North-East", "80", "85", "9", "10"],
      ["Southern regions"],
      ["South", "95", "101", "11", "12"],
      ["South-West", "60", "64", "7", "8"],
      ["Total", "355", "380", "41", "45"],
    ];
    const table: DrawnTable = {
      style: "none",
      x: 60,
      y: 120,
      colWidths: [110, 60, 60, 60, 60],
      cells: [
        { row: 0, col: 1, colSpan: 2, lines: ["Sales"] },
        { row: 0, col: 3, colSpan: 2, lines: ["Staff"] },
        ...gridCells([[], ...body]),
      ],
      // booktabs' style: rules above and below, short rules under each spanning head, and rules
      // setting off each group's label row and the total.
      rules: [
        { row: 0 },
        { row: 1, from: 1, to: 3 },
        { row: 1, from: 3, to: 5 },
        { row: 2 },
        { row: 3 },
        { row: 5 },
        { row: 6 },
        { row: 8 },
        { row: 9 },
      ],
    };
    const page = await tablesOf("grouped.pdf", await tablePdf({ paragraphs: [{ y: 60, lines: LEFT.slice(0, 3) }], tables: [table] }));
    expect(page.tables, grids(page)).toHaveLength(1);
    expect(grid(page.tables[0]!).map((r) => r.filter(Boolean))).toEqual([["Sales", "Staff"], ...body]);
  });

  // Row lines left undrawn: where every column rule is drawn in pieces that meet at a row's edge
  // (ICDAR 2013 eu-008), the pieces give the rows; rules drawn top to bottom leave the body as one
  // tall ruled row, which is cut at its lines.
  for (const cellByCell of [true, false]) {
    it(`whose body rows are not ruled apart, its column rules drawn ${cellByCell ? "cell by cell" : "top to bottom"}`, async () => {
      const head = [["Country"], ["Cohesion Fund", "EURbn"], ["ERDF Convergence", "EURbn"], ["Total", "EURbn"]];
      const body = [
        ["Bulgaria", "2.3", "3.2", "5.5"],
        ["Cyprus", "0.21", "0", "0.21"],
        ["Czech Republic", "8.8", "13.4", "22.2"],
        ["Estonia", "1.1", "1.9", "3.0"],
        ["Technical Assistance", "", "0.87", ""],
        ["TOTAL", "12.41", "19.37", "30.91"],
      ];
      const table: DrawnTable = {
        style: "columns",
        cellByCell,
        x: 60,
        y: 120,
        colWidths: [130, 110, 110, 110],
        // Headings wrapped in step stay one row.
        rowLines: [2],
        cells: [...head.map((lines, col) => ({ row: 0, col, lines })), ...gridCells(body, 1)],
        rules: [{ row: 1 }, { row: 6 }],
      };
      const name = `open-body-${cellByCell ? "pieces" : "whole"}.pdf`;
      const page = await tablesOf(name, await tablePdf({ paragraphs: [{ y: 60, lines: LEFT.slice(0, 3) }], tables: [table] }));
      expect(page.tables, grids(page)).toHaveLength(1);
      expect(grid(page.tables[0]!)).toEqual([head.map((lines) => lines.join(" ")), ...body]);
    });
  }

  it("a ruled row of cells wrapped over several lines, the stub's too, stays one row", async () => {
    const rows = [
      [["Product"], ["Hours"], ["Dilution"], ["Method"]],
      [
        ["80% thiophanate", "wettable powder", "(Thiram)"],
        ["6-12"],
        ["800"],
        ["Soak the seed in water", "until it sprouts, then", "dip it in the solution"],
      ],
      [["30% TCMTB"], ["6"], ["1,000"], ["Stir while soaking"]],
    ];
    const table: DrawnTable = {
      style: "ruled",
      x: 60,
      y: 120,
      colWidths: [130, 60, 70, 170],
      rowLines: [1, 3, 1],
      cells: rows.flatMap((cells, row) => cells.map((lines, col) => ({ row, col, lines }))),
    };
    const page = await tablesOf("wrapped-row.pdf", await tablePdf({ paragraphs: [{ y: 60, lines: LEFT.slice(0, 3) }], tables: [table] }));
    expect(page.tables, grids(page)).toHaveLength(1);
    expect(grid(page.tables[0]!)).toEqual(rows.map((cells) => cells.map((lines) => lines.join(" "))));
  });
});

describe("columns", () => {
  it("figures set a few spaces apart part into columns where the lines align them", async () => {
    const rows = [
      ["", "2000", "2002", "2004"],
      ["General upper secondary education", "15 455", "13 951", "12 068"],
      ["Competence-based qualifications", "35 190", "44 307", "60 152"],
      ["Polytechnics", "20 527", "20 922", "22 083"],
    ];
    const table: DrawnTable = { style: "none", x: 60, y: 120, colWidths: [200, 38, 38, 38], cells: gridCells(rows) };
    const page = await tablesOf("close-figures.pdf", await tablePdf({ paragraphs: [{ y: 60, lines: LEFT.slice(0, 3) }], tables: [table] }));
    expect(page.tables, grids(page)).toHaveLength(1);
    expect(grid(page.tables[0]!)).toEqual(rows);
  });

  it("a schedule of dates stays a table (dates are no index entries)", async () => {
    const rows = [
      ["Round", "Opens", "Closes", "Results"],
      ["First", "March 1, 2021", "March 31, 2021", "April 30, 2021"],
      ["Second", "May 3, 2021", "May 28, 2021", "June 30, 2021"],
      ["Third", "July 1, 2021", "July 30, 2021", "August 31, 2021"],
      ["Final", "Sept. 1, 2021", "Sept. 30, 2021", "Oct. 29, 2021"],
    ];
    const table: DrawnTable = { style: "framed", x: 60, y: 120, colWidths: [70, 120, 120, 120], cells: gridCells(rows) };
    const page = await tablesOf("dates.pdf", await tablePdf({ paragraphs: [{ y: 60, lines: LEFT.slice(0, 3) }], tables: [table] }));
    expect(page.tables, grids(page)).toHaveLength(1);
    expect(grid(page.tables[0]!)).toEqual(rows);
  });

  it("a ruled grid without outer borders keeps its stub and last columns (ICDAR 2013 eu-013 p. 3)", async () => {
    const page = await tablesOf("eu-013-p3.pdf", realFixture("icdar2013_eu-013-p3.pdf"));
    expect(page.tables, grids(page)).toHaveLength(1);
    expect(grid(page.tables[0]!)).toEqual([
      ["", "2000", "2002", "2004"],
      ["General upper secondary education", "15 455", "13 951", "12 068"],
      ["Competence-based qualifications", "35 190", "44 307", "60 152"],
      ["Polytechnics", "20 527", "20 922", "22 083"],
    ]);
  });
});
