import { pageBuffer } from '../page-buffer.js';
import { MAX_BLOCK_BYTES } from './common.js';

/** From this size, buffers come from V8's page allocator rather than malloc (see page-buffer.ts for why). */
const PAGE_BUFFER_FROM_BYTES = 1024 * 1024;
const FIRST_CAPACITY_BYTES = 64 * 1024;

const allocate = (bytes: number): Buffer => (bytes >= PAGE_BUFFER_FROM_BYTES ? pageBuffer(bytes) : Buffer.allocUnsafe(bytes));

/**
 * Where decoded bytes go. Blocks are written straight into one buffer, which matches copy from.
 *
 * - Whole mode keeps everything: the buffer grows geometrically (or is sized once from a frame's
 *   declared content size) and becomes the result.
 * - Streaming mode hands the bytes out in chunks (views of the buffer) and then keeps only what
 *   matches may still reach, the frame's last Window_Size bytes, sliding them to the front when the
 *   buffer fills. A chunk stays valid until the decoder runs again.
 */
export class OutputWindow {
  buffer: Buffer = Buffer.alloc(0);
  /** Where the next decoded byte goes. */
  position = 0;
  /** Where the current frame's output starts in `buffer`; below 0 once the window slid past it. */
  private frameStart = 0;
  /** Start of the bytes not handed out yet (streaming mode). */
  private pendingStart = 0;
  readonly streaming: boolean;
  private readonly maxOutputBytes: number;

  constructor(streaming: boolean, maxOutputBytes: number) {
    this.streaming = streaming;
    this.maxOutputBytes = maxOutputBytes;
  }

  /** A first capacity for output of unknown size (whole mode): text compresses 3-10 times, so growth is rare. */
  expect(bytes: number): void {
    if (this.buffer.length === 0) this.buffer = allocate(Math.min(Math.max(bytes, FIRST_CAPACITY_BYTES), this.maxOutputBytes + MAX_BLOCK_BYTES));
  }

  startFrame(): void {
    this.frameStart = this.position;
  }

  /** The earliest byte a match in the current frame may copy from. */
  get historyStart(): number {
    return Math.max(this.frameStart, 0);
  }

  get pendingBytes(): number {
    return this.position - this.pendingStart;
  }

  /** True when `bytes` more do not fit without growing or sliding the buffer. */
  lacksRoom(bytes: number): boolean {
    return this.position + bytes > this.buffer.length;
  }

  /** The bytes decoded since the last call, as a view that stays valid until the buffer slides. */
  takePending(): Buffer {
    const chunk = this.buffer.subarray(this.pendingStart, this.position);
    this.pendingStart = this.position;
    return chunk;
  }

  /** Makes room for exactly `bytes` more (a frame's declared size, in whole mode), so that the result needs no copy. */
  reserveExact(bytes: number): void {
    if (this.lacksRoom(bytes)) this.moveTo(allocate(this.position + bytes), 0);
  }

  /** Makes room for `bytes` more, keeping the last `history` bytes of the current frame (and anything not handed out). */
  reserve(bytes: number, history: number): void {
    if (!this.lacksRoom(bytes)) return;
    // Whole mode keeps everything; streaming mode what matches may reach and what is still pending.
    const keepFrom = this.streaming ? Math.min(Math.max(this.historyStart, this.position - history), this.pendingStart) : 0;
    const kept = this.position - keepFrom;
    // Slide in place when that frees at least as much as it copies; grow otherwise, which makes
    // sliding worthwhile later (the buffer ends at two to four windows).
    if (this.streaming && keepFrom >= kept && kept + bytes <= this.buffer.length) {
      this.moveTo(this.buffer, keepFrom);
      return;
    }
    const doubled = this.streaming ? this.buffer.length * 2 : Math.min(this.buffer.length * 2, this.maxOutputBytes + MAX_BLOCK_BYTES);
    this.moveTo(allocate(Math.max(kept + bytes, doubled, FIRST_CAPACITY_BYTES)), keepFrom);
  }

  /**
   * The whole output (whole mode). A buffer at least half full is returned as it is: a large one
   * comes from the page allocator, whose pages past the output were never touched and take no
   * memory, and a small one wastes little; a copy would cost more.
   */
  result(): Buffer {
    const { buffer, position } = this;
    if (position >= buffer.length >>> 1) return buffer.subarray(0, position);
    const exact = allocate(position);
    buffer.copy(exact, 0, 0, position);
    return exact.subarray(0, position);
  }

  /** Moves `buffer[keepFrom, position)` to the start of `target`. */
  private moveTo(target: Buffer, keepFrom: number): void {
    if (target === this.buffer) this.buffer.copyWithin(0, keepFrom, this.position);
    else this.buffer.copy(target, 0, keepFrom, this.position);
    this.buffer = target;
    this.position -= keepFrom;
    this.frameStart -= keepFrom;
    this.pendingStart -= keepFrom;
  }
}
