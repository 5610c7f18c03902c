/**
 * The engine: one command in, one outcome and its events out. Pure and synchronous; the same
 * command stream always yields the same state, events and ids (replay and the state hash
 * stand on it).
 *
 * Time: a command's `timeMs` is when the edge accepted it. The engine's clock never runs
 * backwards (`nowMs` is the maximum seen), and AdvanceClock moves it forward by the given
 * amount for simulated time. Jobs tied to the clock (margin interest, the clientOid window)
 * run before the command, at the command's time.
 */
import type { AdvanceClock, Command, PricePathStream } from '../domain/commands.ts';
import type { EngineEvent } from '../domain/events.ts';
import { CLIENT_OID_WINDOW_MS } from '../domain/order.ts';
import { ok, type Outcome } from '../domain/result-code.ts';
import { createAccount, createApiKey, modifyApiKey, revokeApiKey } from './accounts/accounts.ts';
import { deposit, withdraw } from './accounts/external-flows.ts';
import { convertCoins } from './accounts/convert.ts';
import { createContext, type Context } from './context.ts';
import { rebuildOpenOrderCounts } from './trading/trading-context.ts';
import { addInstrument, patchInstrument, setIndexPrice } from './instruments/instruments.ts';
import { PricePathWalk } from './instruments/price-path.ts';
import { accrueHourlyInterest, HOUR_MS } from './margin/interest.ts';
import { enforceMarginRisk } from './margin/liquidation.ts';
import { flashRepay, repayDebt, repayMargin } from './margin/repay.ts';
import { borrowMargin } from './margin/borrow.ts';
import { cancelWithdrawal, settleFunding } from './accounts/funding-status.ts';
import { createVirtualSubAccount, modifySubAccount } from './accounts/sub-accounts.ts';
import { transferFunds } from './accounts/transfers.ts';
import { referCustomer, registerAgent, setKycResult } from './agents/agents.ts';
import { runBrokerageJobs } from './agents/jobs.ts';
import { createState, type EngineState } from './state.ts';
import { Books } from './trading/books.ts';
import { cancelAllOrders, cancelOrders } from './trading/cancel.ts';
import { modifyOrder } from './trading/modify.ts';
import { replaceOrder } from './trading/replace.ts';
import { placeOrders } from './trading/place.ts';
import { finish, tradingContext, type TradingContext } from './trading/trading-context.ts';
import { closePositions } from './futures/close-positions.ts';
import { settleDeliveriesDue } from './futures/delivery.ts';
import { settleFundingDue, setFundingRate } from './futures/funding.ts';
import { tradingJobsDueMs } from './futures/jobs-due.ts';
import { enforceFuturesRisk } from './futures/liquidation.ts';
import { setAssetMode } from './futures/union.ts';
import { adjustMargin, setLeverage, setMarginMode, setPositionMode } from './futures/settings.ts';
import { cancelPlanOrders } from './triggers/cancel.ts';
import { evaluatePlans } from './triggers/evaluate.ts';
import { modifyPlanOrder } from './triggers/modify.ts';
import { placePlanOrders } from './triggers/place.ts';
import { replacePlanGroup } from './triggers/strategy.ts';

export interface ExecuteResult {
  outcome: Outcome<unknown>;
  events: EngineEvent[];
}

