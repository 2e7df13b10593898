import { env } from "cloudflare:workers";
import { unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import {
  EXPORT_FORMATS,
  parseEngineError,
  type BuiltExport,
  type ExportDocument,
  type ExportFormat,
} from "../../workers/shared/engine-contract";
import { decode, pageText, scene } from "../render/helpers";
import { TEXT } from "../render/scenes.mjs";
import { read, squash, stored, texts, unzip } from "./readers";

const TRANSLATIONS = ["Pan fresco cada mañana", "Abierto todos los días desde las siete"];
const TABLE = {
  box: { x: 60, y: 200, w: 900, h: 150 },
  rows: 3,
  cols: 3,
  cells: [
    { row: 0, col: 0, rowSpan: 1, colSpan: 2, text: "Item & size" },
    { row: 0, col: 2, rowSpan: 1, colSpan: 1, text: "Price" },
    { row: 1, col: 0, rowSpan: 2, colSpan: 1, text: "Shoes" },
    { row: 1, col: 1, rowSpan: 1, colSpan: 1, text: "42" },
    { row: 1, col: 2, rowSpan: 1, colSpan: 1, text: "59.90" },
    { row: 2, col: 1, rowSpan: 1, colSpan: 1, text: "44, wide" },
    { row: 2, col: 2, rowSpan: 1, colSpan: 1, text: '64 "special"' },
  ],
};

let doc: ExportDocument;
let built: Record<string, BuiltExport>;

/**
 * A two-page document as the api hands it over: page 1 recognised for real (the flat scene) with
 * translations and a rendered page, page 2 with a heading, a paragraph and a table (merged cells).
 */
beforeAll(async () => {
  const flat = scene("flat");
  const grad = scene("gradient");
  await env.FILES.put("uploads/x/flat", flat.page);
  const pre = await env.ENGINE.preprocess({ sourceKey: "uploads/x/flat", page: 0, outKey: "work/x/0/page.png", languages: ["eng"] });
  const text = await pageText((await env.ENGINE.recognize({ pageKey: pre.key, languages: ["eng"], outKey: "work/x/0/text.json" })).key);
  await env.FILES.put("work/x/1/page.png", grad.page);
  await env.FILES.put("work/x/0/render.png", grad.background);
  const lines = text.regions.flatMap((r) => r.lines);
  doc = {
    title: "Bakery sign",
    sourceLanguage: "eng",
    targetLanguage: "es",
    pages: [
      {
        index: 0,
        width: pre.width,
        height: pre.height,
        imageKey: pre.key,
        renderKey: "work/x/0/render.png",
        languages: ["eng"],
        confidence: text.confidence,
        regions: lines.map((l, i) => ({
          box: l.box,
          text: l.text,
          translation: TRANSLATIONS[i] ?? null,
          confidence: l.confidence,
          kind: "text",
          lines: [l],
        })),
        tables: [],
      },
      {
        index: 1,
        width: 1100,
        height: 380,
        imageKey: "work/x/1/page.png",
        regions: [
          { box: { x: 60, y: 20, w: 600, h: 60 }, text: "Price list", translation: "Lista de precios", kind: "heading" },
          {
            box: { x: 60, y: 100, w: 900, h: 80 },
            text: "All prices in euros.\nValid this week.",
            translation: "Todos los precios en euros.",
            kind: "paragraph",
          },
          { box: { x: 70, y: 210, w: 300, h: 40 }, text: "Item & size", kind: "text" },
        ],
        tables: [TABLE],
      },
    ],
  };
  await env.FILES.put("work/x/document.json", JSON.stringify(doc));
  // Every format the engine builds: the contract's list is the one the api and the engine use.
  const formats: ExportFormat[] = [...EXPORT_FORMATS];
  const out = await env.ENGINE.buildExports({ documentKey: "work/x/document.json", formats, outPrefix: "exports/x/", baseName: "bakery" });
  built = Object.fromEntries(out.map((b) => [b.format, b]));
  expect(Object.keys(built).sort()).toEqual([...formats].sort());
});

/** The engine error code a call fails with (awaited here, so no rejection goes unhandled). */
async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return parseEngineError(err)?.code ?? String(err);
  }
  return "no error";
}

const sourceLines = () => doc.pages[0]!.regions.map((r) => r.text);

