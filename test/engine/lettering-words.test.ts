import { describe, expect, it } from "vitest";
import type { RegionText } from "../../workers/shared/engine-contract";
import { lexiconOf } from "../../workers/engine/ocr/lexicon";
import { correctLettering } from "../../workers/engine/picture/lettering-words";

/** A bucket holding only `lexicon/eng.tsv`, with the given bytes. */
const bucket = (text: string) =>
  ({
    async get(key: string) {
      if (key !== "lexicon/eng.tsv") return null;
      const bytes = new TextEncoder().encode(text);
      return { arrayBuffer: async () => bytes.buffer };
    },
  }) as unknown as R2Bucket;

/** Words of the test list, each with how often it is said (0: not counted). */
const WORDS: [string, number][] = [
  ["a", 0],
  ["aah", 2688],
  ["aahs", 0],
  ["after", 34812],
  ["ban", 600],
  ["bob", 4666],
  ["burning", 1561],
  ["can", 90000],
  ["cat", 3000],
  ["che", 146],
  ["does", 34002],
  ["him", 177710],
  ["id", 500],
  ["in", 300000],
  ["io", 0],
  ["is", 459663],
  ["its", 8757],
  ["job", 21063],
  ["lifter", 12],
  ["oof", 121],
  ["roes", 3],
  ["sat", 2000],
  ["second", 14513],
  ["she", 190000],
  ["so", 200000],
  ["soh", 2],
  ["sour", 297],
  ["the", 1501908],
  ["thin", 1200],
  ["this", 406915],
  ["thought", 30000],
  ["wish", 15000],
  ["your", 328715],
];
const COUNTS = new Map(WORDS);

/** One line of words read at the given confidences, as one region. */
function region(words: [string, number][]): RegionText {
  const ws = words.map(([text, confidence], i) => ({ text, confidence, box: { x: i * 50, y: 0, w: 40, h: 20 } }));
  const text = ws.map((w) => w.text).join(" ");
  const line = { text, confidence: 0.5, box: { x: 0, y: 0, w: 50 * ws.length, h: 20 }, words: ws };
  return { text, confidence: 0.5, box: line.box, lines: [line] };
}

describe("the word list", () => {
  it("holds every word of a sorted list, its first and last, and nothing else", async () => {
    const lexicon = (await lexiconOf(bucket(WORDS.map(([w, n]) => (n ? `${w}\t${n}` : w)).join("\n") + "\n"), "eng"))!;
    for (const [w, n] of WORDS) {
      expect(lexicon.has(w), w).toBe(true);
      expect(lexicon.count(w), w).toBe(n);
    }
    expect(lexicon.count("thoughts")).toBe(0);
    for (const w of ["", "aa", "aahss", "b", "thoughts", "zzz", "IS"]) expect(lexicon.has(w), w).toBe(false);
  });

  it("is there for languages that have one only", async () => {
    expect(await lexiconOf(bucket("is\n"), "jpn")).toBeNull();
  });
});

