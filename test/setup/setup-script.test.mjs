// scripts/setup.sh and the commands that run it first (`npm test`, `npm run dev`), on a machine
// simulated through stand-ins on PATH: `dpkg-query` answers "not installed" for the packages in
// FAKE_ABSENT, `id -u` answers FAKE_UID, and `apt-get` only records its arguments.
//   node --test test/setup/setup-script.test.mjs   (run by `npm test`)
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const fake = mkdtempSync(path.join(tmpdir(), "lingoscan-setup-test-"));
after(() => rmSync(fake, { recursive: true, force: true }));

const bin = path.join(fake, "bin");
const aptLog = path.join(fake, "apt-get.log");
const script = (name, body) => {
  writeFileSync(path.join(bin, name), `#!/bin/sh\n${body}\n`);
  chmodSync(path.join(bin, name), 0o755);
};
spawnSync("mkdir", ["-p", bin]);
script("dpkg-query", 'for p; do :; done; case " $FAKE_ABSENT " in *" $p "*) exit 1;; esac; printf installed');
script("id", 'if [ "$1" = "-u" ]; then echo "$FAKE_UID"; else exec /usr/bin/id "$@"; fi');
script("apt-get", `echo "$*" >> ${aptLog}`);

/** Runs `args` in the repository on the simulated machine; { status, output, seconds }. */
function runAs(uid, absent, args) {
  rmSync(aptLog, { force: true });
  const started = Date.now();
  const r = spawnSync(args[0], args.slice(1), {
    cwd: root,
    encoding: "utf8",
    timeout: 60_000,
    env: {
      ...process.env,
      PATH: `${bin}:${process.env.PATH}`,
      HOME: fake,
      XDG_CACHE_HOME: path.join(fake, "cache"),
      POLICY_RC_D: path.join(fake, "policy-rc.d"),
      FAKE_UID: String(uid),
      FAKE_ABSENT: absent.join(" "),
      SUDO_USER: "",
    },
  });
  const apt = existsSync(aptLog) ? readFileSync(aptLog, "utf8").trim().split("\n") : [];
  return { status: r.status, output: `${r.stdout}${r.stderr}`, seconds: (Date.now() - started) / 1000, apt };
}

describe("a machine missing a Debian package, as a user who is not root", () => {
  for (const [command, args, laterStep] of [
    ["npm test", [process.execPath, "scripts/test.mjs"], "migrations match the schema"],
    ["npm run dev", ["npm", "run", "dev"], "applying D1 migrations"],
  ]) {
    it(`${command} stops at once, naming the missing package and the command that installs it`, () => {
      const r = runAs(1000, ["tesseract-ocr-kor-vert", "apertium-eng-spa"], args);
      assert.equal(r.status, 1, r.output);
      assert.match(r.output, /missing Debian packages: .*apertium-eng-spa.*tesseract-ocr-kor-vert/, r.output);
      assert.match(r.output, /sudo bash scripts\/setup\.sh/, r.output);
      assert.ok(!r.output.includes(laterStep), `went on to "${laterStep}":\n${r.output}`);
      assert.deepEqual(r.apt, [], "tried apt-get without root");
      assert.ok(r.seconds < 30, `took ${r.seconds} s`);
    });
  }
});

describe("scripts/setup.sh as root", () => {
  it("installs exactly the missing packages, Apertium's without its recommendations, and keeps services from starting meanwhile", () => {
    const r = runAs(0, ["apertium-eng-spa", "tesseract-ocr-chi-sim-vert", "poppler-utils"], ["bash", "scripts/setup.sh"]);
    assert.equal(r.status, 0, r.output);
    assert.deepEqual(r.apt, [
      "update -qq",
      "install -y -qq --no-install-recommends apertium-eng-spa",
      "install -y -qq poppler-utils tesseract-ocr-chi-sim-vert",
    ]);
    assert.ok(!existsSync(path.join(fake, "policy-rc.d")), "the policy-rc.d it placed is left behind");
  });

  it("with everything installed does nothing but check (no apt-get), and places the Chromium wrapper", () => {
    const r = runAs(0, [], ["bash", "scripts/setup.sh"]);
    assert.equal(r.status, 0, r.output);
    assert.deepEqual(r.apt, []);
    assert.match(r.output, /setup: all \d+ Debian packages installed/);
    assert.match(r.output, new RegExp(`chromium wrapper: ${path.join(fake, "cache")}/\\.wrangler/chrome/`));
  });
});

it("npm run dev names the OCR models it could not seed and the packages that provide them", async () => {
  const { missingModelsNotice } = await import("../../scripts/seed-models.mjs");
  const notice = missingModelsNotice(["chi_sim_vert", "kor_vert"]);
  assert.match(notice, /Missing OCR models .*: chi_sim_vert, kor_vert/);
  assert.match(notice, /sudo apt-get install tesseract-ocr-chi-sim-vert tesseract-ocr-kor-vert/);
  assert.match(notice, /sudo bash scripts\/setup\.sh/);
});

it("CI runs the README's test command as the README gives it", () => {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const testLine = /\*\*Run the tests\*\*[\s\S]*?```sh\n(.+)\n```/.exec(readme)?.[1];
  const ci = readFileSync(path.join(root, ".ci/run"), "utf8").trim().split("\n").at(-1);
  assert.equal(testLine, "npm install && npm test");
  assert.equal(ci, testLine);
});
