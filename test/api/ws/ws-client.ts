/**
 * A bare WebSocket test client: connects to the test server, records every frame (JSON
 * parsed, or the raw text for "pong"), and waits for frames with a bounded timeout.
 */
import { createHmac } from 'node:crypto';
import type { TestContext } from 'node:test';
import WebSocket from 'ws';

export type Frame = Record<string, unknown> & {
  event?: string;
  action?: string;
  code?: number;
  msg?: string;
  arg?: Record<string, string>;
  data?: unknown[];
};

export class WsTestClient {
  readonly frames: (Frame | string)[] = [];
  private waiters: (() => void)[] = [];
  closeCode: number | null = null;
  closeReason = '';

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const text = data.toString();
      let frame: Frame | string = text;
      try {
        frame = JSON.parse(text) as Frame;
      } catch {
        frame = text;
      }
      this.frames.push(frame);
      this.wake();
    });
    socket.on('close', (code, reason) => {
      this.closeCode = code;
      this.closeReason = reason.toString();
      this.wake();
    });
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }

  static async open(baseUrl: string, path: string, t?: TestContext): Promise<WsTestClient> {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}${path}`);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const client = new WsTestClient(socket);
    t?.after(() => client.close());
    return client;
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  close(): void {
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING)
      this.socket.terminate();
  }

  /** JSON frames only. */
  get json(): Frame[] {
    return this.frames.filter((frame): frame is Frame => typeof frame !== 'string');
  }

  /** Waits until `predicate` holds for some frame received from `from` on; returns it. */
  async waitFor(predicate: (frame: Frame) => boolean, timeoutMs = 3000, from = 0): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.json.slice(from).find(predicate);
      if (found) return found;
      if (this.closeCode !== null) throw new Error(`socket closed (${this.closeCode} ${this.closeReason})`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out; frames: ${JSON.stringify(this.frames).slice(-1500)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits for the connection to close; returns its code. */
  async waitClosed(timeoutMs = 3000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (this.closeCode === null) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('socket did not close');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.closeCode;
  }

  /** Frames on a channel (v2 `channel` or v3 `topic`) that are pushes, in order. */
  pushes(channel: string): Frame[] {
    return this.json.filter(
      (frame) =>
        frame.action !== undefined && (frame.arg?.channel === channel || frame.arg?.topic === channel),
    );
  }

  async login(
    key: { apiKey: string; secretKey: string; passphrase: string },
    timestamp?: string,
  ): Promise<Frame> {
    const stamp = timestamp ?? String(Math.round(Date.now() / 1000));
    const sign = createHmac('sha256', key.secretKey).update(`${stamp}GET/user/verify`).digest('base64');
    const from = this.json.length;
    this.send({
      op: 'login',
      args: [{ apiKey: key.apiKey, passphrase: key.passphrase, timestamp: stamp, sign }],
    });
    return this.waitFor((frame) => frame.event === 'login' || frame.event === 'error', 3000, from);
  }

  async subscribe(args: Record<string, string>[]): Promise<Frame[]> {
    const from = this.json.length;
    this.send({ op: 'subscribe', args });
    const answers: Frame[] = [];
    for (let index = 0; index < args.length; index += 1) {
      answers.push(
        await this.waitFor(
          (frame) => (frame.event === 'subscribe' || frame.event === 'error') && !answers.includes(frame),
          3000,
          from,
        ),
      );
    }
    return answers;
  }
}
