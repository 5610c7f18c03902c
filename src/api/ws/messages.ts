/** Push frames: {"action","arg","data","ts"} — the shape both dialects use. */
import type { Channel } from './channels.ts';

export type Action = 'snapshot' | 'update';

export function pushText(channel: Channel, action: Action, data: unknown[], timeMs: number): string {
  return JSON.stringify({ action, arg: channel.arg, data, ts: timeMs });
}
