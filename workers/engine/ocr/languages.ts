import type { GrayImage } from "../image/gray";
import { chooseLanguage } from "./auto-language";
import { AUTO, seededLanguages } from "./models";

/**
 * The languages to read `image` in: the requested ones, or the one `auto` chooses for it (`chosen`:
 * the model the page was found written in when it was preprocessed, used while still seeded). A
 * named language whose page was found in columns (`chosen` its vertical model) is read with that model.
 */
export async function resolveLanguages(models: R2Bucket, languages: string[], image: GrayImage, chosen?: string): Promise<string[]> {
  if (languages.length !== 1 || languages[0] !== AUTO) return languages.map((l) => (chosen === `${l}_vert` ? chosen : l));
  const seeded = await seededLanguages(models);
  return [chosen && seeded.includes(chosen) ? chosen : await chooseLanguage(models, image, seeded)];
}

/** Preprocessing's orientation trials: with `auto`, the language is chosen on the page first (see PreprocessContext). */
export function autoOrTrialLanguage(languages: string[] | undefined, seeded: string[]): string {
  return languages?.length === 1 && languages[0] === AUTO ? AUTO : trialLanguage(languages, seeded);
}

/** The model used for language-independent trials (orientation): the first named language, else eng. */
export function trialLanguage(languages: string[] | undefined, seeded: string[]): string {
  const named = (languages ?? []).find((l) => l !== AUTO && seeded.includes(l));
  return named ?? (seeded.includes("eng") ? "eng" : seeded[0]!);
}
