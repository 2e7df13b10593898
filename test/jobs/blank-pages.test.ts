import { PhotonImage } from "@cf-wasm/photon";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { api, body, seedAccount, waitForJob } from "../helpers/api";
import { fixture, realFixture } from "../engine/helpers";
import { download, form, ledger, walletOf } from "./fixtures";

function whitePng(width: number, height: number): Uint8Array {
  const img = new PhotonImage(new Uint8Array(width * height * 4).fill(255), width, height);
  try {
    return img.get_bytes();
  } finally {
    img.free();
  }
}

/**
 * Three pages: a text layer; a page drawing an image that decodes white (what a failed scan decoder
 * yields); a page drawing a picture without text (ink that recognition cannot read).
 */
async function threePagePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([420, 200]).drawText("First page: the quick brown fox.", { x: 30, y: 120, size: 16, font });
  for (const png of [whitePng(850, 1100), fixture("shapes_png")]) {
    const image = await pdf.embedPng(png);
    pdf.addPage([image.width, image.height]).drawImage(image, { x: 0, y: 0, width: image.width, height: image.height });
  }
  return pdf.save();
}

async function timeline(jobId: string, auth: Record<string, string>) {
  return (await body(await api(`/api/v1/jobs/${jobId}/timeline`, { headers: auth }))).events as any[];
}

describe("no silent blank page", () => {
  it("fails a page that decodes blank and a page with ink but no text, refunds both, delivers the rest", { timeout: 180_000 }, async () => {
    const { userId, auth } = await seedAccount({ credits: 10 });
    const res = await api("/api/v1/process", {
      method: "POST",
      headers: auth,
      body: form([{ bytes: await threePagePdf(), name: "three.pdf" }], { tool: "ocr", export_formats: ["txt"] }),
    });
    const created = await body(res);
    expect(res.status, JSON.stringify(created)).toBe(202);

    const job = await waitForJob(created.id, auth, 150_000);
    expect(job.status, JSON.stringify(job)).toBe("partially_completed");
    expect(job.pages).toEqual({ total: 3, succeeded: 1, failed: 2 });
    expect(job.cost).toEqual({ estimated: 3, reserved: 0, charged: 1 });
    const failures = (await timeline(job.id, auth)).filter((e) => e.type === "progress" && e.data?.error);
    expect(
      failures.map((e) => [e.page, e.data.error.code]),
      JSON.stringify(failures),
    ).toEqual([
      [1, "empty_page_image"],
      [2, "no_text_found"],
    ]);
    const txt = new TextDecoder().decode(
      await download(
        job.output.exports.find((e: any) => e.format === "txt"),
        auth,
      ),
    );
    expect(txt).toContain("First page: the quick brown fox.");

    expect(await ledger(userId)).toMatchObject([
      { kind: "hold", reserved_delta: 3 },
      { kind: "charge", amount: -1, reserved_delta: -3 },
    ]);
    const { wallet, ledger: sums } = await walletOf(userId);
    expect(wallet).toEqual({ balance: 9, reserved: 0 });
    expect(sums).toEqual(wallet);
  });

  it("completes a really blank page with empty text and a blank_page warning in the timeline", { timeout: 120_000 }, async () => {
    const { auth } = await seedAccount({ credits: 10 });
    const res = await api("/api/v1/process", {
      method: "POST",
      headers: auth,
      body: form([{ bytes: whitePng(600, 800), name: "blank.png" }], { tool: "ocr", export_formats: ["txt"] }),
    });
    const created = await body(res);
    expect(res.status, JSON.stringify(created)).toBe(202);
    const job = await waitForJob(created.id, auth);
    expect(job.status, JSON.stringify(job)).toBe("completed");
    const warnings = (await timeline(job.id, auth)).filter((e) => e.type === "warning");
    expect(warnings.map((w) => [w.page, w.data.code])).toEqual([[0, "blank_page"]]);
  });
});

describe("protected and malformed uploads", () => {
  it("refuses a password-protected PDF at upload with encrypted_document (not retryable), charging nothing", async () => {
    const { userId, auth } = await seedAccount({ credits: 10 });
    const res = await api("/api/v1/process", {
      method: "POST",
      headers: auth,
      body: form([{ bytes: realFixture("pypdf_libreoffice-writer-password.pdf"), name: "secret.pdf" }], { tool: "ocr" }),
    });
    const err = await body(res);
    expect(res.status, JSON.stringify(err)).toBe(422);
    expect(err.error).toMatchObject({ code: "encrypted_document", retryable: false });
    expect(err.error.message).toMatch(/password/);
    expect(await ledger(userId)).toEqual([]);
  });

  it("answers OCRmyPDF's invalid.pdf with corrupt_file in plain words", async () => {
    const { auth } = await seedAccount({ credits: 10 });
    const res = await api("/api/v1/process", {
      method: "POST",
      headers: auth,
      body: form([{ bytes: realFixture("ocrmypdf_invalid.pdf"), name: "invalid.pdf" }], { tool: "ocr" }),
    });
    const err = await body(res);
    expect(res.status, JSON.stringify(err)).toBe(422);
    expect(err.error.code).toBe("corrupt_file");
    expect(err.error.message).not.toMatch(/undefined|properties|Exception|PDFDict/);
  });
});
