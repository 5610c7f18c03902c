/**
 * One WebSocket to the venue's public push (`/v2/ws/public`), shared by every view. Views
 * subscribe to channels by argument and get each push (`snapshot` or `update`).
 *
 * Within the server's limits (docs/websocket.md): at most two messages per 250 ms (it allows
 * 10 a second) of at most 50 args each; a ping every 20 s (it closes a connection idle for
 * 2 min); a ticker no view uses stays subscribed for a minute (a view that comes back gets its
 * latest row at once), so that moving between views does not spend the connection's
 * subscription requests (240 an hour); channels whose first push is a snapshot a view needs
 * (books, trades, candles) are dropped at once and subscribed again when asked;
 * and when the server refuses a subscription all the same (30006), a new connection is opened
 * and every channel subscribed on it. Reconnects with backoff, subscribing again (each
 * channel then sends a fresh snapshot).
 */

export interface ChannelArg {
  instType: string;
  channel: string;
  instId: string;
}

export interface Push<Row> {
  action: 'snapshot' | 'update';
  data: Row[];
}

type Listener = (push: Push<unknown>) => void;

const LINGER_MS = 60_000;
const ARGS_PER_MESSAGE = 50;
const MESSAGES_PER_FLUSH = 2;
const TOO_MANY = 30006;

const keyOf = (arg: ChannelArg) => `${arg.instType}|${arg.channel}|${arg.instId}`;

class PublicFeed {
  private socket: WebSocket | null = null;
  private readonly listeners = new Map<
    string,
    {
      arg: ChannelArg;
      listeners: Set<Listener>;
      linger: ReturnType<typeof setTimeout> | null;
      /** Tickers: the latest push, for a view that subscribes to a channel already open. */
      latest: Push<unknown> | null;
    }
  >();
  private readonly toSubscribe = new Map<string, ChannelArg>();
  private readonly toUnsubscribe = new Map<string, ChannelArg>();
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private retryMs = 500;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  /** Subscription args sent on this connection (what the hourly limit counts). */
  private argsSent = 0;
  private readonly statusListeners = new Set<(open: boolean) => void>();
  open = false;

  subscribe<Row>(arg: ChannelArg, listener: (push: Push<Row>) => void): () => void {
    const key = keyOf(arg);
    let entry = this.listeners.get(key);
    if (!entry) {
      entry = { arg, listeners: new Set(), linger: null, latest: null };
      this.listeners.set(key, entry);
      this.toUnsubscribe.delete(key);
      this.toSubscribe.set(key, arg);
      this.schedule();
    }
    if (entry.linger) clearTimeout(entry.linger);
    entry.linger = null;
    const added = listener as Listener;
    entry.listeners.add(added);
    if (entry.latest) added(entry.latest);
    return () => {
      const current = this.listeners.get(key);
      if (!current) return;
      current.listeners.delete(added);
      if (current.listeners.size > 0) return;
      if (arg.channel === 'ticker') current.linger = setTimeout(() => this.drop(key), LINGER_MS);
      else this.drop(key);
    };
  }

  private drop(key: string): void {
    const entry = this.listeners.get(key);
    if (!entry || entry.listeners.size > 0) return;
    this.listeners.delete(key);
    if (!this.toSubscribe.delete(key)) this.toUnsubscribe.set(key, entry.arg);
    this.schedule();
  }

  onStatus(listener: (open: boolean) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  private connect(): void {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const socket = new WebSocket(`${scheme}://${location.host}/v2/ws/public`);
    this.socket = socket;
    socket.onopen = () => {
      this.retryMs = 500;
      this.argsSent = 0;
      this.setOpen(true);
      this.toUnsubscribe.clear();
      for (const [key, entry] of this.listeners) this.toSubscribe.set(key, entry.arg);
      this.schedule();
      this.pingTimer = setInterval(() => socket.send('ping'), 20_000);
    };
    socket.onmessage = (event: MessageEvent<string>) => this.receive(event.data);
    socket.onclose = () => {
      if (this.pingTimer) clearInterval(this.pingTimer);
      this.socket = null;
      this.setOpen(false);
      this.reconnectTimer = setTimeout(() => {
        this.reconnectTimer = null;
        this.connect();
      }, this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, 10_000);
    };
  }

  private setOpen(open: boolean): void {
    this.open = open;
    for (const listener of this.statusListeners) listener(open);
  }

  private receive(text: string): void {
    if (text === 'pong') return;
    let message: { arg?: ChannelArg; action?: string; data?: unknown[]; event?: string; code?: number };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    // Refused for a limit of this connection after many subscriptions: a new one starts with
    // none of it spent (a refusal that a new connection would meet too does not loop).
    if (message.event === 'error' && Number(message.code) === TOO_MANY && this.argsSent >= ARGS_PER_MESSAGE) {
      this.socket?.close();
    }
    if (!message.arg || !message.data || (message.action !== 'snapshot' && message.action !== 'update'))
      return;
    const entry = this.listeners.get(keyOf(message.arg));
    if (!entry) return;
    const push: Push<unknown> = { action: message.action, data: message.data };
    if (entry.arg.channel === 'ticker') entry.latest = push;
    for (const listener of entry.listeners) listener(push);
  }

  private schedule(): void {
    if (!this.socket) {
      if (!this.reconnectTimer) this.connect();
      return;
    }
    this.flushTimer ??= setTimeout(() => this.flush(), 250);
  }

  private flush(): void {
    this.flushTimer = null;
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    for (let sent = 0; sent < MESSAGES_PER_FLUSH; sent += 1) {
      const [op, queue] =
        this.toUnsubscribe.size > 0 ? ['unsubscribe', this.toUnsubscribe] : ['subscribe', this.toSubscribe];
      if (queue.size === 0) return;
      const keys = [...queue.keys()].slice(0, ARGS_PER_MESSAGE);
      socket.send(JSON.stringify({ op, args: keys.map((key) => queue.get(key)) }));
      if (op === 'subscribe') this.argsSent += keys.length;
      for (const key of keys) queue.delete(key);
    }
    if (this.toUnsubscribe.size > 0 || this.toSubscribe.size > 0) this.schedule();
  }
}

export const publicFeed = new PublicFeed();
