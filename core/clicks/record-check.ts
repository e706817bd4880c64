/**
 * MurmurHash3 (x86, 32-bit, seed 0) of the little-endian 32-bit words of `view` from byte `from` to
 * `to` (a multiple of 4 bytes apart): a version 4 record's check.
 */
export function recordCheck(view: DataView, from: number, to: number): number {
  let h = 0;
  for (let i = from; i < to; i += 4) {
    let k = Math.imul(view.getUint32(i, true), 0xcc9e2d51);
    k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
    h ^= k;
    h = (Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64) | 0;
  }
  h ^= to - from;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