function dispatch(trading: TradingContext, command: Command): Outcome<unknown> {
  const { context } = trading;
  switch (command.type) {
    // Order entry first: a switch on texts compares case by case, and most commands are orders.
    case 'PlaceOrders':
      return placeOrders(trading, command);
    case 'CreateAccount':
      return createAccount(context, command);
    case 'CreateApiKey':
      return createApiKey(context, command);
    case 'ModifyApiKey':
      return modifyApiKey(context, command);
    case 'RevokeApiKey':
      return revokeApiKey(context, command);
    case 'Deposit':
      return deposit(context, command);
    case 'Withdraw':
      return withdraw(context, command);
    case 'ConvertCoins':
      return convertCoins(context, command);
    case 'AddInstrument':
      return addInstrument(context, command);
    case 'PatchInstrument':
      return patchInstrument(context, command);
    case 'SetIndexPrice': {
      const outcome = setIndexPrice(context, command);
      // Plans first: a stop touched on the way fires before the liquidation price is checked.
      if (outcome.ok) {
        evaluatePlans(trading);
        enforceRisk(trading);
      }
      return outcome;
    }
    case 'AdvanceClock':
      enforceRisk(trading);
      return ok({ nowMs: context.nowMs });
    case 'CancelOrders':
      return cancelOrders(trading, command);
    case 'CancelAllOrders':
      return cancelAllOrders(trading, command);
    case 'ModifyOrder':
      return modifyOrder(trading, command);
    case 'ReplaceOrder':
      return replaceOrder(trading, command);
    case 'ClosePositions':
      return closePositions(trading, command);
    case 'RepayDebt':
      return repayDebt(context, command);
    case 'BorrowMargin':
      return borrowMargin(context, command);
    case 'RepayMargin':
      return repayMargin(context, command);
    case 'FlashRepay':
      return flashRepay(context, command);
    case 'TransferFunds':
      return transferFunds(trading, command);
    case 'CreateVirtualSubAccount':
      return createVirtualSubAccount(context, command);
    case 'ModifySubAccount':
      return modifySubAccount(context, command);
    case 'SettleFunding':
      return settleFunding(context, command);
    case 'CancelWithdrawal':
      return cancelWithdrawal(context, command);
    case 'RegisterAgent':
      return registerAgent(context, command);
    case 'ReferCustomer':
      return referCustomer(context, command);
    case 'SetKycResult':
      return setKycResult(context, command);
    case 'SetLeverage':
      return setLeverage(context.state, command);
    case 'SetMarginMode':
      return setMarginMode(context.state, command);
    case 'SetPositionMode':
      return setPositionMode(context.state, command);
    case 'AdjustMargin':
      return adjustMargin(trading, command);
    case 'SetAssetMode':
      return setAssetMode(context.state, trading.books, command);
    case 'SetFundingRate':
      return setFundingRate(trading, command);
    case 'PlacePlanOrders':
      return placePlanOrders(trading, command);
    case 'CancelPlanOrders':
      return cancelPlanOrders(trading, command);
    case 'ModifyPlanOrder':
      return modifyPlanOrder(trading, command);
    case 'ReplacePlanGroup':
      return replacePlanGroup(trading, command);
  }
}

function enforceRisk(trading: TradingContext): void {
  enforceMarginRisk(trading);
  enforceFuturesRisk(trading);
}

/** Orders opened between two renewals of `state.orders` at the least (Exchange.renewOpenOrders). */
const OPEN_ORDERS_RENEW_MIN = 4096;

/**
 * Commands that never list, change or remove an instrument nor touch a funding entry: the
 * time the funding and delivery jobs fall due next, taken after the jobs last ran, still
 * holds after them. Any other command makes the jobs walk the catalogue again.
 */
const KEEPS_TRADING_JOBS_DUE: ReadonlySet<Command['type']> = new Set<Command['type']>([
  'PlaceOrders',
  'CancelOrders',
  'CancelAllOrders',
  'ModifyOrder',
  'ReplaceOrder',
  'PlacePlanOrders',
  'CancelPlanOrders',
  'ModifyPlanOrder',
  'ReplacePlanGroup',
  'Deposit',
  'Withdraw',
  'TransferFunds',
  'CreateAccount',
  'SetIndexPrice',
]);

/** Jobs that run when the clock passes an hour: interest, and forgetting old clientOids. */
function runClockJobs(context: Context): void {
  const { state, nowMs } = context;
  const hourStart = Math.floor(nowMs / HOUR_MS) * HOUR_MS;
  if (hourStart <= state.interestChargedToMs) return;
  accrueHourlyInterest(context);
  for (const [key, entry] of state.clientOids) {
    if (nowMs - entry.timeMs >= CLIENT_OID_WINDOW_MS) state.clientOids.delete(key);
  }
}

export class Exchange {
  readonly books: Books;
  /**
   * When the funding or delivery jobs next have anything to do (futures/jobs-due.ts): before
   * it they are skipped. −∞ until the jobs have walked the catalogue, and after any command
   * that may change it (KEEPS_TRADING_JOBS_DUE). Derived, not state: a fresh engine walks once.
   */
  private tradingJobsDueMs = -Infinity;
  /** `state.nextSequence` when `state.orders` was last renewed (renewOpenOrders). */
  private ordersRenewedAtSequence = 0;

  constructor(public readonly state: EngineState = createState()) {
    // A snapshot written by an older build lacks the fields added since: they start empty.
    const fresh = createState() as unknown as Record<string, unknown>;
    const loaded = state as unknown as Record<string, unknown>;
    for (const key of Object.keys(fresh)) if (!(key in loaded)) loaded[key] = fresh[key];
    this.books = Books.rebuild(state);
    rebuildOpenOrderCounts(state);
  }

  execute(command: Command): ExecuteResult {
    const events: EngineEvent[] = [];
    return { outcome: this.run(command, events), events };
  }

  /**
   * Runs a command whose events nobody keeps (recovery replays the journal: the events' rows
   * were written with it). The state, ids and outcome are exactly those of `execute`; only
   * the report views are not built.
   */
  replay(command: Command): Outcome<unknown> {
    return this.run(command, null);
  }

