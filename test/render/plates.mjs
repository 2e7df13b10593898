// Clean-plate scenes (shared by the tests' global setup and the rendering benchmark): text in
// several fonts, sizes and colours over backgrounds of every kind, with the true background
// rendered alongside. Photographs come from the caller (the benchmark crops real ones); the tests
// use a generated photo-like texture.

const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export const FAMILIES = ["DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono"];

/** The page of the text-removal report: flat beige above, a horizontal blue gradient below. */
export const SPLIT_PAGE = {
  width: 1400,
  height: 760,
  background: `<rect width="1400" height="380" fill="#efe5cf"/><defs><linearGradient id="b" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#0b3d91"/><stop offset="1" stop-color="#7fb8f0"/></linearGradient></defs><rect y="380" width="1400" height="380" fill="url(#b)"/>`,
  lines: [
    { text: "Fresh bread and pastries every morning", x: 100, y: 150, size: 54, color: "#2a1d10" },
    { text: "Open daily from seven until late", x: 100, y: 260, size: 54, color: "#2a1d10" },
    { text: "Summer sale on every pair of shoes", x: 100, y: 530, size: 54, color: "#ffffff" },
    { text: "Prices cut by half this week only", x: 100, y: 640, size: 54, color: "#ffffff" },
  ],
};

/** A line of text above a block of fine dark bars (a barcode-like pattern no fill can rebuild from its surroundings). */
export const HATCH_PAGE = {
  width: 900,
  height: 400,
  background: `<rect width="900" height="400" fill="#ffffff"/><defs><pattern id="h" width="7" height="10" patternUnits="userSpaceOnUse"><rect width="3" height="10" fill="#111111"/></pattern></defs><rect x="420" y="210" width="350" height="140" fill="url(#h)"/>`,
  lines: [{ text: "Scan the code below", x: 80, y: 110, size: 48, color: "#111111" }],
  /** Where the bars are. */
  bars: { x: 420, y: 210, w: 350, h: 140 },
};

/**
 * Background SVG fragments by kind, for a w×h page (`seed` varies the texture). `two-tone` is two
 * colours side by side (both lighter than the text: the layout analysis finds dark text on light
 * backgrounds): its lines run across the boundary. Light text on dark backgrounds is on the
 * report's page (SPLIT_PAGE) and on the benchmark's photographs.
 */
export const BACKGROUNDS = {
  flat: (w, h) => `<rect width="${w}" height="${h}" fill="#efe5cf"/>`,
  gradient: (w, h, seed) =>
    `<defs><linearGradient id="g" x1="0" y1="0" x2="${seed % 2}" y2="${(seed + 1) % 2 || 0.4}"><stop offset="0" stop-color="${["#8ec5fc", "#f7b2a8"][seed % 2]}"/><stop offset="1" stop-color="#fdf6e3"/></linearGradient></defs><rect width="${w}" height="${h}" fill="url(#g)"/>`,
  paper: (w, h, seed) =>
    `<defs><filter id="n" x="0" y="0" width="1" height="1"><feTurbulence type="fractalNoise" baseFrequency="0.75" numOctaves="3" seed="${seed}"/><feColorMatrix type="saturate" values="0"/></filter><filter id="f" x="0" y="0" width="1" height="1"><feTurbulence type="fractalNoise" baseFrequency="0.004 0.05" numOctaves="2" seed="${seed + 50}"/><feColorMatrix type="saturate" values="0"/></filter></defs><rect width="${w}" height="${h}" fill="#eadfc6"/><rect width="${w}" height="${h}" filter="url(#f)" opacity="0.18"/><rect width="${w}" height="${h}" filter="url(#n)" opacity="0.16"/>`,
  "two-tone": (w, h, seed) =>
    `<rect width="${w}" height="${h}" fill="#f2f2ee"/><rect x="${Math.round(w * (0.45 + 0.05 * (seed % 3)))}" width="${w}" height="${h}" fill="${["#9fc3e6", "#e6b89f", "#a8d5a2"][seed % 3]}"/>`,
  photo: (w, h, seed) =>
    `<defs><filter id="p" x="0" y="0" width="1" height="1"><feTurbulence type="fractalNoise" baseFrequency="0.008 0.012" numOctaves="4" seed="${seed}"/><feColorMatrix type="matrix" values="1.1 0 0 0 -0.05  0 0.9 0.2 0 0  0 0.3 0.8 0 0.05  0 0 0 0 1"/></filter><filter id="q" x="0" y="0" width="1" height="1"><feTurbulence type="fractalNoise" baseFrequency="0.35" numOctaves="2" seed="${seed + 9}"/></filter></defs><rect width="${w}" height="${h}" filter="url(#p)"/><rect width="${w}" height="${h}" filter="url(#q)" opacity="0.12"/>`,
};

