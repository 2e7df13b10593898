import { describe, expect, it } from "vitest";
import { parseEngineError } from "../../workers/shared/engine-contract";
import { decodeCcitt } from "../../workers/engine/image/ccitt";

/** Bits written as a string of 0/1 (spaces ignored), packed MSB first, zero-padded to whole bytes. */
function bits(s: string): Uint8Array {
  const b = s.replace(/\s+/g, "");
  const out = new Uint8Array(Math.ceil(b.length / 8));
  for (let i = 0; i < b.length; i++) if (b[i] === "1") out[i >> 3]! |= 0x80 >> (i & 7);
  return out;
}

describe("CCITT fax decoder (T.4 / T.6 code tables)", () => {
  it("Modified Huffman rows (TIFF RLE): white 2, black 3, white 3 in an 8-pixel row, each row byte-aligned", () => {
    // white 2 = 0111, black 3 = 10, white 3 = 1000; second row: white 0 = 00110101, black 8 = 000101.
    const data = bits("0111 10 1000 000000" + "00110101 000101 00");
    expect([...decodeCcitt(data, { width: 8, height: 2, mode: "mh" })]).toEqual([0b00111000, 0b11111111]);
  });

  it("Group 3 1D with EOLs and make-up codes: a 100-pixel row of white 64 + 6, black 30", () => {
    // EOL, white make-up 64 = 11011, white 6 = 1110, black 30 = 000001101000.
    const data = bits("000000000001 11011 1110 000001101000");
    const row = decodeCcitt(data, { width: 100, height: 1, mode: "g3" });
    const black = (x: number) => (row[x >> 3]! >> (7 - (x & 7))) & 1;
    expect(Array.from({ length: 100 }, (_, x) => black(x)).join("")).toBe("0".repeat(70) + "1".repeat(30));
  });

  it("Group 4: horizontal mode, then vertical V0 / VR1 against the row above", () => {
    // Row 1: H (001) white 2 (0111) black 3 (10), then V0 (1) puts a1 at the reference's end (white to the edge).
    // Row 2: VR1 (011) black starts at 3, VR1 (011) white starts at 6.
    const data = bits("001 0111 10 1" + "011 011 1");
    expect([...decodeCcitt(data, { width: 8, height: 2, mode: "g4" })]).toEqual([0b00111000, 0b00011100]);
  });

  it("reads bits stored least significant first (FillOrder 2)", () => {
    const msb = bits("001 0111 10 1" + "011 011 1");
    const lsb = msb.map((b) => Number.parseInt(b.toString(2).padStart(8, "0").split("").reverse().join(""), 2));
    expect(decodeCcitt(lsb, { width: 8, height: 2, mode: "g4", lsbFirst: true })).toEqual(
      decodeCcitt(msb, { width: 8, height: 2, mode: "g4" }),
    );
  });

  it("answers truncated or garbage data with coded errors only, and always ends", () => {
    const cut = bits("001 0111 10 1");
    const err = (() => {
      try {
        decodeCcitt(cut, { width: 8, height: 5, mode: "g4" });
      } catch (e) {
        return parseEngineError(e);
      }
      return null;
    })();
    expect(err?.code).toBe("corrupt_file");
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff;
    for (let i = 0; i < 300; i++) {
      const data = new Uint8Array(64 + (i % 500)).map(next);
      try {
        decodeCcitt(data, { width: 50 + i, height: 40, mode: (["mh", "g3", "g4"] as const)[i % 3]!, twoD: i % 2 === 0 });
      } catch (e) {
        expect(["corrupt_file", "unsupported_media_type"]).toContain(parseEngineError(e)?.code);
      }
    }
  });
});
