/** en-inflectors ships no declarations: the part the benchmark's word list uses. */
declare module "en-inflectors" {
  export class Inflectors {
    constructor(word: string);
    toPlural(): string;
    toPresentS(): string;
    toPast(): string;
    toPastParticiple(): string;
    toGerund(): string;
    comparative(): string;
    superlative(): string;
  }
}
