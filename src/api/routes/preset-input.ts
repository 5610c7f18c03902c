/**
 * Reading the TP/SL presets of ordinary orders off the wire (docs/triggers.md, "Presets on
 * orders"): v2 mix `presetStopSurplusPrice` / `presetStopLossPrice` with their
 * `…ExecutePrice` (a limit TP/SL) and `…Type` (trigger source, `fill_price` by default); v3
 * `takeProfit` / `stopLoss` with `tpTriggerBy` / `slTriggerBy` (`market` = last price, the
 * default; `mark`), `tpOrderType` / `slOrderType` and `tpLimitPrice` / `slLimitPrice`.
 * An empty or zero trigger price means no preset, as on the venue.
 *
 * v2 spot: `presetTakeProfitPrice` / `presetStopLossPrice` with `executeTakeProfitPrice` /
 * `executeStopLossPrice` (a limit TP/SL), on the last price.
 *
 * Presets are never accepted and dropped: a close order's are refused here with the wire's
 * field names (the engine checks again), and spot TP/SL orders (`tpslType: tpsl`) and presets
 * on cancel-replace are refused (SPOT_TPSL_UNSUPPORTED; spot trigger orders are the v2 spot
 * plan routes).
 */
import type { OrderRequest } from '../../domain/commands.ts';
import { TRIGGER_TYPES, type PlanPreset } from '../../domain/plan.ts';
import { optionalDecimal, optionalEnum, optionalString, type Fields } from '../params.ts';
import { reject } from '../request.ts';
import { isZero } from './plan-input.ts';
import { LEG_FIELDS, legOf, presetOfLeg } from './strategy-input.ts';

type Presets = Pick<OrderRequest, 'takeProfit' | 'stopLoss'>;

function v2MixPreset(fields: Fields, name: 'StopSurplus' | 'StopLoss'): PlanPreset | undefined {
  const triggerPrice = optionalDecimal(fields, `preset${name}Price`);
  const executePrice = optionalDecimal(fields, `preset${name}ExecutePrice`);
  const triggerType = optionalEnum(fields, `preset${name}Type`, TRIGGER_TYPES);
  if (triggerPrice === undefined || isZero(triggerPrice)) {
    if (!isZero(executePrice)) reject('PARAM_EMPTY', `preset${name}Price`);
    return undefined;
  }
  return {
    triggerPrice,
    triggerType: triggerType ?? 'fill_price',
    executePrice: executePrice === undefined || isZero(executePrice) ? '' : executePrice,
  };
}

/** Copies the presets that are set onto the request. */
function withPresets(request: OrderRequest, presets: Presets): OrderRequest {
  if (presets.takeProfit) request.takeProfit = presets.takeProfit;
  if (presets.stopLoss) request.stopLoss = presets.stopLoss;
  return request;
}

/** v2 mix presets; `closing`: the order closes (hedge tradeSide close, one-way reduceOnly). */
export function v2MixPresets(fields: Fields, request: OrderRequest, closing: boolean): OrderRequest {
  const takeProfit = v2MixPreset(fields, 'StopSurplus');
  const stopLoss = v2MixPreset(fields, 'StopLoss');
  if (closing && (takeProfit || stopLoss))
    reject('PARAM_ERROR', takeProfit ? 'presetStopSurplusPrice' : 'presetStopLossPrice');
  return withPresets(request, { ...(takeProfit ? { takeProfit } : {}), ...(stopLoss ? { stopLoss } : {}) });
}

/** A v3 TP or SL leg of a new order; its other fields without the trigger price are refused. */
function v3Preset(fields: Fields, prefix: 'tp' | 'sl'): PlanPreset | undefined {
  const leg = legOf(fields, prefix);
  const names = LEG_FIELDS[prefix];
  if (leg === undefined && optionalDecimal(fields, names.price) === undefined) {
    for (const name of [names.triggerBy, names.orderType, names.limitPrice])
      if (optionalString(fields, name) !== undefined) reject('PARAM_EMPTY', names.price);
  }
  return presetOfLeg(leg);
}

