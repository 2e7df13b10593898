import { engineError } from "../errors";

/**
 * The failure to report when a PDF cannot be opened, in words a user can act on: a password
 * (pdf.js `PasswordException`; files with an empty user password open without one) is
 * `[encrypted_document]`, anything else `[corrupt_file]`. Parser internals stay in the logs.
 */
export function pdfOpenFailure(err: unknown): Error {
  if (err && typeof err === "object" && (err as { name?: unknown }).name === "PasswordException") {
    return engineError(
      "encrypted_document",
      "The PDF is protected by a password. Remove the protection (for example, save or print it again without a password) and upload it again.",
    );
  }
  console.warn(JSON.stringify({ level: "warn", msg: "PDF could not be opened", error: err instanceof Error ? err.message : String(err) }));
  return engineError(
    "corrupt_file",
    "The PDF file is damaged: its structure cannot be read. Re-save or re-export it from the program that made it and upload it again.",
  );
}
