// Builds the engine's tesseract WebAssembly modules from pinned sources (`npm run build:tesseract`).
//
// Sources: Debian bookworm's source packages of tesseract 5.3.0 and leptonica 1.82.0 (the versions
// of the native `tesseract` the benchmarks compare against), fetched with apt into a private apt
// state (no change to the machine's apt configuration) and checked against the hashes below,
// with the changes of PATCHES below (faster code with the same values; native tesseract's random padding).
// Toolchain: Debian's clang-19 + lld-19 for wasm32-wasi with Debian's wasi-libc and libc++
// (`apt-get install clang-19 lld-19 wasi-libc libc++-19-dev-wasm32 libclang-rt-19-dev-wasm32`).
//
// Output (committed; `--check` rebuilds and compares byte for byte):
//   workers/engine/ocr/wasm/tesseract-relaxed.wasm  int8 LSTM products on relaxed SIMD
//   workers/engine/ocr/wasm/tesseract-simd.wasm     the same on plain SIMD128 (fallback)
// Both are one link of the same objects; only the int8 kernel (ocr/wasm/src/int-matrix.cpp)
// is compiled twice.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const WASM_DIR = path.join(root, "workers/engine/ocr/wasm");
const OWN_SRC = path.join(WASM_DIR, "src");
// TESSERACT_BUILD_DIR: another build tree (a clean rebuild beside the cached one). Paths inside it
// are mapped away (-ffile-prefix-map), so the modules do not depend on where it is.
const WORK = process.env.TESSERACT_BUILD_DIR ? path.resolve(process.env.TESSERACT_BUILD_DIR) : path.join(root, ".build/tesseract-wasm");

/** Pinned source archives (Debian bookworm main). */
export const SOURCES = {
  tesseract: {
    pkg: "tesseract",
    version: "5.3.0-2",
    file: "tesseract_5.3.0.orig.tar.gz",
    dir: "tesseract-5.3.0",
    sha256: "7e70870f8341e5ea228af2836ce79a36eefa11b01b56177b4a8997f330c014b8",
  },
  leptonica: {
    pkg: "leptonlib",
    version: "1.82.0-3",
    file: "leptonlib_1.82.0.orig.tar.gz",
    dir: "leptonica-1.82.0",
    sha256: "155302ee914668c27b6fe3ca9ff2da63b245f6d62f3061c8f27563774b8ae2d6",
  },
};
export const CLANG = "clang-19";

/**
 * Changes to the pinned sources: each replaces a region of a file (from the line `from` up to the
 * line `to`), whose original text is pinned by its SHA-256, with a file of ocr/wasm/src/patches/.
 */
const PATCHES = [
  {
    // Tanh and Logistic call themselves for negative inputs, so clang keeps them out of line:
    // a call per gate value, a fifth of the reading's time. The patch computes the same values
    // without recursion.
    file: path.join(SOURCES.tesseract.dir, "src/lstm/functions.h"),
    from: "// Non-linearity (sigmoid) functions with cache tables and clipping.\n",
    to: "// Non-linearity (sigmoid) functions and their derivatives.\n",
    sha256: "017ccd964117b5228c65b46f46b8209b0bbe87494ef0037f729c82e9fde638f3",
    with: "functions-sigmoid.h",
  },
  {
    // The random engine that pads line images at their edges: the same numbers as native
    // tesseract's on 64-bit machines (on wasm32, std::minstd_rand truncates its seed).
    file: path.join(SOURCES.tesseract.dir, "src/ccutil/helpers.h"),
    from: "  std::minstd_rand e;\n",
    to: "};\n\n// Remove newline (if any) at the end of the string.\n",
    sha256: "de066fc50e17fe0c760161b85a28b90336fba0e067bffdfd1bb564ccfb2ae733",
    with: "trand-engine.h",
  },
];

