import type { GrayImage } from "../image/gray";
import { chooseLanguage } from "./auto-language";
import { AUTO, seededLanguages } from "./models";

/** The languages to read `image` in: the requested ones, or the one `auto` chooses for it. */
export async function resolveLanguages(models: R2Bucket, languages: string[], image: GrayImage): Promise<string[]> {
  if (languages.length !== 1 || languages[0] !== AUTO) return languages;
  return [await chooseLanguage(models, image, await seededLanguages(models))];
}

/** The model used for language-independent trials (orientation): the first named language, else eng. */
export function trialLanguage(languages: string[] | undefined, seeded: string[]): string {
  const named = (languages ?? []).find((l) => l !== AUTO && seeded.includes(l));
  return named ?? (seeded.includes("eng") ? "eng" : seeded[0]!);
}
