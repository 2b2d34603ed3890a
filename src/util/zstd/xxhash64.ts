/**
 * Streaming XXH64 with seed 0, the hash behind zstd's content checksum (RFC 8878 3.1.1: the low
 * 32 bits of XXH64 over the frame's decoded content).
 *
 * 64-bit words live as two unsigned 32-bit halves: BigInt arithmetic allocates on every step and
 * would cost more than the decoding it checks. The helpers leave their result in `hi`/`lo`.
 */

let hi = 0;
let lo = 0;

// The five XXH64 primes, as [high, low] halves.
const P1_HI = 0x9e3779b1;
const P1_LO = 0x85ebca87;
const P2_HI = 0xc2b2ae3d;
const P2_LO = 0x27d4eb4f;
const P3_HI = 0x165667b1;
const P3_LO = 0x9e3779f9;
const P4_HI = 0x85ebca77;
const P4_LO = 0xc2b2ae63;
const P5_HI = 0x27d4eb2f;
const P5_LO = 0x165667c5;
// 16-bit limbs of the low halves of P1 and P2, for the stripe loop.
const P1_B0 = P1_LO & 0xffff;
const P1_B1 = P1_LO >>> 16;
const P2_B0 = P2_LO & 0xffff;
const P2_B1 = P2_LO >>> 16;

/** hi:lo = a * b mod 2^64. */
const multiply = (aHi: number, aLo: number, bHi: number, bLo: number): void => {
  // aLo * bLo needs all 64 bits: split into 16-bit limbs so that every partial product is exact.
  const a0 = aLo & 0xffff;
  const a1 = aLo >>> 16;
  const b0 = bLo & 0xffff;
  const b1 = bLo >>> 16;
  const p00 = a0 * b0;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const middle = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  lo = ((middle << 16) | (p00 & 0xffff)) >>> 0;
  const carry = a1 * b1 + (p01 >>> 16) + (p10 >>> 16) + (middle >>> 16);
  // The cross terms only reach the high half, where wrapping 32-bit products are enough.
  hi = (carry + Math.imul(aHi, bLo) + Math.imul(aLo, bHi)) >>> 0;
};

/** hi:lo = a + b mod 2^64. */
const add = (aHi: number, aLo: number, bHi: number, bLo: number): void => {
  const low = aLo + bLo;
  lo = low >>> 0;
  hi = (aHi + bHi + (low > 0xffffffff ? 1 : 0)) >>> 0;
};

/** hi:lo = a rotated left by `bits` (1..31: all XXH64 needs). */
const rotateLeft = (aHi: number, aLo: number, bits: number): void => {
  hi = ((aHi << bits) | (aLo >>> (32 - bits))) >>> 0;
  lo = ((aLo << bits) | (aHi >>> (32 - bits))) >>> 0;
};

/** hi:lo = round(acc, input) = rotl(acc + input * P2, 31) * P1. */
const round = (accHi: number, accLo: number, inputHi: number, inputLo: number): void => {
  multiply(inputHi, inputLo, P2_HI, P2_LO);
  add(accHi, accLo, hi, lo);
  rotateLeft(hi, lo, 31);
  multiply(hi, lo, P1_HI, P1_LO);
};

const readU32 = (bytes: Uint8Array, at: number): number =>
  ((bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8) | ((bytes[at + 2] ?? 0) << 16) | ((bytes[at + 3] ?? 0) << 24)) >>> 0;

const STRIPE_BYTES = 32;

export class Xxh64 {
  /** The four lane accumulators, as high/low pairs. */
  private readonly lanes = new Uint32Array(8);
  /** Bytes of an unfinished stripe. */
  private readonly tail = new Uint8Array(STRIPE_BYTES);
  private tailLength = 0;
  private length = 0;

  constructor() {
    // Seed 0: P1 + P2, P2, 0, -P1.
    add(P1_HI, P1_LO, P2_HI, P2_LO);
    this.lanes.set([hi, lo, P2_HI, P2_LO, 0, 0]);
    add(~P1_HI >>> 0, ~P1_LO >>> 0, 0, 1);
    this.lanes[6] = hi;
    this.lanes[7] = lo;
  }

  update(bytes: Uint8Array, start: number, end: number): void {
    this.length += end - start;
    let at = start;
    if (this.tailLength > 0) {
      const take = Math.min(STRIPE_BYTES - this.tailLength, end - at);
      this.tail.set(bytes.subarray(at, at + take), this.tailLength);
      this.tailLength += take;
      at += take;
      if (this.tailLength < STRIPE_BYTES) return;
      this.stripe(this.tail, 0);
      this.tailLength = 0;
    }
    for (; at + STRIPE_BYTES <= end; at += STRIPE_BYTES) this.stripe(bytes, at);
    if (at < end) {
      this.tail.set(bytes.subarray(at, end), 0);
      this.tailLength = end - at;
    }
  }

