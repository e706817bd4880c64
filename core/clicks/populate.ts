/**
 * Mapping the pages of a journal segment before they are written. A shared file mapping takes one
 * page fault per 4 KB page on its first write (about 58 clicks), and a fault is an exception, a trip
 * through the kernel and back: in the redirect benchmark that was about 0.34 µs of system time per
 * redirect. `madvise(MADV_POPULATE_WRITE)` (Linux 5.14) maps a whole range writable in one system
 * call instead. Called through bun:ffi on libc; where it is missing (another OS, an older kernel)
 * this does nothing and the pages fault in as before.
 */
import { dlopen, FFIType, ptr } from "bun:ffi";

const MADV_POPULATE_WRITE = 23;

type Madvise = (addr: number, length: number, advice: number) => number;

function load(): Madvise | null {
  if (process.platform !== "linux") return null;
  for (const name of ["libc.so.6", "libc.so"]) {
    try {
      const lib = dlopen(name, { madvise: { args: [FFIType.ptr, FFIType.u64, FFIType.i32], returns: FFIType.i32 } });
      return lib.symbols.madvise as unknown as Madvise;
    } catch {}
  }
  return null;
}

let madvise: Madvise | null | undefined;

/**
 * Maps `length` bytes of `buf` from `offset` writable now (both multiples of the page size, within
 * `buf`, which starts on a page: a mapping does). False when the system cannot (nothing was done).
 */
export function populateForWrite(buf: Uint8Array, offset: number, length: number): boolean {
  madvise ??= load();
  if (!madvise || length <= 0) return false;
  return madvise(ptr(buf) + offset, length, MADV_POPULATE_WRITE) === 0;
}
