#!/usr/bin/env node
// Checks the links of README.md and every page under docs/: a relative link must name a file or
// folder that exists, and its #anchor a heading of that page (GitHub's heading ids). Links to
// other sites are not fetched. Exits 1 and lists each broken link; the test command runs it.
//   node scripts/check-links.mjs [files…]     (default: README.md and docs/**/*.md)
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** GitHub's id for a heading: lower case, punctuation dropped, spaces to dashes (github-slugger). */
export function slug(heading) {
  return heading
    .replace(/<[^>]+>/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** A Markdown file without its fenced code blocks. */
function withoutFences(text) {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
}

/** The text of a Markdown file without code blocks and code spans (links there are not links). */
function prose(text) {
  return withoutFences(text).replace(/`[^`\n]*`/g, "");
}

/** The heading ids of a Markdown file, with GitHub's -1, -2 … for repeated ones. */
export function anchors(text) {
  const ids = new Set();
  const seen = new Map();
  for (const m of withoutFences(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(m[1].replace(/`/g, ""));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.add(n ? `${base}-${n}` : base);
  }
  for (const m of text.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) ids.add(m[1]);
  return ids;
}

/** The links of a Markdown file: inline links and images, and reference definitions. */
export function links(text) {
  const out = [];
  const body = prose(text);
  for (const m of body.matchAll(/!?\[(?:[^\]\n]|\][^(\n])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push(m[1]);
  for (const m of body.matchAll(/^\s*\[[^\]\n]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)) out.push(m[1]);
  for (const m of body.matchAll(/<(?:img|a)\s[^>]*(?:src|href)="([^"]+)"/g)) out.push(m[1]);
  return out;
}

/** Broken links of one file: `{ file, link, why }`. */
export function brokenLinks(file) {
  const text = readFileSync(file, "utf8");
  const out = [];
  for (const link of links(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto: …
    const [target, anchor] = link.split("#", 2);
    const resolved = target ? path.resolve(path.dirname(file), decodeURIComponent(target)) : file;
    if (!resolved.startsWith(root)) {
      out.push({ file, link, why: "points outside the repository" });
      continue;
    }
    if (!existsSync(resolved)) {
      out.push({ file, link, why: "no such file" });
      continue;
    }
    if (anchor === undefined || statSync(resolved).isDirectory()) continue;
    if (!resolved.endsWith(".md")) continue;
    if (!anchors(readFileSync(resolved, "utf8")).has(anchor)) out.push({ file, link, why: `no heading #${anchor}` });
  }
  return out;
}

function markdownUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? markdownUnder(p) : e.name.endsWith(".md") ? [p] : [];
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const files = args.length ? args.map((f) => path.resolve(f)) : [path.join(root, "README.md"), ...markdownUnder(path.join(root, "docs"))];
  const broken = files.flatMap(brokenLinks);
  for (const b of broken) console.log(`broken   ${path.relative(root, b.file)}: ${b.link}  (${b.why})`);
  console.log(`${broken.length} broken links in ${files.length} files`);
  process.exit(broken.length ? 1 : 0);
}
