/**
 * A tiny CBOR (RFC 8949) encoder for what WebAuthn test objects need: integers, byte strings,
 * text strings, arrays and maps (Map for integer keys, plain objects for text keys).
 */
export type CborValue = number | string | Uint8Array | CborValue[] | Map<number | string, CborValue> | { [k: string]: CborValue };

function head(major: number, n: number): number[] {
  const m = major << 5;
  if (n < 24) return [m | n];
  if (n < 0x100) return [m | 24, n];
  if (n < 0x10000) return [m | 25, n >> 8, n & 0xff];
  if (n < 0x100000000) return [m | 26, (n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
  throw new Error("cbor: integer too large for this encoder");
}

function encodeInto(out: number[], v: CborValue): void {
  if (typeof v === "number") {
    if (!Number.isInteger(v)) throw new Error("cbor: only integers are supported");
    out.push(...(v >= 0 ? head(0, v) : head(1, -1 - v)));
  } else if (typeof v === "string") {
    const bytes = new TextEncoder().encode(v);
    out.push(...head(3, bytes.length), ...bytes);
  } else if (v instanceof Uint8Array) {
    out.push(...head(2, v.length), ...v);
  } else if (Array.isArray(v)) {
    out.push(...head(4, v.length));
    for (const item of v) encodeInto(out, item);
  } else {
    const entries = v instanceof Map ? [...v.entries()] : Object.entries(v);
    out.push(...head(5, entries.length));
    for (const [k, val] of entries) {
      encodeInto(out, k);
      encodeInto(out, val);
    }
  }
}

export function cborEncode(v: CborValue): Uint8Array {
  const out: number[] = [];
  encodeInto(out, v);
  return Uint8Array.from(out);
}