// The optimisation level and defines of Debian's native build (configure: -O2 -DNDEBUG, float LSTM).
// No fast-math and no FMA contraction: the float arithmetic is IEEE as native's. Bulk memory:
// memcpy and memset as single instructions (memory.copy, memory.fill).
const COMMON = [
  "--target=wasm32-wasi",
  "-O2",
  "-DNDEBUG",
  "-msimd128",
  "-mbulk-memory",
  "-ffp-contract=off",
  "-fno-exceptions",
  "-ffile-prefix-map=" + WORK + "=.",
  "-ffile-prefix-map=" + root + "=.",
];
// Only the wasm32-wasi sysroot's headers (Debian's clang also searches the host's /usr/include).
const SYSTEM_C = ["-nostdinc", "-isystem", "/usr/lib/llvm-19/lib/clang/19/include", "-isystem", "/usr/include/wasm32-wasi"];
const SYSTEM_CXX = ["-nostdinc", "-isystem", "/usr/include/wasm32-wasi/c++/v1", ...SYSTEM_C.slice(1)];
const CFLAGS = [...COMMON, ...SYSTEM_C, "-std=gnu11", "-DHAVE_CONFIG_H", "-Wno-everything"];
const CXXFLAGS = [
  ...COMMON,
  ...SYSTEM_CXX,
  "-std=c++17",
  "-fno-rtti",
  "-DFAST_FLOAT",
  "-DDISABLED_LEGACY_ENGINE",
  "-DGRAPHICS_DISABLED",
  "-DTESSERACT_IMAGEDATA_AS_PIX",
  "-D_LIBCPP_HARDENING_MODE=_LIBCPP_HARDENING_MODE_NONE",
  "-Wno-everything",
];

// tesseract's CMakeLists.txt TESSERACT_SRC_LEGACY: left out with DISABLED_LEGACY_ENGINE.
const LEGACY = new Set(
  `ccmain/adaptions ccmain/docqual ccmain/equationdetect ccmain/fixspace ccmain/fixxht ccmain/osdetect
  ccmain/par_control ccmain/recogtraining ccmain/superscript ccmain/tessbox ccmain/tfacepp ccstruct/fontinfo
  ccstruct/params_training_featdef ccutil/ambigs ccutil/bitvector ccutil/indexmapbidi classify/adaptive
  classify/adaptmatch classify/blobclass classify/cluster classify/clusttool classify/cutoffs classify/featdefs
  classify/float2int classify/fpoint classify/intfeaturespace classify/intfx classify/intmatcher classify/intproto
  classify/kdtree classify/mf classify/mfoutline classify/mfx classify/normfeat classify/normmatch
  classify/ocrfeatures classify/outfeat classify/picofeat classify/protos classify/shapeclassifier
  classify/shapetable classify/tessclassifier classify/trainingsample dict/permdawg dict/hyphen wordrec/associate
  wordrec/chop wordrec/chopper wordrec/drawfx wordrec/findseam wordrec/gradechop wordrec/language_model
  wordrec/lm_consistency wordrec/lm_pain_points wordrec/lm_state wordrec/outlines wordrec/params_model
  wordrec/pieces wordrec/plotedges wordrec/render wordrec/segsearch wordrec/wordclass
  viewer/scrollview viewer/svutil`.split(/\s+/),
);
// (The last two are ScrollView's debugging window over a socket: nothing of them is used with
// GRAPHICS_DISABLED, and wasi has no sockets or semaphores.)
const TESS_DIRS = ["ccmain", "ccstruct", "ccutil", "classify", "cutil", "dict", "lstm", "textord", "viewer", "wordrec"];
const TESS_EXTRA = ["api/baseapi", "api/hocrrenderer", "api/renderer", "arch/dotproduct", "arch/simddetect", "arch/intsimdmatrix"];

const newest = (files) => Math.max(...files.map((f) => statSync(f).mtimeMs));

