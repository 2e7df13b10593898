// Seeds R2 MODELS with OCR models and fonts from npm packages.
//   npm run seed:models             local (Miniflare state in .wrangler/state, shared by both Workers in dev)
//   npm run seed:models -- --remote the bucket on Cloudflare
import { existsSync, readFileSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { modelFiles, root } from "./models.mjs";
import { wrangler } from "./wrangler.mjs";

const BUCKET = "lingoscan-models";

export function seedModels({ remote = false } = {}) {
  const files = modelFiles();
  const marker = path.join(root, ".wrangler/state/models-seeded.json");
  const signature = JSON.stringify(files.map((f) => [f.key, statSync(f.file).size]));
  if (!remote && existsSync(marker) && readFileSync(marker, "utf8") === signature) {
    console.log(`models: ${files.length} files already seeded`);
    return;
  }
  for (const { key, file } of files) {
    const type = key.endsWith(".ttf") ? "font/ttf" : "application/gzip";
    wrangler(["r2", "object", "put", `${BUCKET}/${key}`, "--file", file, "--content-type", type, remote ? "--remote" : "--local", "-c", "wrangler.toml"]);
    console.log(`models: ${key} (${statSync(file).size} bytes)`);
  }
  if (!remote) {
    mkdirSync(path.dirname(marker), { recursive: true });
    writeFileSync(marker, signature);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) seedModels({ remote: process.argv.includes("--remote") });
