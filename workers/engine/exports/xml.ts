/** Escapes text for XML content and double-quoted attributes; drops characters XML 1.0 forbids. */
export function xml(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/** Whole pixels for coordinates. */
export const px = (v: number) => Math.max(0, Math.round(v));
