/** OCR languages the engine can be seeded with: tesseract code → ISO 639-1 code and English name. */
export const OCR_LANGUAGE_NAMES: Record<string, { code: string; name: string }> = {
  eng: { code: "en", name: "English" },
  fra: { code: "fr", name: "French" },
  deu: { code: "de", name: "German" },
  spa: { code: "es", name: "Spanish" },
  ita: { code: "it", name: "Italian" },
  por: { code: "pt", name: "Portuguese" },
  jpn: { code: "ja", name: "Japanese" },
  chi_sim: { code: "zh", name: "Chinese (Simplified)" },
};

/** Resolves an API language code (`en`, or a tesseract code such as `eng`) to its tesseract code. */
export function ocrCodeFor(code: string): string | undefined {
  if (OCR_LANGUAGE_NAMES[code]) return code;
  return Object.entries(OCR_LANGUAGE_NAMES).find(([, v]) => v.code === code)?.[0];
}
