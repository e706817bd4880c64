/** az ships JavaScript only: the part of its interface the tracker's word forms use (the OpenCorpora dictionary). */
declare module "az" {
  interface Tag {
    POS?: string;
    [grammeme: string]: unknown;
  }
  interface Parse {
    word: string;
    tag: Tag;
    /** the dictionary parse's paradigm: form count, then the forms' suffixes, tags and prefixes */
    formCnt: number;
    inflect(formIdx: number): Parse;
    normalize(): Parse;
  }
  interface MorphConfig {
    parsers?: string[];
    typos?: number;
    stutter?: number;
    ignoreCase?: boolean;
  }
  interface Morph {
    (word: string, config?: MorphConfig): Parse[];
    init(path: string, callback: (error: Error | null) => void): void;
  }
  const Az: {
    Morph: Morph;
    load(url: string, responseType: string, callback: (error: Error | null, data?: unknown) => void): void;
  };
  export default Az;
}