  /** The low 32 bits of the hash of everything passed to `update`. */
  digestLow32(): number {
    const lanes = this.lanes;
    let accHi: number;
    let accLo: number;
    if (this.length >= STRIPE_BYTES) {
      rotateLeft(lanes[0] ?? 0, lanes[1] ?? 0, 1);
      let sumHi = hi;
      let sumLo = lo;
      for (const [index, bits] of [[2, 7], [4, 12], [6, 18]] as const) {
        rotateLeft(lanes[index] ?? 0, lanes[index + 1] ?? 0, bits);
        add(sumHi, sumLo, hi, lo);
        sumHi = hi;
        sumLo = lo;
      }
      for (let index = 0; index < 8; index += 2) {
        // acc = (acc ^ round(0, lane)) * P1 + P4
        round(0, 0, lanes[index] ?? 0, lanes[index + 1] ?? 0);
        multiply((sumHi ^ hi) >>> 0, (sumLo ^ lo) >>> 0, P1_HI, P1_LO);
        add(hi, lo, P4_HI, P4_LO);
        sumHi = hi;
        sumLo = lo;
      }
      accHi = sumHi;
      accLo = sumLo;
    } else {
      accHi = P5_HI;
      accLo = P5_LO;
    }
    add(accHi, accLo, Math.floor(this.length / 0x100000000) >>> 0, this.length >>> 0);
    accHi = hi;
    accLo = lo;

    const tail = this.tail;
    const tailLength = this.tailLength;
    let at = 0;
    for (; at + 8 <= tailLength; at += 8) {
      round(0, 0, readU32(tail, at + 4), readU32(tail, at));
      rotateLeft((accHi ^ hi) >>> 0, (accLo ^ lo) >>> 0, 27);
      multiply(hi, lo, P1_HI, P1_LO);
      add(hi, lo, P4_HI, P4_LO);
      accHi = hi;
      accLo = lo;
    }
    if (at + 4 <= tailLength) {
      multiply(0, readU32(tail, at), P1_HI, P1_LO);
      rotateLeft((accHi ^ hi) >>> 0, (accLo ^ lo) >>> 0, 23);
      multiply(hi, lo, P2_HI, P2_LO);
      add(hi, lo, P3_HI, P3_LO);
      accHi = hi;
      accLo = lo;
      at += 4;
    }
    for (; at < tailLength; at++) {
      multiply(0, tail[at] ?? 0, P5_HI, P5_LO);
      rotateLeft((accHi ^ hi) >>> 0, (accLo ^ lo) >>> 0, 11);
      multiply(hi, lo, P1_HI, P1_LO);
      accHi = hi;
      accLo = lo;
    }

    // Avalanche: acc ^= acc >> 33; acc *= P2; acc ^= acc >> 29; acc *= P3; acc ^= acc >> 32.
    accLo = (accLo ^ (accHi >>> 1)) >>> 0;
    multiply(accHi, accLo, P2_HI, P2_LO);
    accHi = hi;
    accLo = (lo ^ ((lo >>> 29) | (hi << 3))) >>> 0;
    accHi = (accHi ^ (accHi >>> 29)) >>> 0;
    multiply(accHi, accLo, P3_HI, P3_LO);
    return (lo ^ hi) >>> 0;
  }

  /**
   * One 32-byte stripe: each lane becomes rotl(lane + input * P2, 31) * P1. This is the hot loop,
   * so `round` is written out here with local variables only.
   */
  private stripe(bytes: Uint8Array, at: number): void {
    const lanes = this.lanes;
    for (let index = 0; index < 8; index += 2) {
      const offset = at + index * 4;
      const inputLo = readU32(bytes, offset);
      const inputHi = readU32(bytes, offset + 4);
      // input * P2
      let a0 = inputLo & 0xffff;
      let a1 = inputLo >>> 16;
      let p00 = a0 * P2_B0;
      let p01 = a0 * P2_B1;
      let p10 = a1 * P2_B0;
      let middle = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
      const productLo = ((middle << 16) | (p00 & 0xffff)) >>> 0;
      const productHi = a1 * P2_B1 + (p01 >>> 16) + (p10 >>> 16) + (middle >>> 16) + Math.imul(inputHi, P2_LO) + Math.imul(inputLo, P2_HI);
      // + lane
      const sumLo = (lanes[index + 1] ?? 0) + productLo;
      const sumHi = ((lanes[index] ?? 0) + productHi + (sumLo > 0xffffffff ? 1 : 0)) | 0;
      // rotl 31
      const rotatedHi = (sumHi << 31) | (sumLo >>> 1);
      const rotatedLo = ((sumLo << 31) | (sumHi >>> 1)) >>> 0;
      // * P1
      a0 = rotatedLo & 0xffff;
      a1 = rotatedLo >>> 16;
      p00 = a0 * P1_B0;
      p01 = a0 * P1_B1;
      p10 = a1 * P1_B0;
      middle = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
      lanes[index + 1] = (middle << 16) | (p00 & 0xffff);
      lanes[index] = a1 * P1_B1 + (p01 >>> 16) + (p10 >>> 16) + (middle >>> 16) + Math.imul(rotatedHi, P1_LO) + Math.imul(rotatedLo, P1_HI);
    }
  }
}
