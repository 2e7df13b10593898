import type { JobKind, Tool } from "../../db/schema/enums";

/** Credits per page by tool: what `GET /config` lists, `POST /estimate` quotes and a job is charged. */
export const CREDITS_PER_PAGE: Record<Tool, number> = { ocr: 1, translate: 3, tables: 2, erase: 2 };

/**
 * Price of re-translating one region: 1 credit, whatever its length — never more than the
 * translation of the page it sits on (the `translate` tool's per-page price). Charged only when a
 * provider actually ran: a region that is only glossary terms, or has no letters, is free.
 */
export const RETRANSLATE_CREDITS = 1;

/**
 * The price of a job: the one function both `POST /estimate` and the charge use.
 * Re-rendering an edited project is free (no recognition or translation runs).
 */
export function priceOf(tool: Tool, pages: number, kind: JobKind = "single"): number {
  if (kind === "rerender") return 0;
  return CREDITS_PER_PAGE[tool] * pages;
}
