/**
 * One WebSocket to the venue's public push (`/v2/ws/public`), shared by every view. Views
 * subscribe to channels by argument and get each push (`snapshot` or `update`); the socket
 * sends at most one subscribe and one unsubscribe message per 250 ms however many views change (the server
 * allows 10 messages a second), pings every 20 s (it closes a connection idle for 2 min), and
 * reconnects with backoff, subscribing again (each channel then sends a fresh snapshot).
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

const keyOf = (arg: ChannelArg) => `${arg.instType}|${arg.channel}|${arg.instId}`;

class PublicFeed {
  private socket: WebSocket | null = null;
  private readonly listeners = new Map<string, { arg: ChannelArg; listeners: Set<Listener> }>();
  private readonly toSubscribe = new Map<string, ChannelArg>();
  private readonly toUnsubscribe = new Map<string, ChannelArg>();
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private retryMs = 500;
  private readonly statusListeners = new Set<(open: boolean) => void>();
  open = false;

  subscribe<Row>(arg: ChannelArg, listener: (push: Push<Row>) => void): () => void {
    const key = keyOf(arg);
    let entry = this.listeners.get(key);
    if (!entry) {
      entry = { arg, listeners: new Set() };
      this.listeners.set(key, entry);
      this.toUnsubscribe.delete(key);
      this.toSubscribe.set(key, arg);
      this.schedule();
    }
    const added = listener as Listener;
    entry.listeners.add(added);
    return () => {
      const current = this.listeners.get(key);
      if (!current) return;
      current.listeners.delete(added);
      if (current.listeners.size > 0) return;
      this.listeners.delete(key);
      if (!this.toSubscribe.delete(key)) this.toUnsubscribe.set(key, arg);
      this.schedule();
    };
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
      setTimeout(() => this.connect(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, 10_000);
    };
  }

  private setOpen(open: boolean): void {
    this.open = open;
    for (const listener of this.statusListeners) listener(open);
  }

  private receive(text: string): void {
    if (text === 'pong') return;
    let message: { arg?: ChannelArg; action?: string; data?: unknown[] };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    if (!message.arg || !message.data || (message.action !== 'snapshot' && message.action !== 'update'))
      return;
    const entry = this.listeners.get(keyOf(message.arg));
    if (!entry) return;
    const push: Push<unknown> = { action: message.action, data: message.data };
    for (const listener of entry.listeners) listener(push);
  }

  private schedule(): void {
    if (!this.socket) {
      this.connect();
      return;
    }
    this.flushTimer ??= setTimeout(() => this.flush(), 250);
  }

  private flush(): void {
    this.flushTimer = null;
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    if (this.toUnsubscribe.size > 0) {
      socket.send(JSON.stringify({ op: 'unsubscribe', args: [...this.toUnsubscribe.values()] }));
      this.toUnsubscribe.clear();
    }
    if (this.toSubscribe.size > 0) {
      socket.send(JSON.stringify({ op: 'subscribe', args: [...this.toSubscribe.values()] }));
      this.toSubscribe.clear();
    }
  }
}

export const publicFeed = new PublicFeed();
