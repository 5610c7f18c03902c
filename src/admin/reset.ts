/**
 * The operator's reset (POST /admin/v1/reset, `bourse-admin reset`): the venue goes back to
 * its first-start state while the server stays up: accounts, keys, balances, orders, positions
 * and the whole journal go; the default instruments and prices, the funded demo account (with
 * the fixed BOURSE_DEMO_* credentials when set) and the liquidity provider's house account are
 * made again, as on an empty store (bootstrap.ts `seedFirstStart`).
 *
 * The steps, in order: the request gate closes (new requests get 40015, WebSocket upgrades
 * 503) and the reset waits for requests in flight; every WebSocket connection is closed (1012,
 * "service restart"); the price feeds and the liquidity provider stop; the first-start
 * commands run through a fresh engine in memory (StagedJournal); Sequencer.replace makes that
 * engine current and its journal the store's whole contents in one transaction; then
 * credentials.json is replaced (written beside it first, renamed once the store committed),
 * the WebSocket book mirror is reseeded, the market restarts on the new state and the gate
 * opens.
 *
 * All or nothing: nothing of the old state is touched before the store commits; if it fails,
 * memory stays equal to what the store holds, the market restarts on it and the answer is an
 * error. Limits: requests still running after DRAIN_LIMIT_MS make the reset give up (40015)
 * rather than swap the state under them; one reset at a time.
 */
import { renameSync, rmSync } from 'node:fs';
import { seedFirstStart, type FirstStart, type Seeded } from '../bootstrap.ts';
import type { RequestGate } from '../api/request-gate.ts';
import { reject, Rejected } from '../api/request.ts';
import type { Services } from '../api/services.ts';
import { CLOSE_RESET } from '../api/ws/connection.ts';
import type { WsGateway } from '../api/ws/gateway.ts';
import type { Market } from '../market/index.ts';
import type { Clock } from '../ports/clock.ts';
import { realClock, simulatedClock } from '../runtime/clocks.ts';
import { StagedJournal } from '../runtime/staged-journal.ts';
import { writePrivateFile } from '../security/private-files.ts';
import type { StoredCredentials } from '../startup/credentials.ts';

/** How long the reset waits for requests already running. */
export const DRAIN_LIMIT_MS = 10_000;

export interface VenueParts {
  services: Services;
  /** The edge's request gate (the same as `services.gate`). */
  gate: RequestGate;
  websocket: WsGateway;
  /** The market as started with the server; restarted by each reset. */
  market: Market;
  startMarket: () => Promise<Market>;
  firstStart: FirstStart;
  /** BOURSE_CLOCK_START: where a simulated clock starts again (else the wall time of the reset). */
  clockStartMs: number | undefined;
  credentialsFile: string;
  credentials: StoredCredentials;
  log: (message: string, fields?: Record<string, unknown>) => void;
}

export interface ResetAnswer {
  demo: { uid: string; apiKey: string; secretKey: string; passphrase: string; fixed: boolean } | null;
  liquidityProviderUid: string | null;
  closedWebSockets: number;
  /** Journal entries of the new first start. */
  journalEntries: number;
  ts: string;
}

/** The reset's own request is inside the gate while it waits for the others. */
const OWN_REQUESTS = 1;

export class VenueControl {
  private currentMarket: Market;
  private currentCredentials: StoredCredentials;
  private running: Promise<ResetAnswer> | null = null;
  /** The server is stopping: a reset in flight finishes without restarting the market. */
  private stopped = false;

  constructor(private readonly parts: VenueParts) {
    this.currentMarket = parts.market;
    this.currentCredentials = parts.credentials;
    const fixed = parts.firstStart.demoCredentials;
    if (fixed && !parts.services.sequencer.exchange.state.apiKeys.has(fixed.apiKey)) {
      parts.log('fixed demo credentials are not in the store', {
        apiKey: fixed.apiKey,
        advice: 'they apply to a fresh store and to a reset (POST /admin/v1/reset)',
      });
    }
  }

