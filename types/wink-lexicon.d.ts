/** wink-lexicon ships JavaScript only: the WordNet tables the English word forms read. */
declare module "wink-lexicon/src/wn-words.js" {
  const words: Record<string, number>;
  export default words;
}
declare module "wink-lexicon/src/wn-verb-exceptions.js" {
  const exceptions: Record<string, string>;
  export default exceptions;
}
declare module "wink-lexicon/src/wn-noun-exceptions.js" {
  const exceptions: Record<string, string>;
  export default exceptions;
}
declare module "wink-lexicon/src/wn-adjective-exceptions.js" {
  const exceptions: Record<string, string>;
  export default exceptions;
}
declare module "wink-lexicon/src/wn-word-senses.js" {
  const senses: number[][];
  export default senses;
}
