import { env } from "cloudflare:workers";
import { PDFDocument, PDFName, StandardFonts, drawObject, popGraphicsState, pushGraphicsState, scale as scaleOp } from "pdf-lib";
import { api, body } from "../helpers/api";
import { renderTextPng } from "../helpers/text-image";

export const LINES = ["The quick brown fox jumps over the lazy dog.", "Invoice number 4821 is due on 12 March 2026."];

export function form(files: { bytes: Uint8Array | string; name: string }[], options?: unknown): FormData {
  const f = new FormData();
  for (const file of files) f.append("file", new File([file.bytes], file.name));
  if (options !== undefined) f.append("options", JSON.stringify(options));
  return f;
}

/** A PDF page with a real text layer (read exactly, no OCR). */
async function textPage(pdf: PDFDocument, text: string) {
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([420, 200]);
  page.drawText(text, { x: 30, y: 120, size: 16, font });
}

/**
 * A page whose only content is an embedded image declaring 30000x30000 pixels: the engine's
 * decompression-bomb guard refuses it, so that page fails while the others succeed.
 */
function bombPage(pdf: PDFDocument) {
  const page = pdf.addPage([420, 200]);
  const stream = pdf.context.stream(new Uint8Array(64), {
    Type: "XObject",
    Subtype: "Image",
    Width: 30000,
    Height: 30000,
    ColorSpace: "DeviceGray",
    BitsPerComponent: 8,
  });
  const ref = pdf.context.register(stream);
  page.node.setXObject(PDFName.of("Im0"), ref);
  page.pushOperators(pushGraphicsState(), scaleOp(420, 200), drawObject("Im0"), popGraphicsState());
}

/** Three pages: text, a broken page, text. */
export async function pdfWithBrokenMiddlePage(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  await textPage(pdf, "First page: the quick brown fox.");
  bombPage(pdf);
  await textPage(pdf, "Third page: invoice number 4821.");
  return pdf.save();
}

/** A multi-page scanned document (page images OCR'd for real): slow enough to cancel mid-run. */
export async function scannedPdf(pages: number, linesPerPage = 12): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const lines = Array.from({ length: linesPerPage }, (_, i) => `${LINES[i % 2]} Line ${i + 1}.`);
  const png = await pdf.embedPng(await renderTextPng(lines));
  for (let i = 0; i < pages; i++) {
    const page = pdf.addPage([png.width, png.height]);
    page.drawImage(png, { x: 0, y: 0, width: png.width, height: png.height });
  }
  return pdf.save();
}

/** A PNG whose header is valid (the upload is accepted) but whose compressed pixel data is damaged. */
export async function corruptPng(): Promise<Uint8Array> {
  const png = (await renderTextPng(LINES)).slice();
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  // Walk the chunks to the first IDAT and scramble its deflate data, leaving every chunk length intact.
  for (let at = 8; at + 8 <= png.length;) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    if (type === "IDAT") {
      for (let i = at + 8 + 2; i < at + 8 + length; i++) png[i] = png[i]! ^ 0x5a;
      return png;
    }
    at += 12 + length;
  }
  throw new Error("no IDAT chunk");
}

export async function ledger(userId: string) {
  const rows = await env.DB.prepare(
    "SELECT kind, amount, reserved_delta, job_id, dedupe_key FROM ledger_entries WHERE user_id = ? AND kind != 'grant' ORDER BY created_at, rowid",
  )
    .bind(userId)
    .all<{ kind: string; amount: number; reserved_delta: number; job_id: string; dedupe_key: string }>();
  return rows.results;
}

/** Wallet and ledger agree: balance = SUM(amount), reserved = SUM(reserved_delta). */
export async function walletOf(userId: string) {
  const w = await env.DB.prepare("SELECT balance, reserved FROM wallets WHERE user_id = ?")
    .bind(userId)
    .first<{ balance: number; reserved: number }>();
  const s = await env.DB.prepare("SELECT SUM(amount) AS balance, SUM(reserved_delta) AS reserved FROM ledger_entries WHERE user_id = ?")
    .bind(userId)
    .first<{ balance: number; reserved: number }>();
  return { wallet: w, ledger: s };
}

/** Polls until the job is in one of `statuses` (or fails the test with the job). */
export async function waitForStatus(jobId: string, auth: Record<string, string>, statuses: string[], timeoutMs = 60_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await body(await api(`/api/v1/jobs/${jobId}`, { headers: auth }));
    if (statuses.includes(job.status)) return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} never reached ${statuses.join("|")}: ${JSON.stringify(job)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export interface SseEvent {
  id: number;
  event: string;
  data: any;
}

/** Parses an SSE body into events (comments skipped). */
export function parseSse(text: string): SseEvent[] {
  return text
    .split("\n\n")
    .map((block) => block.split("\n").filter((l) => l && !l.startsWith(":")))
    .filter((lines) => lines.some((l) => l.startsWith("event: ")))
    .map((lines) => ({
      id: Number(lines.find((l) => l.startsWith("id: "))?.slice(4)),
      event: lines.find((l) => l.startsWith("event: "))!.slice(7),
      data: JSON.parse(lines.find((l) => l.startsWith("data: "))!.slice(6)),
    }));
}

/** Downloads an export of a job through its signed URL. */
export async function download(exp: { download: string }, auth: Record<string, string>): Promise<Uint8Array> {
  const link = await body(await api(exp.download, { headers: auth }));
  const res = await api(new URL(link.url).pathname + new URL(link.url).search);
  if (res.status !== 200) throw new Error(`download failed ${res.status}: ${await res.text()}`);
  return new Uint8Array(await res.arrayBuffer());
}
