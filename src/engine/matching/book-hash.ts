// State hash of a book: FNV-1a (64-bit) over its resting orders in priority order.
//
// Two books hash equal iff (barring collisions) they hold the same orders, with the same
// fields, in the same queue positions — which is what replay determinism means for the book.
// Strings are length-prefixed and numbers fixed-width, so field boundaries are unambiguous.
// 64-bit arithmetic is done on two 32-bit halves to stay in plain numbers (no bigint, no
// node:crypto in the core).

import type { OrderBook } from './order-book.ts';

const twoToThe32 = 4294967296;

export class Fnv1a64 {
  private high = 0xcbf29ce4;
  private low = 0x84222325;

  byte(value: number): void {
    // h = (h ^ byte) * 0x100000001b3 mod 2^64, with 0x100000001b3 = 2^40 + 0x1b3.
    const low = (this.low ^ (value & 0xff)) >>> 0;
    const lowProduct = low * 0x1b3;
    const carry = Math.floor(lowProduct / twoToThe32);
    this.high = (this.high * 0x1b3 + carry + ((low << 8) >>> 0)) >>> 0;
    this.low = lowProduct >>> 0;
  }

  uint32(value: number): void {
    this.byte(value);
    this.byte(value >>> 8);
    this.byte(value >>> 16);
    this.byte(value >>> 24);
  }

  integer(value: number): void {
    this.uint32(Math.floor(value / twoToThe32) >>> 0);
    this.uint32(value >>> 0);
  }

  string(value: string): void {
    this.uint32(value.length);
    for (let index = 0; index < value.length; index += 1) {
      const codeUnit = value.charCodeAt(index);
      this.byte(codeUnit);
      this.byte(codeUnit >>> 8);
    }
  }

  hex(): string {
    return this.high.toString(16).padStart(8, '0') + this.low.toString(16).padStart(8, '0');
  }
}

/** 16 hex digits; equal books (same orders, same priority) give equal hashes. */
export function stateHash(book: OrderBook): string {
  const hash = new Fnv1a64();
  const orders = book.restingOrders();
  hash.uint32(orders.length);
  for (const order of orders) {
    hash.string(order.orderId);
    hash.string(order.ownerId);
    hash.string(order.side);
    hash.integer(order.priceTicks);
    hash.integer(order.remainingLots);
    hash.integer(order.sequence);
    hash.string(order.stpMode);
  }
  return hash.hex();
}
