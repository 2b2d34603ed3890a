/**
 * Large, short-lived read buffers from V8's page allocator instead of malloc.
 *
 * Why: glibc serves a block of 128 KiB or more with its own mapping, but when such a block is
 * freed it raises that threshold to the block's size (and the heap's trim threshold to twice it).
 * A first discovery grows its read buffer to the largest transcript: afterwards every block up
 * to that size came from the heap, which fragmented and kept more than a warm start's once the
 * monitor idled (docs/performance.md). A WebAssembly memory is mapped by
 * V8 itself and unmapped when collected, so freeing it changes nothing in malloc.
 */
const WASM_PAGE_BYTES = 65_536;

interface WasmMemoryConstructor {
  new (descriptor: { initial: number; maximum?: number }): { readonly buffer: ArrayBuffer };
}

const WasmMemory = (globalThis as { WebAssembly?: { Memory?: WasmMemoryConstructor } }).WebAssembly?.Memory;

/** A zero-filled buffer of at least `bytes` (whole 64 KiB pages), or a plain one where V8 will not map it (no WebAssembly, an address-space limit). */
export const pageBuffer = (bytes: number): Buffer => {
  if (WasmMemory !== undefined) {
    try {
      const pages = Math.max(1, Math.ceil(bytes / WASM_PAGE_BYTES));
      return Buffer.from(new WasmMemory({ initial: pages, maximum: pages }).buffer);
    } catch {
      // fall through to malloc
    }
  }
  return Buffer.allocUnsafe(bytes);
};