describe("PDF exports (read back with poppler)", () => {
  it("searchable PDF: page images with an invisible text layer that pdftotext reads in order", async () => {
    expect(built.searchable_pdf).toMatchObject({ key: "exports/x/bakery.pdf", filename: "bakery.pdf", contentType: "application/pdf" });
    const pdf = await stored(built.searchable_pdf!.key);
    const info = await read("pdfinfo", pdf);
    expect(info.code, info.stderr).toBe(0);
    expect(info.stdout).toMatch(/Pages:\s+2/);
    expect(info.stdout).toMatch(/Title:\s+Bakery sign/);
    const txt = await read("pdftotext", pdf);
    expect(txt.code, txt.stderr).toBe(0);
    const [p1, p2] = txt.stdout.split("\f");
    expect(squash(p1!)).toBe(squash(sourceLines().join(" ")));
    expect(squash(TEXT.flat.lines.join(" "))).toBe(squash(p1!));
    expect(squash(p2!)).toContain("Price list All prices in euros. Valid this week.");
  });

  it("rendered PDF: rendered pages with the translation as the text layer", async () => {
    expect(built.pdf!.filename).toBe("bakery-rendered.pdf");
    const txt = await read("pdftotext", await stored(built.pdf!.key));
    expect(txt.code, txt.stderr).toBe(0);
    const [p1, p2] = txt.stdout.split("\f");
    expect(squash(p1!)).toBe(TRANSLATIONS.join(" "));
    expect(squash(p2!)).toContain("Lista de precios");
  });
});