function sha256(file) {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: "utf8", ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed:\n${r.stdout ?? ""}\n${r.stderr ?? ""}`);
  return r.stdout;
}

/** Downloads the pinned source packages with apt (deb-src in a private apt state) and unpacks them. */
function fetchSources() {
  const dl = path.join(WORK, "downloads");
  const apt = path.join(WORK, "apt");
  mkdirSync(path.join(apt, "lists/partial"), { recursive: true });
  mkdirSync(path.join(apt, "cache/archives/partial"), { recursive: true });
  mkdirSync(dl, { recursive: true });
  const missing = Object.values(SOURCES).filter((s) => !existsSync(path.join(dl, s.file)) || sha256(path.join(dl, s.file)) !== s.sha256);
  if (missing.length) {
    writeFileSync(
      path.join(apt, "sources.list"),
      "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main\n",
    );
    const o = [
      `-o`,
      `Dir::Etc::SourceList=${path.join(apt, "sources.list")}`,
      `-o`,
      `Dir::Etc::SourceParts=${path.join(apt, "none")}`,
      `-o`,
      `Dir::State::Lists=${path.join(apt, "lists")}`,
      `-o`,
      `Dir::Cache=${path.join(apt, "cache")}`,
      `-o`,
      `APT::Sandbox::User=root`,
    ];
    run("apt-get", [...o, "-qq", "update"]);
    run("apt-get", [...o, "-qq", "source", "--download-only", ...missing.map((s) => `${s.pkg}=${s.version}`)], { cwd: dl });
  }
  for (const s of Object.values(SOURCES)) {
    const file = path.join(dl, s.file);
    const got = sha256(file);
    if (got !== s.sha256) throw new Error(`${s.file}: sha256 ${got}, pinned ${s.sha256}`);
    if (!existsSync(path.join(WORK, s.dir))) run("tar", ["xzf", file, "-C", WORK]);
  }
}

/** Applies PATCHES to the unpacked sources (once: a region already patched is left as it is). */
function applyPatches() {
  for (const p of PATCHES) {
    const file = path.join(WORK, p.file);
    const text = readFileSync(file, "utf8");
    const replacement = readFileSync(path.join(OWN_SRC, "patches", p.with), "utf8");
    // Patched already (the build tree is kept between builds).
    if (text.includes(replacement)) continue;
    const a = text.indexOf(p.from);
    const b = text.indexOf(p.to, a);
    if (a < 0 || b < 0) throw new Error(`${p.file}: the region to patch is not there`);
    const region = text.slice(a, b);
    const got = createHash("sha256").update(region).digest("hex");
    if (got !== p.sha256) throw new Error(`${p.file}: the region to patch has sha256 ${got}, pinned ${p.sha256}; delete ${WORK}`);
    writeFileSync(file, text.slice(0, a) + replacement + text.slice(b));
  }
}

/** Debian packages of the toolchain (bookworm main) and the versions the committed modules were built with. */
export const TOOLCHAIN = {
  "clang-19": "1:19.1.7-3~deb12u1",
  "lld-19": "1:19.1.7-3~deb12u1",
  "wasi-libc": "0.0~git20220510.9886d3d-2",
  "libc++-19-dev-wasm32": "1:19.1.7-3~deb12u1",
  "libc++abi-19-dev-wasm32": "1:19.1.7-3~deb12u1",
  "libclang-rt-19-dev-wasm32": "1:19.1.7-3~deb12u1",
};

/** The toolchain, installed with apt when missing and run as root (as CI is). */
function checkToolchain() {
  let r = spawnSync(CLANG, ["--version"], { encoding: "utf8" });
  if (r.status !== 0 && process.getuid?.() === 0) {
    const pkgs = Object.entries(TOOLCHAIN).map(([p, v]) => `${p}=${v}`);
    run("apt-get", ["install", "-y", "-qq", ...pkgs], { env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
    r = spawnSync(CLANG, ["--version"], { encoding: "utf8" });
  }
  if (r.status !== 0) throw new Error(`${CLANG} not found: apt-get install ${Object.keys(TOOLCHAIN).join(" ")}`);
  const installed = spawnSync("dpkg-query", ["-W", "-f", "${Package} ${Version}\\n", ...Object.keys(TOOLCHAIN)], {
    encoding: "utf8",
  }).stdout;
  for (const [p, v] of Object.entries(TOOLCHAIN)) {
    if (!installed.includes(`${p} ${v}\n`)) console.warn(`warning: ${p} is not ${v} (the pinned version); the modules may differ`);
  }
}

/** Runs compile jobs, `jobs` at a time; skips objects newer than their inputs' recorded command. */
async function compileAll(units, jobs) {
  let next = 0;
  const failed = [];
  async function worker() {
    while (next < units.length) {
      const u = units[next++];
      const stamp = u.obj + ".cmd";
      const cmdline = JSON.stringify(u.args);
      if (existsSync(u.obj) && existsSync(stamp) && readFileSync(stamp, "utf8") === cmdline && statSync(u.obj).mtimeMs >= newest(u.inputs))
        continue;
      mkdirSync(path.dirname(u.obj), { recursive: true });
      const code = await new Promise((resolve) => {
        const p = spawn(u.cc, u.args, { stdio: ["ignore", "inherit", "pipe"] });
        let err = "";
        p.stderr.on("data", (d) => (err += d));
        p.on("close", (c) => {
          if (c !== 0) failed.push(`${u.src}:\n${err}`);
          resolve(c);
        });
      });
      if (code === 0) writeFileSync(stamp, cmdline);
    }
  }
  await Promise.all(Array.from({ length: jobs }, worker));
  if (failed.length) throw new Error(`compile failed (${failed.length} files):\n${failed.join("\n")}`);
}

function listTesseract(tess) {
  const out = [];
  for (const d of TESS_DIRS) {
    for (const f of readdirSync(path.join(tess, "src", d)).sort()) {
      if (!f.endsWith(".cpp")) continue;
      const rel = `${d}/${f.slice(0, -4)}`;
      if (!LEGACY.has(rel)) out.push(rel);
    }
  }
  return [...out, ...TESS_EXTRA];
}

export async function build({ jobs = 2 } = {}) {
  checkToolchain();
  mkdirSync(WORK, { recursive: true });
  fetchSources();
  applyPatches();
  const patched = PATCHES.map((p) => path.join(WORK, p.file));
  const lept = path.join(WORK, SOURCES.leptonica.dir);
  const tess = path.join(WORK, SOURCES.tesseract.dir);
  const gen = path.join(WORK, "include");
  mkdirSync(path.join(gen, "tesseract"), { recursive: true });
  // Leptonica without image codecs (pages arrive as raw pixels); config_auto.h says so.
  copyFileSync(path.join(OWN_SRC, "leptonica-config.h"), path.join(gen, "config_auto.h"));
  // WebAssembly is little-endian.
  const endianIn = readFileSync(path.join(lept, "src/endianness.h.in"), "utf8");
  writeFileSync(
    path.join(gen, "endianness.h"),
    endianIn.replace("@APPLE_UNIVERSAL_BUILD@", "0").replace("@ENDIANNESS@", "L_LITTLE_ENDIAN"),
  );
  const versionIn = readFileSync(path.join(tess, "include/tesseract/version.h.in"), "utf8");
  writeFileSync(
    path.join(gen, "tesseract/version.h"),
    versionIn
      .replace("@GENERIC_MAJOR_VERSION@", "5")
      .replace("@GENERIC_MINOR_VERSION@", "3")
      .replace("@GENERIC_MICRO_VERSION@", "0")
      .replace("@PACKAGE_VERSION@", "5.3.0"),
  );
  const obj = path.join(WORK, "obj");
  const units = [];
  for (const f of readdirSync(path.join(lept, "src")).sort()) {
    if (!f.endsWith(".c")) continue;
    units.push({
      cc: CLANG,
      src: `leptonica/${f}`,
      inputs: [path.join(lept, "src", f)],
      obj: path.join(obj, "lept", f + ".o"),
      args: [...CFLAGS, `-I${gen}`, `-I${lept}/src`, "-c", path.join(lept, "src", f), "-o", path.join(obj, "lept", f + ".o")],
    });
  }
  const tessIncludes = [
    `-I${gen}`,
    `-I${lept}/src`,
    `-I${tess}/include`,
    ...["api", "arch", "ccmain", "ccstruct", "ccutil", "classify", "cutil", "dict", "lstm", "textord", "viewer", "wordrec"].map(
      (d) => `-I${tess}/src/${d}`,
    ),
    `-I${path.join(OWN_SRC, "stubs")}`,
    `-include`,
    path.join(OWN_SRC, "wasi-compat.h"),
  ];
  for (const rel of listTesseract(tess)) {
    const o = path.join(obj, "tess", rel + ".o");
    units.push({
      cc: "clang++-19",
      src: rel,
      inputs: [path.join(tess, "src", rel + ".cpp"), ...patched],
      obj: o,
      args: [...CXXFLAGS, ...tessIncludes, "-c", path.join(tess, "src", rel + ".cpp"), "-o", o],
    });
  }
  // The module's own sources: C++ (the binding, the int8 kernels) against tesseract's headers, C alone.
  const own = (name, extra = []) => {
    const cpp = name.endsWith(".cpp");
    const o = path.join(obj, "own", name.replace(/\.c(pp)?$/, "") + (extra.length ? "-relaxed" : "") + ".o");
    const src = path.join(OWN_SRC, name);
    units.push({
      cc: cpp ? "clang++-19" : CLANG,
      src: name,
      inputs: cpp ? [src, path.join(OWN_SRC, "wasi-compat.h")] : [src],
      obj: o,
      args: [...(cpp ? [...CXXFLAGS, ...extra, ...tessIncludes] : CFLAGS), "-c", src, "-o", o],
    });
    return o;
  };
  const binding = own("ocr-lib.cpp");
  const kernelSimd = own("int-matrix.cpp");
  const kernelRelaxed = own("int-matrix.cpp", ["-mrelaxed-simd"]);
  const stubsObj = own("wasi-stubs.c");
  const qsortObj = own("stable-qsort.c");
  await compileAll(units, jobs);

  const common = units
    .filter((u) => u.obj.includes(`${path.sep}lept${path.sep}`) || u.obj.includes(`${path.sep}tess${path.sep}`))
    .map((u) => u.obj);
  const outputs = { "tesseract-simd.wasm": kernelSimd, "tesseract-relaxed.wasm": kernelRelaxed };
  const built = {};
  for (const [name, kernel] of Object.entries(outputs)) {
    const out = path.join(WORK, name);
    run("clang++-19", [
      "--target=wasm32-wasi",
      "-O2",
      "-mbulk-memory",
      "-mexec-model=reactor",
      "-fuse-ld=lld",
      "-Wl,--strip-all",
      "-Wl,--gc-sections",
      "-Wl,-z,stack-size=2097152",
      "-Wl,--initial-memory=16777216",
      "-Wl,--max-memory=4294967296",
      "-o",
      out,
      binding,
      kernel,
      stubsObj,
      qsortObj,
      ...common,
      "-lwasi-emulated-mman",
      "-lwasi-emulated-process-clocks",
      "-lwasi-emulated-signal",
      "-lwasi-emulated-getpid",
    ]);
    built[name] = out;
  }
  return built;
}

/** Licence texts of what the modules contain, kept beside them. */
function copyLicences() {
  const dir = path.join(WASM_DIR, "LICENSES");
  mkdirSync(dir, { recursive: true });
  copyFileSync(path.join(WORK, SOURCES.tesseract.dir, "LICENSE"), path.join(dir, "tesseract-LICENSE.txt"));
  copyFileSync(path.join(WORK, SOURCES.leptonica.dir, "leptonica-license.txt"), path.join(dir, "leptonica-license.txt"));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const check = process.argv.includes("--check");
  const t0 = Date.now();
  const built = await build({ jobs: Number(process.env.JOBS ?? 2) });
  let bad = 0;
  for (const [name, file] of Object.entries(built)) {
    const dest = path.join(WASM_DIR, name);
    const hash = sha256(file);
    if (check) {
      const committed = existsSync(dest) ? sha256(dest) : "(missing)";
      const same = committed === hash;
      if (!same) bad++;
      console.log(`${same ? "ok  " : "DIFF"} ${name}: built ${hash}, committed ${committed}`);
    } else {
      copyFileSync(file, dest);
      console.log(`${name}: ${readFileSync(file).length} bytes, sha256 ${hash}`);
    }
  }
  if (!check) copyLicences();
  console.log(`tesseract wasm build: ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  if (bad) {
    console.error(
      "The committed tesseract modules differ from what the pinned sources build: run `npm run build:tesseract` and commit them.",
    );
    process.exit(1);
  }
}
