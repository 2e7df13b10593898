// Seeds R2 MODELS with OCR models and fonts from npm packages.
//   npm run seed:models               local (Miniflare state in .wrangler/state, shared by both Workers in dev):
//                                     the DEV_OCR_LANGUAGES of models.mjs; OCR_MODELS=all seeds every model,
//                                     OCR_MODELS=eng,ara a list
//   npm run seed:models -- --remote   the bucket on Cloudflare: every model
import { existsSync, readFileSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { getPlatformProxy } from "wrangler";
import { debianPackage, modelFiles, root, seedLanguages } from "./models.mjs";
import { wrangler } from "./wrangler.mjs";

const BUCKET = "lingoscan-models";
const contentType = (key) => (key.endsWith(".ttf") ? "font/ttf" : key.endsWith(".txt") ? "text/plain; charset=utf-8" : "application/gzip");

/** Local seeding: one Miniflare proxy for all files; files already seeded with the same size are skipped. */
async function seedLocal(files) {
  const marker = path.join(root, ".wrangler/state/models-seeded.json");
  const seeded = existsSync(marker) ? JSON.parse(readFileSync(marker, "utf8")) : {};
  const todo = files.filter((f) => seeded[f.key] !== statSync(f.file).size);
  if (todo.length === 0) {
    console.log(`models: ${files.length} files already seeded`);
    return;
  }
  const { env, dispose } = await getPlatformProxy({ configPath: path.join(root, "wrangler.toml") });
  try {
    for (const { key, file } of todo) {
      await env.MODELS.put(key, readFileSync(file), { httpMetadata: { contentType: contentType(key) } });
      seeded[key] = statSync(file).size;
    }
  } finally {
    await dispose();
    mkdirSync(path.dirname(marker), { recursive: true });
    writeFileSync(marker, JSON.stringify(seeded));
  }
  console.log(`models: seeded ${todo.length} files (${files.length} in all)`);
}

/**
 * What to tell the developer about OCR languages left unseeded: which, and how to get them (the
 * models the npm registry does not publish come from Debian's tesseract-ocr-<code> packages).
 */
export function missingModelsNotice(missing) {
  return [
    `  Missing OCR models (not seeded; pages in these languages cannot be read): ${missing.join(", ")}`,
    `  Get them: sudo apt-get install ${missing.map(debianPackage).join(" ")}  (the defaults: sudo bash scripts/setup.sh),`,
    `  then restart npm run dev.`,
  ].join("\n");
}

/** Seeds the models and fonts; `missing`: the OCR languages asked for that have no model file here. */
export async function seedModels({ remote = false } = {}) {
  const languages = seedLanguages({ remote });
  const files = modelFiles(languages);
  const seeded = new Set(files.map((f) => f.key));
  const missing = languages.filter((code) => !seeded.has(`tessdata/${code}.traineddata.gz`));
  if (!remote) {
    await seedLocal(files);
    return { missing };
  }
  for (const { key, file } of files) {
    wrangler([
      "r2",
      "object",
      "put",
      `${BUCKET}/${key}`,
      "--file",
      file,
      "--content-type",
      contentType(key),
      "--remote",
      "-c",
      "wrangler.toml",
    ]);
    console.log(`models: ${key} (${statSync(file).size} bytes)`);
  }
  return { missing };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { missing } = await seedModels({ remote: process.argv.includes("--remote") });
  if (missing.length) console.warn(missingModelsNotice(missing));
}