describe("layout XML (schema-checked with xmllint)", () => {
  it("hOCR is valid XHTML 1.0 with every word, box and confidence", async () => {
    const bytes = await stored(built.hocr!.key);
    const v = await read("xmllint-xhtml", bytes);
    expect(v.code, v.stderr).toBe(0);
    const hocr = new TextDecoder().decode(bytes);
    const words = texts(hocr, "span");
    expect(squash(words.join(" "))).toContain(squash(sourceLines().join(" ")));
    expect(hocr).toMatch(/class="ocr_page" id="page_1" title="bbox 0 0 \d+ \d+; ppageno 0"/);
    expect(hocr).toMatch(/class="ocrx_word" id="word_1_1_1_1" title="bbox \d+ \d+ \d+ \d+; x_wconf \d+"/);
    expect(hocr.match(/class="ocr_page"/g)).toHaveLength(2);
  });

  it("ALTO 4 validates against the schema and carries the words in order", async () => {
    const bytes = await stored(built.alto!.key);
    const v = await read("xmllint-alto", bytes);
    expect(v.code, v.stderr).toBe(0);
    const alto = new TextDecoder().decode(bytes);
    const contents = [...alto.matchAll(/CONTENT="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));
    expect(contents.slice(0, sourceLines().join(" ").split(" ").length).join(" ")).toBe(sourceLines().join(" "));
    expect(alto).toContain('<Page ID="p_2" PHYSICAL_IMG_NR="2"');
  });

  it("the schema check is real: a String without CONTENT is refused", async () => {
    const alto = new TextDecoder().decode(await stored(built.alto!.key)).replace(/ CONTENT="[^"]*"/, "");
    const v = await read("xmllint-alto", new TextEncoder().encode(alto));
    expect(v.code).not.toBe(0);
    expect(v.stderr).toContain("CONTENT");
  });
});

describe("office exports (unzipped and read)", () => {
  it("DOCX: paragraphs in reading order, headings, the table as a Word table with merged cells", async () => {
    const files = unzip(await stored(built.docx!.key));
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining(["[Content_Types].xml", "_rels/.rels", "word/document.xml", "word/styles.xml"]),
    );
    const body = files["word/document.xml"]!;
    const t = texts(body, "w:t");
    expect(t.slice(0, 1 + sourceLines().length)).toEqual(["Bakery sign", ...sourceLines()]);
    expect(body).toContain('<w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t xml:space="preserve">Price list</w:t>');
    expect(body.match(/<w:tbl>/g)).toHaveLength(1);
    expect(body.match(/<w:tr>/g)).toHaveLength(3);
    expect(body).toContain('<w:gridSpan w:val="2"/>');
    expect(body).toContain('<w:vMerge w:val="restart"/>');
    // The region inside the table is left to the table; the table follows the paragraph above it.
    const tbl = texts(body.slice(body.indexOf("<w:tbl>")), "w:t");
    expect(tbl.slice(0, 5)).toEqual(["Item & size", "Price", "Shoes", "42", "59.90"]);
    expect(t.filter((x) => x === "Item & size")).toHaveLength(1);
  });

  it("XLSX: one sheet per table, merged cells, numbers as numbers", async () => {
    const files = unzip(await stored(built.xlsx!.key));
    expect(files["xl/workbook.xml"]).toContain('<sheet name="Page 2 Table 1" sheetId="1" r:id="rId1"/>');
    const sheet = files["xl/worksheets/sheet1.xml"]!;
    expect(sheet).toContain('<c r="A1" t="inlineStr"><is><t xml:space="preserve">Item &amp; size</t></is></c>');
    expect(sheet).toContain('<c r="C2"><v>59.90</v></c>');
    expect(sheet).toContain('<mergeCells count="2"><mergeCell ref="A1:B1"/><mergeCell ref="A2:A3"/></mergeCells>');
  });

  it("CSV: RFC 4180 quoting", async () => {
    const csv = new TextDecoder().decode(await stored(built.csv!.key));
    expect(built.csv!.contentType).toBe("text/csv; charset=utf-8");
    expect(csv).toBe('Item & size,,Price\r\nShoes,42,59.90\r\n,"44, wide","64 ""special"""\r\n');
  });
});

describe("text exports", () => {
  it("TXT, Markdown and JSON carry the document", async () => {
    const txt = new TextDecoder().decode(await stored(built.txt!.key));
    expect(
      txt
        .split("\f")[0]!
        .split("\n\n")
        .map((s) => s.trim()),
    ).toEqual(sourceLines());
    const md = new TextDecoder().decode(await stored(built.md!.key));
    expect(md).toContain("# Bakery sign");
    expect(md).toContain("### Price list");
    expect(md).toContain("| Item & size |  | Price |\n| --- | --- | --- |\n| Shoes | 42 | 59.90 |");
    expect(md.indexOf("All prices in euros.")).toBeLessThan(md.indexOf("| Item & size"));
    const json = JSON.parse(new TextDecoder().decode(await stored(built.json!.key)));
    expect(json.pages[0].regions.map((r: any) => r.translation)).toEqual(TRANSLATIONS);
    expect(json.pages[0].regions[0].lines[0].words[0].box.w).toBeGreaterThan(0);
    expect(json.pages[1].tables[0]).toMatchObject({ rows: 3, columns: 3 });
  });

  it("translation content puts the translations in the text formats", async () => {
    const out = await env.ENGINE.buildExports({
      documentKey: "work/x/document.json",
      formats: ["txt"],
      content: "translation",
      outPrefix: "exports/x/tr/",
      baseName: "bakery",
    });
    const txt = new TextDecoder().decode(await stored(out[0]!.key));
    expect(txt.split("\f")[0]!.trim().split("\n\n")).toEqual(TRANSLATIONS);
  });
});

describe("image exports and ZIP", () => {
  it("PNG, JPEG and WebP of each page decode to the page size (several pages: one ZIP)", async () => {
    for (const f of ["png", "jpg", "webp"] as const) {
      expect(built[f]).toMatchObject({ filename: `bakery-${f}.zip`, contentType: "application/zip" });
      const entries = unzipSync(await stored(built[f]!.key));
      expect(Object.keys(entries).sort()).toEqual([`bakery-page-001.${f}`, `bakery-page-002.${f}`]);
      const img = decode(entries[`bakery-page-001.${f}`]!);
      expect([img.width, img.height]).toEqual([doc.pages[0]!.width, doc.pages[0]!.height]);
    }
    // The rendered page is exported, not the page image: page 1's render is the gradient background.
    const png = decode(unzipSync(await stored(built.png!.key))["bakery-page-001.png"]!);
    expect(png.data[0]).toBeLessThan(200);
  });

  it("ZIP bundles the other requested formats", async () => {
    const names = Object.keys(unzipSync(await stored(built.zip!.key))).sort();
    expect(names).toEqual(
      expect.arrayContaining([
        "bakery.txt",
        "bakery.json",
        "bakery.md",
        "bakery.hocr",
        "bakery.alto.xml",
        "bakery.docx",
        "bakery.xlsx",
        "bakery.csv",
        "bakery.pdf",
        "bakery-rendered.pdf",
        "bakery-page-001.png",
        "bakery-page-002.webp",
      ]),
    );
  });

  it("refuses unknown formats and missing inputs", async () => {
    expect(
      await codeOf(
        env.ENGINE.buildExports({
          documentKey: "work/x/document.json",
          formats: ["rtf" as ExportFormat],
          outPrefix: "exports/x/",
          baseName: "b",
        }),
      ),
    ).toBe("validation_error");
    expect(
      await codeOf(env.ENGINE.buildExports({ documentKey: "work/x/none.json", formats: ["txt"], outPrefix: "exports/x/", baseName: "b" })),
    ).toBe("not_found");
  });
});