  private run(command: Command, events: EngineEvent[] | null): Outcome<unknown> {
    try {
      return this.runCommand(command, events);
    } finally {
      // After the command, thrown or not: the next one's jobs see what it changed.
      if (!KEEPS_TRADING_JOBS_DUE.has(command.type)) this.tradingJobsDueMs = -Infinity;
    }
  }

  private runCommand(command: Command, events: EngineEvent[] | null): Outcome<unknown> {
    if (command.type === 'AdvanceClock' && command.path && command.path.length > 0) {
      return this.walk(command, command.path, events);
    }
    const advancedMs = command.type === 'AdvanceClock' ? Math.max(0, command.ms) : 0;
    this.renewOpenOrders();
    const trading = this.enterTime(Math.max(this.state.nowMs, command.timeMs) + advancedMs, events);
    const outcome = dispatch(trading, command);
    // Plan orders are evaluated after every command: any command can move the last price
    // (trades) or the mark price (index, book premium); see engine/triggers/evaluate.ts.
    evaluatePlans(trading);
    // A failed command changed nothing, but clock jobs before it may have: keep their events.
    return outcome;
  }

  /**
   * Moves the open orders into a fresh Map (same entries, same order) once as many orders have
   * been opened since the last time as the Map holds (at least OPEN_ORDERS_RENEW_MIN), so the
   * copies cost at most one entry per order opened. Why: every rehash of a Map's table (it
   * grows, shrinks and clears its deleted entries as orders rest and leave) leaves the old
   * table pointing at its successor. Once a table has been promoted to V8's old generation
   * (the Map left alone through two young collections: any quiet spell), each later table hung
   * from it with the orders it held, and they all survived the young-generation collections
   * until the next full one: on the crossing load every resting-then-filled order was promoted
   * (about 1.2 MB per scavenge, scavenges several times longer; docs/performance.md,
   * 2026-11-26f). A fresh Map starts a chain of its own, young, that dies with its tables.
   */
  private renewOpenOrders(): void {
    const state = this.state;
    const opened = state.nextSequence - this.ordersRenewedAtSequence;
    if (opened < Math.max(state.orders.size, OPEN_ORDERS_RENEW_MIN)) return;
    state.orders = new Map(state.orders);
    this.ordersRenewedAtSequence = state.nextSequence;
  }

  /** Moves the clock to `nowMs` and runs the jobs due by then, at that time. */
  private enterTime(nowMs: number, events: EngineEvent[] | null): TradingContext {
    const state = this.state;
    state.nowMs = Math.max(state.nowMs, nowMs);
    const context = createContext(state, state.nowMs, events);
    runClockJobs(context);
    runBrokerageJobs(context);
    // A fresh touched map and opened set per command, never one kept and cleared: `clear()`
    // (and every rehash) leaves the old table pointing at its successor, so once a kept map's
    // table had been promoted, each command's table hung from it with the orders it held, and
    // every order survived the young-generation collections until the next full one (7 MB
    // promoted per scavenge, a quarter of the engine's time on the crossing stream; 2026-11-26).
    const trading = tradingContext(context, this.books);
    this.runTradingJobs(trading);
    return trading;
  }

  /** Jobs on the clock that need the books: funding and delivery settlements, when due. */
  private runTradingJobs(trading: TradingContext): void {
    if (trading.context.nowMs >= this.tradingJobsDueMs) {
      settleFundingDue(trading);
      settleDeliveriesDue(trading);
      this.tradingJobsDueMs = tradingJobsDueMs(this.state);
    }
    finish(trading);
  }

  /**
   * AdvanceClock along a price path: every step is a moment of its own, in time order (jobs,
   * index prices, triggers, liquidation at the step's time), then the clock lands on the end.
   */
  private walk(
    command: AdvanceClock,
    path: PricePathStream[],
    events: EngineEvent[] | null,
  ): Outcome<unknown> {
    const startMs = Math.max(this.state.nowMs, command.timeMs);
    const endMs = startMs + Math.max(0, command.ms);
    const opened = PricePathWalk.open(this.state.instruments, path, startMs, endMs);
    if (!opened.ok) {
      evaluatePlans(this.enterTime(startMs, events));
      return opened;
    }
    const steps = opened.value;
    for (let atMs = steps.nextMs(); atMs !== null; atMs = steps.nextMs()) {
      const trading = this.enterTime(atMs, events);
      steps.applyAt(trading.context, atMs);
      evaluatePlans(trading);
      enforceRisk(trading);
    }
    const trading = this.enterTime(endMs, events);
    steps.emitBars(trading.context);
    enforceRisk(trading);
    evaluatePlans(trading);
    return ok({ nowMs: this.state.nowMs });
  }
}