/**
 * Three lines of text over a sky above tall grass (thin, high-contrast blades, some through the
 * last line): on a picture like this layout analysis returns the whole picture as one "line".
 */
export const GRASS_PAGE = (() => {
  const width = 900,
    height = 400;
  let blades = "";
  for (let k = 0; k < 90; k++) {
    const x = ((k * 53) % 980) - 40,
      h = 150 + ((k * 37) % 120);
    blades += `<path d="M${x} ${height} Q ${x + 20} ${height - h / 2} ${x + 40 + (k % 7) * 6} ${height - h}" stroke="${["#c8a040", "#6b8e23", "#f0d080", "#3d5a1a"][k % 4]}" stroke-width="${2 + (k % 3)}" fill="none"/>`;
  }
  return {
    width,
    height,
    background: `${BACKGROUNDS.photo(width, height, 3)}<rect width="${width}" height="${height * 0.45}" fill="#8fb8e0" opacity="0.55"/>${blades}`,
    lines: [
      { text: "Orders for birthdays are welcome", x: 54, y: 70, size: 30, color: "#111111", family: "DejaVu Sans Mono" },
      { text: "Closed on public holidays", x: 54, y: 130, size: 44, color: "#111111" },
      { text: "Ask about our gluten free loaves", x: 54, y: 190, size: 38, color: "#111111", family: "DejaVu Serif" },
    ],
  };
})();

/** Text colours that read on each kind (two-tone: ones that stand out from both halves). */
const COLOURS = {
  flat: ["#1a2b4c", "#7a1010", "#111111"],
  gradient: ["#111111", "#0b2545", "#5a0f2e"],
  paper: ["#14213d", "#3b2a1a", "#7a1010"],
  "two-tone": ["#14213d", "#7a1010", "#0b3d2b"],
  photo: ["#111111", "#0d3b66", "#5a0f2e"],
};

const SENTENCES = [
  "Fresh bread and pastries every morning",
  "Local flour, butter and seasonal fruit",
  "Orders for birthdays are welcome",
  "Closed on public holidays",
  "Ask about our gluten free loaves",
  "Coffee is served until six",
];

/**
 * Scene `i` of a kind on a w×h page: three lines in three families, sizes and weights over the
 * background (`background` overrides the kind's own fragment, e.g. a cropped photograph).
 * Returns the SVG with text, the SVG of the background alone, and the lines drawn.
 */
export function plateScene(kind, i, w, h, background) {
  const bg = background ?? BACKGROUNDS[kind](w, h, i);
  const colours = COLOURS[kind];
  const sizes = [52, 40, 30];
  const lines = [];
  let y = Math.round(h * 0.12);
  for (let k = 0; k < 3; k++) {
    const size = sizes[(k + i) % sizes.length];
    y += Math.round(size * 1.25);
    lines.push({
      text: SENTENCES[(i + k) % SENTENCES.length],
      x: Math.round(w * 0.06),
      y,
      size,
      color: colours[(i + k) % colours.length],
      family: FAMILIES[(i + k) % FAMILIES.length],
      bold: (i + k) % 4 === 1,
    });
    y += Math.round(size * 0.9);
  }
  return { page: svgPage(w, h, bg, lines), background: svgPage(w, h, bg, []), lines };
}

/** An SVG page: the background fragment and the lines (family, size, weight and colour each). */
export function svgPage(w, h, bg, lines) {
  const text = lines
    .map(
      (l) =>
        `<text x="${l.x}" y="${l.y}" font-family="${l.family ?? "DejaVu Sans"}" font-size="${l.size}" font-weight="${l.bold ? "bold" : "normal"}" fill="${l.color}">${esc(l.text)}</text>`,
    )
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${bg}${text}</svg>`;
}

/**
 * Three lines of yellow text on a real photograph (JPEG bytes, 1400×760), as the render benchmark
 * draws them (light text where the band under a line is darker than mid-grey), scene `i` of the
 * photographs. Scene 7 on test/fixtures/real/mate_raindrops-crop.jpg (a light green leaf in grass
 * with drops of rain): the text stands out in hue more than in lightness, layout analysis returns
 * the whole picture as one "line", and a reading of the whole picture finds no word in it. Scene 3
 * on test/fixtures/real/mate_freshflower-crop.jpg (an orange flower with yellow-lit petals): the
 * petals' texture sets the ink threshold above much of the glyphs' own contrast.
 */
export function photoScene(jpeg, i = 7) {
  const bg = `<image width="1400" height="760" href="data:image/jpeg;base64,${Buffer.from(jpeg).toString("base64")}"/>`;
  const s = plateScene("photo", i, 1400, 760, bg);
  const lines = s.lines.map((l) => ({ ...l, color: "#ffd23f" }));
  return { page: svgPage(1400, 760, bg, lines), background: s.background, lines };
}
