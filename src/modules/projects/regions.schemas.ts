import { z } from "@hono/zod-openapi";
import { REGION_KINDS } from "../../db/schema/enums";
import { Box, RegionStyle } from "./projects.schemas";

const Text = z.string().max(20_000);

export const RegionCreate = z
  .object({
    page_id: z.string().min(1).max(64).optional(),
    page_index: z.number().int().min(0).optional().openapi({ description: "0-based page; alternative to page_id." }),
    box: Box,
    kind: z.enum(REGION_KINDS).default("text"),
    text: Text.default("").openapi({ description: "Source text typed by the user (stored as user_text)." }),
    translation: Text.nullable().optional().openapi({ description: "Translation typed by the user (stored as user_translation)." }),
    order: z.number().int().min(0).optional().openapi({ description: "Reading position within the page; appended last when absent." }),
    style: RegionStyle.nullable().optional(),
    vertical: z.boolean().default(false),
  })
  .strict()
  .openapi("RegionCreate", { description: "Send exactly one of page_id and page_index." });

export const RegionUpdate = z
  .object({
    text: Text.nullable().optional().openapi({ description: "Corrected source text (user_text); null returns to the recognised text." }),
    translation: Text.nullable()
      .optional()
      .openapi({ description: "Edited translation (user_translation); null returns to the machine translation." }),
    box: Box.optional(),
    style: RegionStyle.nullable().optional(),
    order: z.number().int().min(0).optional().openapi({ description: "New reading position within the page (0-based); the others shift." }),
    kind: z.enum(REGION_KINDS).optional(),
    vertical: z.boolean().optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: "Send at least one field to change." })
  .openapi("RegionUpdate");

export const RegionMergeRequest = z
  .object({
    region_ids: z
      .array(z.string().min(1).max(64))
      .min(2)
      .max(200)
      .openapi({ description: "Regions of one page; merged into the first in reading order." }),
    separator: z.string().max(8).default("\n").openapi({ description: "Joins the texts, in reading order." }),
  })
  .strict()
  .openapi("RegionMergeRequest");

export const RegionSplitRequest = z
  .discriminatedUnion("mode", [
    z
      .object({ mode: z.literal("lines").openapi({ example: "lines" }) })
      .strict()
      .openapi({ description: "One region per line of text." }),
    z
      .object({
        mode: z.literal("offset").openapi({ example: "offset" }),
        offset: z.number().int().min(1).openapi({ description: "Character offset in the region's text (user_text when corrected)." }),
      })
      .strict(),
    z
      .object({ mode: z.literal("point").openapi({ example: "point" }), x: z.number().int().min(0), y: z.number().int().min(0) })
      .strict()
      .openapi({ description: "A point in page pixels: the text is cut at the character nearest to it." }),
  ])
  .openapi("RegionSplitRequest");

export const TableCellUpdate = z
  .object({
    row: z.number().int(),
    column: z.number().int(),
    text: z.string().max(10_000),
  })
  .strict()
  .openapi("TableCellUpdate");

export const TableCellUpdates = z.array(TableCellUpdate).min(1).max(5000);

export const TableCellsResult = z
  .object({
    updated: z.number().int().openapi({ description: "Cells whose text changed (including grid cells written for the first time)." }),
    unchanged: z.number().int(),
    received: z.number().int(),
  })
  .openapi("TableCellsResult");

export const ReocrRequest = z
  .object({
    box: Box.optional().openapi({
      description: "Rectangle to read (page pixels); the region's box when absent. The region takes this box.",
    }),
    languages: z
      .array(z.string().regex(/^[a-z]{2,3}(_[a-z]{2,4})?$/))
      .min(1)
      .max(3)
      .optional()
      .openapi({ description: "OCR languages (`en` or `eng`); the page's languages when absent.", example: ["eng"] }),
  })
  .strict()
  .openapi("ReocrRequest");
