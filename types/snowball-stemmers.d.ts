/** snowball-stemmers ships JavaScript only: the part of its interface the tracker's word forms use. */
declare module "snowball-stemmers" {
  interface Stemmer {
    stem(word: string): string;
  }
  export function newStemmer(language: string): Stemmer;
  export function algorithms(): string[];
}