/** v3 presets (closing orders are refused by the engine, which knows the position mode). */
export function v3Presets(fields: Fields, request: OrderRequest): OrderRequest {
  const takeProfit = v3Preset(fields, 'tp');
  const stopLoss = v3Preset(fields, 'sl');
  if (request.reduceOnly && (takeProfit || stopLoss))
    reject('PARAM_ERROR', takeProfit ? 'takeProfit' : 'stopLoss');
  return withPresets(request, { ...(takeProfit ? { takeProfit } : {}), ...(stopLoss ? { stopLoss } : {}) });
}

/** v2 spot: spot TP/SL orders (`tpslType: tpsl`, `triggerPrice`) are refused, never ignored. */
export function refuseSpotTpslOrder(fields: Fields): void {
  if (optionalEnum(fields, 'tpslType', ['normal', 'tpsl'] as const) === 'tpsl')
    reject('SPOT_TPSL_UNSUPPORTED', 'tpslType');
  const trigger = optionalDecimal(fields, 'triggerPrice');
  if (trigger !== undefined && !isZero(trigger)) reject('SPOT_TPSL_UNSUPPORTED', 'triggerPrice');
}

/** cancel-replace: presets and spot TP/SL orders are refused, never ignored. */
export function refuseSpotTpsl(fields: Fields): void {
  for (const name of [
    'presetTakeProfitPrice',
    'presetStopLossPrice',
    'executeTakeProfitPrice',
    'executeStopLossPrice',
  ]) {
    const value = optionalDecimal(fields, name);
    if (value !== undefined && !isZero(value)) reject('SPOT_TPSL_UNSUPPORTED', name);
  }
  refuseSpotTpslOrder(fields);
}

function v2SpotPreset(fields: Fields, name: 'TakeProfit' | 'StopLoss'): PlanPreset | undefined {
  const triggerPrice = optionalDecimal(fields, `preset${name}Price`);
  const executePrice = optionalDecimal(fields, `execute${name}Price`);
  if (triggerPrice === undefined || isZero(triggerPrice)) {
    if (!isZero(executePrice)) reject('PARAM_EMPTY', `preset${name}Price`);
    return undefined;
  }
  // The venue's spot presets have no trigger source field: the last price.
  const executes = executePrice !== undefined && !isZero(executePrice);
  return { triggerPrice, triggerType: 'fill_price', executePrice: executes ? executePrice : '' };
}

/** v2 spot presets: `presetTakeProfitPrice` / `presetStopLossPrice` and their execute prices. */
export function v2SpotPresets(fields: Fields, request: OrderRequest): OrderRequest {
  refuseSpotTpslOrder(fields);
  const takeProfit = v2SpotPreset(fields, 'TakeProfit');
  const stopLoss = v2SpotPreset(fields, 'StopLoss');
  return withPresets(request, { ...(takeProfit ? { takeProfit } : {}), ...(stopLoss ? { stopLoss } : {}) });
}

type PresetChanges = { takeProfit?: PlanPreset | null; stopLoss?: PlanPreset | null };

/**
 * v2 mix modify-order: `newPresetStopSurplusPrice` / `newPresetStopLossPrice` move a preset's
 * trigger (keeping its source and execute price), `0` removes it, absent keeps it.
 */
export function v2ModifiedPresets(fields: Fields, current: Presets | undefined): PresetChanges {
  const changes: PresetChanges = {};
  for (const [name, key] of [
    ['newPresetStopSurplusPrice', 'takeProfit'],
    ['newPresetStopLossPrice', 'stopLoss'],
  ] as const) {
    const triggerPrice = optionalDecimal(fields, name);
    if (triggerPrice === undefined) continue;
    const old = current?.[key];
    changes[key] = isZero(triggerPrice)
      ? null
      : {
          triggerPrice,
          triggerType: old?.triggerType ?? 'fill_price',
          executePrice: old?.executePrice ?? '',
        };
  }
  return changes;
}

/** v3 modify-order: a new TP or SL leg replaces the order's (all its fields), `0` removes it. */
export function v3ModifiedPresets(fields: Fields): PresetChanges {
  const changes: PresetChanges = {};
  for (const [prefix, key] of [
    ['tp', 'takeProfit'],
    ['sl', 'stopLoss'],
  ] as const) {
    const leg = legOf(fields, prefix);
    if (leg === null) changes[key] = null;
    else if (leg) changes[key] = presetOfLeg(leg) ?? null;
    else v3Preset(fields, prefix);
  }
  return changes;
}
