// Text-removal test scenes (shared by the tests' global setup and the rendering benchmark): known
// text, drawn in a known colour and weight, on flat, gradient and textured backgrounds.

const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export const WIDTH = 1100;
export const HEIGHT = 380;

/** Background SVG fragments by scene name. */
export const BACKGROUNDS = {
  flat: `<rect width="${WIDTH}" height="${HEIGHT}" fill="#f3ecd9"/>`,
  gradient: `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#8ec5fc"/><stop offset="1" stop-color="#fdf6e3"/></linearGradient></defs><rect width="${WIDTH}" height="${HEIGHT}" fill="url(#g)"/>`,
  textured: `<defs><filter id="n" x="0" y="0" width="1" height="1"><feTurbulence type="fractalNoise" baseFrequency="0.9" numOctaves="2" seed="7"/><feColorMatrix type="saturate" values="0"/></filter><pattern id="s" width="14" height="14" patternUnits="userSpaceOnUse" patternTransform="rotate(35)"><rect width="14" height="14" fill="#e9dcc0"/><rect width="5" height="14" fill="#dccb9f"/></pattern></defs><rect width="${WIDTH}" height="${HEIGHT}" fill="url(#s)"/><rect width="${WIDTH}" height="${HEIGHT}" filter="url(#n)" opacity="0.22"/>`,
  bold: `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
};

/** Text of each scene, its colour and weight. */
export const TEXT = {
  flat: { lines: ["Fresh bread every morning", "Open daily from seven"], color: "#1a2b4c", weight: "normal" },
  gradient: { lines: ["Summer sale on all shoes", "Prices cut by half today"], color: "#7a1010", weight: "normal" },
  textured: { lines: ["Handmade pottery and gifts", "Visit our studio this week"], color: "#14213d", weight: "normal" },
  bold: { lines: ["Grand opening tonight", "Music and free drinks"], color: "#000000", weight: "bold" },
};

/** @param {keyof typeof BACKGROUNDS} name */
export function renderScene(name) {
  const t = TEXT[name];
  const text = t.lines
    .map(
      (l, i) =>
        `<text x="90" y="${140 + i * 90}" font-family="DejaVu Sans" font-size="52" font-weight="${t.weight}" fill="${t.color}">${esc(l)}</text>`,
    )
    .join("");
  const svg = (body) => `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">${BACKGROUNDS[name]}${body}</svg>`;
  return { page: svg(text), background: svg("") };
}
