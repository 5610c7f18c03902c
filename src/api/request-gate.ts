/**
 * Admission of requests, for the operator's reset (src/admin/reset.ts): every HTTP request
 * enters before it is handled and leaves once answered. `close` stops new requests from
 * entering (the edge answers them SERVICE_RESETTING, WebSocket upgrades 503) and waits until
 * no more than the closer's own are inside, so that no request started on the old state is
 * still running when the new one takes over; `open` lets requests in again.
 *
 * Limits: the wait is bounded (a request stuck on a store that does not answer must not hold
 * the reset forever); the closer decides what to do when it runs out.
 */
export class RequestGate {
  private inside = 0;
  private closed = false;
  private wake: (() => void) | null = null;

  get isOpen(): boolean {
    return !this.closed;
  }

  /** Requests being handled now. */
  get activeRequests(): number {
    return this.inside;
  }

  /** False when the gate is closed (the request must be refused, and must not call `leave`). */
  enter(): boolean {
    if (this.closed) return false;
    this.inside += 1;
    return true;
  }

  leave(): void {
    this.inside -= 1;
    this.wake?.();
  }

  /**
   * Closes the gate; resolves true once at most `own` requests are inside (the caller's), or
   * false after `timeoutMs` with more still inside (the gate stays closed either way). Only
   * one caller may hold the gate closed: a second `close` resolves false at once.
   */
  async close(own: number, timeoutMs: number): Promise<boolean> {
    if (this.closed) return false;
    this.closed = true;
    const deadline = Date.now() + timeoutMs;
    while (this.inside > own) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
    return true;
  }

  open(): void {
    this.closed = false;
  }
}
