import { describe, expect, it } from "vitest";
import { unzip } from "../exports/readers";
import { api, body, seedAccount, waitForJob } from "../helpers/api";
import { gridCells, tablePdf } from "../helpers/table-pdf";
import { detail } from "../projects/seed";
import { download, walletOf } from "./fixtures";

const ROWS = [
  ["Country", "Population", "Area"],
  ["Belgium", "11.6", "30,689"],
  ["Denmark", "5.9", "42,933"],
  ["Ireland", "5.1", "70,273"],
];

function parseCsv(text: string): string[][] {
  return text
    .trim()
    .split("\r\n")
    .map((line) =>
      [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)]
        .filter((m) => m[0] !== "")
        .map((m) => (m[1]!.startsWith('"') ? m[1]!.slice(1, -1).replace(/""/g, '"') : m[1]!)),
    );
}

describe("the tables tool", () => {
  it("extracts the page's tables into the project and the XLSX, CSV and JSON exports", async () => {
    const { userId, auth } = await seedAccount({ credits: 10 });
    const pdf = await tablePdf({
      paragraphs: [{ y: 60, lines: ["Key figures of four member states, as published in the yearly overview."] }],
      tables: [{ style: "framed", x: 60, y: 100, colWidths: [140, 100, 100], cells: gridCells(ROWS) }],
    });
    const form = new FormData();
    form.append("file", new File([pdf], "figures.pdf"));
    form.append("options", JSON.stringify({ tool: "tables", export_formats: ["xlsx", "csv", "json"] }));
    const created = await body(await api("/api/v1/process", { method: "POST", headers: auth, body: form }));
    const job = await waitForJob(created.id, auth);
    expect(job.status, JSON.stringify(job)).toBe("completed");
    expect((await walletOf(userId)).wallet).toEqual({ balance: 8, reserved: 0 });

    // The project holds the grid (and the page's text regions).
    const project = await detail(job.project_id, auth);
    expect(project.tables, JSON.stringify(project.tables)).toHaveLength(1);
    const table = project.tables[0];
    expect(table).toMatchObject({ page_index: 0, rows: 4, columns: 3 });
    const grid = ROWS.map((r) => r.map(() => ""));
    for (const c of table.cells) grid[c.row]![c.column] = c.text;
    expect(grid).toEqual(ROWS);
    expect(project.regions.map((r: any) => r.text).join("\n")).toContain("yearly overview");

    const exportOf = (format: string) => job.output.exports.find((e: any) => e.format === format);
    expect(parseCsv(new TextDecoder().decode(await download(exportOf("csv"), auth)))).toEqual(ROWS);
    const json = JSON.parse(new TextDecoder().decode(await download(exportOf("json"), auth)));
    expect(json.pages[0].tables[0]).toMatchObject({ rows: 4, columns: 3 });
    const sheet = unzip(await download(exportOf("xlsx"), auth))["xl/worksheets/sheet1.xml"]!;
    // Numbers are stored as numbers (<v>), other cells as inline strings (<t>), row by row.
    expect([...sheet.matchAll(/<(?:t|v)(?: [^>]*)?>([^<]*)<\/(?:t|v)>/g)].map((m) => m[1])).toEqual(ROWS.flat());
  });
});
