import type { ExtractTablesResult } from "../../shared/engine-contract";
import type { EngineEnv } from "../env";
import { extractPageTables } from "../layout/tables";
import { resolveLanguages } from "../ocr/languages";
import { loadPageForReading } from "../ocr/page-raster";
import { readTextLayer, type PageMeta } from "../storage/page-meta";
import { writeJson } from "../storage/r2";

/**
 * Tables of a page (ruled, rule-framed and borderless), each cell's text, written as `PageTables`
 * JSON; with `textOutKey`, the page text the tables were read from is written too (`PageText`).
 */
export async function extractTables(
  env: EngineEnv,
  pageKey: string,
  meta: PageMeta,
  outKey: string,
  textOutKey: string | undefined,
  languages: string[],
): Promise<ExtractTablesResult> {
  const gray = await loadPageForReading(env.FILES, pageKey, meta);
  const textLayer = meta.path === "text_layer" ? { ...(await readTextLayer(env.FILES, meta)), languages } : null;
  const langs = textLayer ? languages : await resolveLanguages(env.MODELS, languages, gray);
  const { tables, text } = await extractPageTables(env.MODELS, gray, meta.path, textLayer, langs);
  await writeJson(env.FILES, outKey, tables);
  if (textOutKey) await writeJson(env.FILES, textOutKey, text);
  return {
    key: outKey,
    tables: tables.tables.length,
    cells: tables.tables.reduce((n, t) => n + t.cells.length, 0),
    ...(textOutKey ? { textKey: textOutKey } : {}),
    regions: text.regions.length,
    path: meta.path,
    languages: text.languages,
  };
}