  get market(): Market {
    return this.currentMarket;
  }

  get credentials(): StoredCredentials {
    return this.currentCredentials;
  }

  reset(): Promise<ResetAnswer> {
    if (this.running || this.stopped) reject('SERVICE_RESETTING');
    const running = this.gated().finally(() => {
      this.running = null;
    });
    this.running = running;
    return running;
  }

  /** Waits for a reset in flight, then stops the market (server shutdown). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running?.catch(() => undefined);
    await this.currentMarket.stop();
  }

  private async gated(): Promise<ResetAnswer> {
    const { gate } = this.parts;
    try {
      if (!(await gate.close(OWN_REQUESTS, DRAIN_LIMIT_MS))) {
        this.parts.log('reset abandoned: requests still running', { requests: gate.activeRequests });
        reject('SERVICE_RESETTING');
      }
      return await this.swap();
    } finally {
      gate.open();
    }
  }

  private async swap(): Promise<ResetAnswer> {
    const { services, websocket } = this.parts;
    const closedWebSockets = websocket.disconnectAll(CLOSE_RESET, 'the venue was reset');
    await this.currentMarket.stop();
    try {
      const staged = new StagedJournal();
      const seeded = await seedFirstStart(
        staged,
        this.stagingClock(staged),
        services.box,
        this.parts.firstStart,
      );
      const credentials = this.credentialsAfter(seeded);
      const pending = this.writePending(credentials);
      const outcome = await services.sequencer.replace(staged.exchange, staged.entries);
      if (!outcome.ok) {
        rmSync(pending, { force: true });
        throw new Rejected(outcome);
      }
      this.install(pending, credentials);
      websocket.hub.reseed();
      this.parts.log('venue reset', { journalEntries: staged.entries.length, closedWebSockets });
      return this.answer(seeded, closedWebSockets, staged.entries.length);
    } finally {
      if (!this.stopped) this.currentMarket = await this.parts.startMarket();
    }
  }

  /** The clock of the staged commands: a simulated one starts again, as on a fresh store. */
  private stagingClock(staged: StagedJournal): Clock {
    if (!this.parts.services.clock.simulated) return realClock();
    return simulatedClock(() => staged.exchange.state.nowMs, this.parts.clockStartMs ?? Date.now());
  }

  private credentialsAfter(seeded: Seeded): StoredCredentials {
    const { operatorToken, baseUrl } = this.currentCredentials;
    const demo = seeded.demo
      ? {
          uid: seeded.demo.uid,
          apiKey: seeded.demo.apiKey,
          secretKey: seeded.demo.secretKey,
          passphrase: seeded.demo.passphrase,
        }
      : {};
    return { ...(baseUrl ? { baseUrl } : {}), ...demo, operatorToken };
  }

  /** credentials.json's next content, beside it (mode 0600), renamed into place after the commit. */
  private writePending(credentials: StoredCredentials): string {
    const pending = `${this.parts.credentialsFile}.reset`;
    try {
      writePrivateFile(pending, `${JSON.stringify(credentials, null, 2)}\n`);
    } catch (error) {
      this.parts.log('reset refused: credentials.json cannot be written', { error: String(error) });
      reject('STORE_UNAVAILABLE');
    }
    return pending;
  }

  private install(pending: string, credentials: StoredCredentials): void {
    this.currentCredentials = credentials;
    try {
      renameSync(pending, this.parts.credentialsFile);
    } catch (error) {
      // The venue was reset all the same; the answer carries the credentials.
      this.parts.log('credentials.json not replaced after the reset', { error: String(error) });
    }
  }

  private answer(seeded: Seeded, closedWebSockets: number, journalEntries: number): ResetAnswer {
    const fixed = this.parts.firstStart.demoCredentials !== undefined;
    return {
      demo: seeded.demo ? { ...seeded.demo, fixed } : null,
      liquidityProviderUid: seeded.liquidityUid,
      closedWebSockets,
      journalEntries,
      ts: String(this.parts.services.wallNow()),
    };
  }
}
