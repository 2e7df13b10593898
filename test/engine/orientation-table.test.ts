import { describe, expect, it } from "vitest";
import { put, readPage, realFixture } from "./helpers";

describe("orientation of an upright page that is mostly a ruled table", { timeout: 240_000 }, () => {
  it("stays upright (ICDAR 2013 eu-021 p. 7 at 200 dpi): a sideways band of its columns is no evidence of a turn", async () => {
    const key = await put("uploads/orientation/eu-021-p7.png", realFixture("icdar2013_eu-021-p7.png"));
    const page = await readPage("orientation-table", key, 0, ["eng"]);
    expect(page.rec.rotation).toBe(0);
    expect(page.text.text).toContain("Factors influencing students");
  });
});
