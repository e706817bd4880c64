import { eld } from "eld/small";

/**
 * The ISO 639-1 language of a message text (eld, 60 languages), or null when it cannot tell (too
 * short, mixed). Used by filter_language: an undetected language does not match a filter.
 */
export function detectLanguage(text: string): string | null {
  return eld.detect(text).language || null;
}
