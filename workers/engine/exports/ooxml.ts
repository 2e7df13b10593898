import { strToU8, zipSync } from "fflate";
import type { ExportDocument, ExportTable } from "../../shared/engine-contract";
import { type ExportContent, regionText } from "./document";
import { tableGrid } from "./text-formats";
import { xml } from "./xml";
import { textDirection } from "../../shared/text-direction";

/*
 * DOCX and XLSX are written as minimal Office Open XML packages zipped with fflate. The libraries
 * that write them (docx, exceljs, SheetJS) pull in JSZip, Node streams or a 1 MB bundle for what
 * is here a few hundred lines of well-specified XML; these packages open in Word, LibreOffice and
 * Excel and are checked in the tests by unzipping them and reading their XML.
 */

const XML_HEAD = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n`;
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships";

function pack(files: Record<string, string>): Uint8Array {
  const entries: Record<string, Uint8Array> = {};
  for (const [name, text] of Object.entries(files)) entries[name] = strToU8(text);
  return zipSync(entries, { level: 6 });
}

/** Cells of a table row by row: each starting cell, and vertical-merge continuations below it. */
function rowCells(t: ExportTable): { col: number; span: number; text: string; vmerge: "restart" | "continue" | null }[][] {
  const start = new Map(t.cells.map((c) => [`${c.row},${c.col}`, c]));
  const rows: ReturnType<typeof rowCells> = [];
  for (let r = 0; r < t.rows; r++) {
    const row: ReturnType<typeof rowCells>[number] = [];
    for (let c = 0; c < t.cols;) {
      const cell = start.get(`${r},${c}`);
      if (cell) {
        const span = Math.max(1, Math.min(cell.colSpan, t.cols - c));
        row.push({ col: c, span, text: cell.text, vmerge: cell.rowSpan > 1 ? "restart" : null });
        c += span;
        continue;
      }
      const above = t.cells.find((o) => o.col === c && o.row < r && o.row + o.rowSpan > r);
      if (above) {
        const span = Math.max(1, Math.min(above.colSpan, t.cols - c));
        row.push({ col: c, span, text: "", vmerge: "continue" });
        c += span;
        continue;
      }
      row.push({ col: c, span: 1, text: "", vmerge: null });
      c++;
    }
    rows.push(row);
  }
  return rows;
}

function wRuns(text: string): string {
  return text
    .split("\n")
    .map((line, i) => `${i ? "<w:br/>" : ""}<w:t xml:space="preserve">${xml(line)}</w:t>`)
    .join("");
}

/** A paragraph; right-to-left text (Arabic, Hebrew…) gets a bidi paragraph and rtl runs, so Word lays it out from the right. */
function wPara(text: string, style?: string): string {
  const rtl = textDirection(text) === "rtl";
  const pPr = (style ? `<w:pStyle w:val="${style}"/>` : "") + (rtl ? "<w:bidi/>" : "");
  return `<w:p>${pPr ? `<w:pPr>${pPr}</w:pPr>` : ""}<w:r>${rtl ? "<w:rPr><w:rtl/></w:rPr>" : ""}${wRuns(text)}</w:r></w:p>`;
}

function wTable(t: ExportTable): string {
  const grid = `<w:tblGrid>${Array.from({ length: t.cols }, () => `<w:gridCol w:w="${Math.floor(9000 / Math.max(1, t.cols))}"/>`).join("")}</w:tblGrid>`;
  const rows = rowCells(t)
    .map(
      (row) =>
        `<w:tr>${row
          .map((c) => {
            const pr = `${c.span > 1 ? `<w:gridSpan w:val="${c.span}"/>` : ""}${c.vmerge === "restart" ? `<w:vMerge w:val="restart"/>` : c.vmerge === "continue" ? "<w:vMerge/>" : ""}`;
            return `<w:tc>${pr ? `<w:tcPr>${pr}</w:tcPr>` : ""}${wPara(c.text)}</w:tc>`;
          })
          .join("")}</w:tr>`,
    )
    .join("");
  return `<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/></w:tblPr>${grid}${rows}</w:tbl>`;
}

/**
 * DOCX: the title as a heading, then per page its regions as paragraphs in reading order
 * (`heading` regions as headings) and its tables as Word tables (merged cells kept), at the place
 * of the first region below them; pages separated by page breaks.
 */
export function renderDocx(doc: ExportDocument, content: ExportContent): Uint8Array {
  const body: string[] = [wPara(doc.title, "Title")];
  doc.pages.forEach((p, pi) => {
    if (pi > 0) body.push(`<w:p><w:r><w:br w:type="page"/></w:r></w:p>`);
    const tables = [...(p.tables ?? [])].sort((a, b) => a.box.y - b.box.y);
    const inside = (b: { x: number; y: number; w: number; h: number }) =>
      (p.tables ?? []).some(
        (t) =>
          b.x + b.w / 2 >= t.box.x && b.x + b.w / 2 <= t.box.x + t.box.w && b.y + b.h / 2 >= t.box.y && b.y + b.h / 2 <= t.box.y + t.box.h,
      );
    for (const r of p.regions) {
      if (inside(r.box)) continue;
      const text = regionText(r, content).trim();
      if (!text) continue;
      while (tables.length && tables[0]!.box.y < r.box.y) body.push(wTable(tables.shift()!), wPara(""));
      body.push(wPara(text, r.kind === "heading" ? "Heading1" : undefined));
    }
    for (const t of tables) body.push(wTable(t), wPara(""));
  });
  const W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
  return pack({
    "[Content_Types].xml": `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>`,
    "_rels/.rels": `${XML_HEAD}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`,
    "word/_rels/document.xml.rels": `${XML_HEAD}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
    "word/styles.xml": `${XML_HEAD}<w:styles xmlns:w="${W}"><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:pPr><w:spacing w:after="160"/></w:pPr></w:style><w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:basedOn w:val="Normal"/><w:rPr><w:b/><w:sz w:val="40"/></w:rPr></w:style><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/><w:sz w:val="32"/></w:rPr></w:style><w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/><w:tblPr><w:tblBorders><w:top w:val="single" w:sz="4" w:space="0" w:color="000000"/><w:left w:val="single" w:sz="4" w:space="0" w:color="000000"/><w:bottom w:val="single" w:sz="4" w:space="0" w:color="000000"/><w:right w:val="single" w:sz="4" w:space="0" w:color="000000"/><w:insideH w:val="single" w:sz="4" w:space="0" w:color="000000"/><w:insideV w:val="single" w:sz="4" w:space="0" w:color="000000"/></w:tblBorders></w:tblPr></w:style></w:styles>`,
    "word/document.xml": `${XML_HEAD}<w:document xmlns:w="${W}" xmlns:r="${REL}"><w:body>${body.join("")}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr></w:body></w:document>`,
  });
}

