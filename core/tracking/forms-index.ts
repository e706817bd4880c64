/**
 * The matcher's word-forms terms, filed by the keys of their first word (word-forms.ts): a term
 * whose first word has forms occurs wherever a post's word shares one of its keys. Terms with the
 * same keys share one key set (a slot of the matcher's Occurrences). A post's words are read once,
 * each looked up as written in a cache of which key sets it belongs to (the dictionary is asked
 * once per distinct word), so a word that is no form of any term costs a hash and a table probe.
 */
import { FOLD, INVISIBLE, WORD, normalise } from "./normalise";
import type { Occurrences } from "./occurrences";
import { Postings } from "./postings";
import { textForms, type FormKeys } from "./word-forms";
import { WordTable } from "./word-table";

export class FormsIndex {
  private readonly setIds = new Map<FormKeys, number>();
  /** per key: the key sets holding it */
  private readonly byKey = new Map<string, number[]>();
  /** per key set: the trackers whose anchor it is (pairs: tracker, 0) */
  private owners = new Postings();
  private words = new WordTable();

  get size(): number {
    return this.setIds.size;
  }

  /** The id of the key set `keys` (interned by word-forms.ts, so equal sets are one array). */
  setOf(keys: FormKeys): number {
    let id = this.setIds.get(keys);
    if (id === undefined) {
      this.setIds.set(keys, (id = this.setIds.size));
      for (const key of keys) {
        const sets = this.byKey.get(key);
        if (sets) sets.push(id);
        else this.byKey.set(key, [id]);
      }
    }
    return id;
  }

  /** Files tracker `t` as waiting for key set `set`: an occurrence makes it a candidate. */
  anchor(set: number, t: number): void {
    this.owners.add(set, t, 0);
  }

  freeze(): void {
    this.owners = this.owners.freeze(this.setIds.size);
  }

  /**
   * Notes, for every word of `text` (Unicode letters, digits and marks), the key sets it has as
   * occurrences of slot `base + set`, and calls `candidate` with the trackers anchored on them.
   */
  scan(text: string, occurrences: Occurrences, base: number, candidate: (t: number) => void): void {
    const n = text.length;
    const { start: from, list } = this.owners;
    for (let i = 0; i < n; ) {
      if (!WORD[text.charCodeAt(i)]) {
        i++;
        continue;
      }
      const start = i;
      // the word's end and its hash (FNV-1a of its folded letters, as WordTable keys words) in one pass
      let h = 0x811c9dc5;
      for (; i < n; i++) {
        const c = text.charCodeAt(i);
        if (WORD[c]) h = Math.imul(h ^ FOLD[c]!, 0x01000193);
        else if (!INVISIBLE[c]) break;
      }
      h |= 1;
      let entry = this.words.find(text, start, i, h);
      if (entry === -1) entry = this.words.add(normalise(text.slice(start, i)), h, this.setsOf(text.slice(start, i)));
      for (let k = this.words.groupsFrom(entry), to = k + this.words.groupCount(entry); k < to; k++) {
        const set = this.words.group(k);
        occurrences.add(base + set, start, i);
        for (let p = 2 * from[set]!; p < 2 * from[set + 1]!; p += 2) candidate(list[p]!);
      }
    }
  }

  /** The key sets a post's word (as written) belongs to. */
  private setsOf(word: string): number[] {
    const out: number[] = [];
    for (const key of textForms(word, normalise) ?? []) for (const set of this.byKey.get(key) ?? []) if (!out.includes(set)) out.push(set);
    return out;
  }
}
