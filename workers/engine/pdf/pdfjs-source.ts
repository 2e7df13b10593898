// @ts-expect-error wrangler's Text rule (wrangler.toml) turns this import into the file's text;
// TypeScript only sees the module's typings, which have no default export.
import source from "../../../node_modules/unpdf/dist/pdfjs.mjs";

/** pdf.js (unpdf's build) as source text, loaded into the browser page by the rasteriser. */
export const PDFJS_SOURCE: string = source;