/** Column letters of a zero-based index: 0 → A, 26 → AA. */
export function columnName(i: number): string {
  let s = "";
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

const NUMBER = /^-?(?:\d{1,15}|\d{1,15}\.\d{1,15})$/;

function sheetXml(grid: string[][], merges: string[]): string {
  const rows = grid
    .map((r, ri) => {
      const cells = r
        .map((v, ci) => {
          const ref = `${columnName(ci)}${ri + 1}`;
          if (v === "") return "";
          if (NUMBER.test(v.trim())) return `<c r="${ref}"><v>${v.trim()}</v></c>`;
          return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${xml(v)}</t></is></c>`;
        })
        .join("");
      return `<row r="${ri + 1}">${cells}</row>`;
    })
    .join("");
  const mc = merges.length
    ? `<mergeCells count="${merges.length}">${merges.map((m) => `<mergeCell ref="${m}"/>`).join("")}</mergeCells>`
    : "";
  return `${XML_HEAD}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData>${mc}</worksheet>`;
}

/** The sheets of a document: one per table; without tables, one sheet of the regions (text and translation side by side). */
export function sheetsOf(doc: ExportDocument): { name: string; grid: string[][]; merges: string[]; table: ExportTable | null }[] {
  const sheets: ReturnType<typeof sheetsOf> = [];
  for (const p of doc.pages) {
    (p.tables ?? []).forEach((t, ti) => {
      const merges = t.cells
        .filter((c) => c.rowSpan > 1 || c.colSpan > 1)
        .map((c) => `${columnName(c.col)}${c.row + 1}:${columnName(c.col + c.colSpan - 1)}${c.row + c.rowSpan}`);
      sheets.push({
        name: doc.pages.length > 1 ? `Page ${p.index + 1} Table ${ti + 1}` : `Table ${ti + 1}`,
        grid: tableGrid(t),
        merges,
        table: t,
      });
    });
  }
  if (sheets.length) return sheets;
  const grid = [["page", "region", "text", "translation"]];
  for (const p of doc.pages) p.regions.forEach((r, i) => grid.push([String(p.index + 1), String(i + 1), r.text, r.translation ?? ""]));
  return [{ name: "Text", grid, merges: [], table: null }];
}

/** XLSX: one worksheet per table (merged cells kept, numbers as numbers); see `sheetsOf`. */
export function renderXlsx(doc: ExportDocument): Uint8Array {
  const sheets = sheetsOf(doc);
  const files: Record<string, string> = {
    "[Content_Types].xml": `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${sheets.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join("")}</Types>`,
    "_rels/.rels": `${XML_HEAD}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    "xl/workbook.xml": `${XML_HEAD}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${REL}"><sheets>${sheets.map((s, i) => `<sheet name="${xml(s.name.slice(0, 31))}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join("")}</sheets></workbook>`,
    "xl/_rels/workbook.xml.rels": `${XML_HEAD}<Relationships xmlns="${PKG_REL}">${sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join("")}</Relationships>`,
  };
  sheets.forEach((s, i) => (files[`xl/worksheets/sheet${i + 1}.xml`] = sheetXml(s.grid, s.merges)));
  return pack(files);
}