describe("capitals lettering checked against the word list", () => {
  const lexicon = { has: (w: string) => COUNTS.has(w), count: (w: string) => COUNTS.get(w) ?? 0 };

  it("takes a word no list holds, read unsurely, for the one word its misread glyph makes", () => {
    const out = correctLettering(
      region([
        ["THIE", 0.4],
        ["6ECOND!", 0.3],
        ["POESN'T", 0.5],
        ["JN", 0.6],
      ]),
      lexicon,
    );
    expect(out.text).toBe("THIS SECOND! DOESN'T IN");
    expect(out.lines[0]!.text).toBe(out.text);
    expect(out.lines[0]!.words.map((w) => w.text)).toEqual(["THIS", "SECOND!", "DOESN'T", "IN"]);
  });

  it("corrects a word of digits or bars between words, but not a number read surely or with a sign", () => {
    expect(
      correctLettering(
        region([
          ["THIS", 0.9],
          ["16", 0.3],
          ["|6", 0.5],
          ["1-1", 0.3],
        ]),
        lexicon,
      ).text,
    ).toBe("THIS IS IS I-I");
    expect(correctLettering(region([["16", 0.9]]), lexicon).text).toBe("16");
    expect(correctLettering(region([["50!", 0.3]]), lexicon).text).toBe("SO!");
    // With a sign or a unit it is a number.
    expect(
      correctLettering(
        region([
          ["$50", 0.3],
          ["50%", 0.3],
          ["#16", 0.3],
        ]),
        lexicon,
      ).text,
    ).toBe("$50 50% #16");
  });

  it("takes a word of four capitals or more, read unsurely, for the one word a letter more or less makes", () => {
    expect(
      correctLettering(
        region([
          ["BURNNG", 0.6],
          ["GTHE", 0.4],
        ]),
        lexicon,
      ).text,
    ).toBe("BURNING THE");
    // THI: too short (THIN and THIS); BURNNG read surely; TIMMY: no word a letter away.
    const same = region([
      ["THI", 0.3],
      ["BURNNG", 0.9],
      ["TIMMY", 0.3],
    ]);
    expect(correctLettering(same, lexicon)).toBe(same);
  });

  it("corrects digits among letters whatever their confidence", () => {
    expect(
      correctLettering(
        region([
          ["IT8", 0.95],
          ["D0ESN'T", 0.9],
        ]),
        lexicon,
      ).text,
    ).toBe("ITS DOESN'T");
  });

  it("leaves words the list holds, names, sure readings and words with two fits as read", () => {
    const same = region([
      ["BURNING", 0.3],
      ["TIM!", 0.2],
      ["THIE", 0.9],
      ["GAT", 0.3],
      ["B17", 0.2],
      ["A", 0.1],
      ["I'LL", 0.3],
    ]);
    // GAT: SAT and CAT both fit. B17: two digits in a word of letters.
    expect(correctLettering(same, lexicon)).toBe(same);
  });

  it("takes the fit said most, and none said rarely, and keeps a letter drawn again and again", () => {
    // POESN'T: DOESN'T and ROESN'T fit, DOES said 10 000 times more than ROES.
    expect(correctLettering(region([["POESN'T", 0.5]]), lexicon).text).toBe("DOESN'T");
    // SOK: only SOH fits (K read for H), said twice in 51 million words: a sound effect, kept.
    // OOOF: OOF is a letter less, but a letter drawn three times in a row is lettering's stretch.
    const same = region([
      ["SOK!", 0.4],
      ["OOOF!", 0.4],
    ]);
    expect(correctLettering(same, lexicon)).toBe(same);
  });

  it("sets a stammered letter's misread repeat as the letter again", () => {
    expect(
      correctLettering(
        region([
          ["I--T", 0.85],
          ["THOUGHT", 0.9],
          ["I-1", 0.5],
          ['"I-|', 0.5],
        ]),
        lexicon,
      ).text,
    ).toBe('I--I THOUGHT I-I "I-I');
    // A stammer read right, letters whose second is no misreading of the first, and longer words stay.
    const same = region([
      ["I-I", 0.5],
      ["A-T", 0.5],
      ["T-I", 0.5],
      ["IT-T", 0.5],
    ]);
    expect(correctLettering(same, lexicon)).toBe(same);
  });

  it("takes a region's first word read with its decorated initial as two or three glyphs for the word one capital makes", () => {
    for (const read of ["QUFTER", "LQUFTER", "LIFTER"]) {
      const out = correctLettering(
        region([
          [read, 0.3],
          ["THE", 0.9],
        ]),
        lexicon,
      );
      expect(out.text, read).toBe("AFTER THE");
    }
    // Read surely, or not the region's first word, it stays.
    for (const words of [
      [
        ["QUFTER", 0.9],
        ["THE", 0.9],
      ],
      [
        ["THE", 0.9],
        ["QUFTER", 0.3],
      ],
    ] as [string, number][][]) {
      const same = region(words);
      expect(correctLettering(same, lexicon)).toBe(same);
    }
  });

  it("takes a region's first word read as a rare word of the list, its decorated initial as one other letter, for the word said five thousand times more", () => {
    const out = correctLettering(
      region([
        ["CHE", 0.4],
        ["CAT", 0.9],
      ]),
      lexicon,
    );
    expect(out.text).toBe("THE CAT");
    // Read surely, or not first; a word the list does not hold (a name: JIM is no HIM); a word
    // whose fit is said only so many times more (BOB is no JOB, SOUR no YOUR): each stays.
    for (const words of [
      [["CHE", 0.9]],
      [
        ["CAT", 0.9],
        ["CHE", 0.4],
      ],
      [["JIM", 0.4]],
      [["BOB", 0.4]],
      [["SOUR", 0.4]],
    ] as [string, number][][]) {
      const same = region(words);
      expect(correctLettering(same, lexicon), words[0]![0]).toBe(same);
    }
  });

  it("parts words run on past an exclamation mark, read as one or as I or a bar between two words", () => {
    const out = correctLettering(
      region([
        ["--OW!ITS", 0.9],
        ["BURNING", 0.9],
        ["DOESIWISH!", 0.6],
        ["THE|CAT", 0.5],
        ["CAT!|TS", 0.9],
      ]),
      lexicon,
    );
    expect(out.text).toBe("--OW! ITS BURNING DOES! WISH! THE! CAT CAT! ITS");
    expect(out.lines[0]!.text).toBe(out.text);
    // Each part takes its letters' share of the word's box, side by side.
    const [ow, its] = out.lines[0]!.words;
    expect(ow).toMatchObject({ text: "--OW!", box: { x: 0, y: 0, w: 25, h: 20 } });
    expect(its).toMatchObject({ text: "ITS", box: { x: 25, y: 0, w: 15, h: 20 } });
  });

  it("takes a lone 1, or T read unsurely, before a word of the list for I, and keeps it ending a line, before other words or with a sign", () => {
    expect(
      correctLettering(
        region([
          ["1", 0.84],
          ["SAT", 0.9],
          ["T", 0.6],
          ["SAT", 0.9],
        ]),
        lexicon,
      ).text,
    ).toBe("I SAT I SAT");
    const same = region([
      ["CAT", 0.9],
      ["T", 0.9],
      ["CAT", 0.9],
      ["1", 0.8],
      ["ZZZ", 0.9],
      ["1", 0.8],
      ["$1", 0.8],
      ["CAT", 0.9],
      ["1", 0.8],
    ]);
    expect(correctLettering(same, lexicon)).toBe(same);
  });

  it("takes a lone bar, 2, 7 or Z ending a balloon after a word of the list for its closing mark", () => {
    const bar = correctLettering(
      region([
        ["THE", 0.9],
        ["CAT", 0.9],
        ["|", 0.83],
      ]),
      lexicon,
    );
    expect(bar.text).toBe("THE CAT!");
    expect(bar.lines[0]!.words.at(-1)).toMatchObject({ text: "CAT!", box: { x: 50, w: 90 } });
    expect(
      correctLettering(
        region([
          ["IS", 0.9],
          ["7", 0.6],
        ]),
        lexicon,
      ).text,
    ).toBe("IS?");
    expect(
      correctLettering(
        region([
          ["THE", 0.9],
          ["2", 0.3],
        ]),
        lexicon,
      ).text,
    ).toBe("THE?");
    expect(
      correctLettering(
        region([
          ["CAT", 0.9],
          ["Z", 0.5],
        ]),
        lexicon,
      ).text,
    ).toBe("CAT?");
    // A number read surely, one after a name or a mark, and a bar or 7 that does not end the balloon stay.
    for (const words of [
      [
        ["IS", 0.9],
        ["7", 0.9],
      ],
      [
        ["CAT", 0.9],
        ["Z", 0.9],
      ],
      [
        ["TIM", 0.9],
        ["7", 0.3],
      ],
      [
        ["CAT!", 0.9],
        ["|", 0.8],
      ],
      [
        ["CAT", 0.9],
        ["7", 0.3],
        ["CAT", 0.9],
      ],
    ] as [string, number][][]) {
      const same = region(words);
      expect(correctLettering(same, lexicon)).toBe(same);
    }
    const twoLines = region([
      ["CAT", 0.9],
      ["|", 0.8],
    ]);
    twoLines.lines.push({
      ...twoLines.lines[0]!,
      text: "THE CAT",
      words: region([
        ["THE", 0.9],
        ["CAT", 0.9],
      ]).lines[0]!.words,
    });
    expect(correctLettering(twoLines, lexicon)).toBe(twoLines);
  });

  it("keeps an I between letters where a side is no word of the list or shorter than three letters", () => {
    const same = region([
      ["SATIN", 0.5],
      ["ZZZICAT", 0.5],
      ["ISTHE", 0.5],
    ]);
    expect(correctLettering(same, lexicon)).toBe(same);
  });
});
