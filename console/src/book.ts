/**
 * An order book held from the `books` channel: a snapshot replaces it, an update sets levels
 * (size "0" removes one). Prices and sizes stay the strings the server pushed.
 */

export type Level = [string, string];

export class Book {
  private readonly bids = new Map<string, string>();
  private readonly asks = new Map<string, string>();

  apply(action: 'snapshot' | 'update', row: { bids?: Level[]; asks?: Level[] }): void {
    if (action === 'snapshot') {
      this.bids.clear();
      this.asks.clear();
    }
    for (const [price, size] of row.bids ?? []) setLevel(this.bids, price, size);
    for (const [price, size] of row.asks ?? []) setLevel(this.asks, price, size);
  }

  /** The best `depth` levels of each side: bids high to low, asks low to high. */
  top(depth: number): { bids: Level[]; asks: Level[] } {
    return { bids: sorted(this.bids, -1).slice(0, depth), asks: sorted(this.asks, 1).slice(0, depth) };
  }
}

function setLevel(side: Map<string, string>, price: string, size: string): void {
  if (Number(size) === 0) side.delete(price);
  else side.set(price, size);
}

/** Ordered by price; decimal strings of one instrument compare exactly as numbers at these sizes. */
function sorted(side: Map<string, string>, direction: 1 | -1): Level[] {
  return [...side].sort((a, b) => direction * (Number(a[0]) - Number(b[0])));
}
