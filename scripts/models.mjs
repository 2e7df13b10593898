// The model and font files the service needs, taken from npm packages, and their keys in R2 MODELS.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const nm = (p) => path.join(root, "node_modules", p);

/** OCR languages seeded by default: LSTM best_int models (what tesseract-wasm runs). */
export const OCR_LANGUAGES = ["eng", "fra", "deu", "spa", "ita", "por", "jpn", "chi_sim"];

/** Every file to seed: { key, file }. Keys are the engine's contract (workers/engine/models). */
export function modelFiles() {
  const files = OCR_LANGUAGES.map((lang) => ({
    key: `tessdata/${lang}.traineddata.gz`,
    file: nm(`@tesseract.js-data/${lang}/4.0.0_best_int/${lang}.traineddata.gz`),
  }));
  for (const f of ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSansMono.ttf"]) {
    files.push({ key: `fonts/${f}`, file: nm(`dejavu-fonts-ttf/ttf/${f}`) });
  }
  files.push({ key: "fonts/NotoSansSC-Regular.ttf", file: nm("@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf") });
  return files.filter((f) => existsSync(f.file));
}

export { root };
