/**
 * The Operate view's forms of prices, instruments, brokers and the venue: each an operator
 * route, its fields and how they make the request (components.tsx, ActionForm).
 */
import type { Action } from './components.tsx';
import { CATEGORIES, FUTURES } from './operate-actions.ts';

export const MARKET_ACTIONS: Action[] = [
  {
    id: 'price',
    title: 'Set index price',
    method: 'PUT',
    path: '/prices',
    fields: [
      { name: 'category', type: 'select', options: CATEGORIES, value: 'USDT-FUTURES' },
      { name: 'symbol', required: true, value: 'BTCUSDT' },
      { name: 'indexPrice', label: 'index price', type: 'number', required: true },
    ],
  },
  {
    id: 'funding-rate',
    title: 'Fix funding rate',
    method: 'PUT',
    path: '/funding-rates',
    fields: [
      { name: 'category', type: 'select', options: FUTURES },
      { name: 'symbol', required: true, value: 'BTCUSDT' },
      { name: 'rate', placeholder: '0.0001, or empty to release', type: 'number' },
    ],
    body: (values) => ({
      category: values.category,
      symbol: values.symbol,
      rate: values.rate ? values.rate : null,
    }),
  },
  {
    id: 'instrument-add',
    title: 'Add instrument',
    method: 'POST',
    path: '/instruments',
    fields: [
      {
        name: 'record',
        label: 'fields (JSON)',
        type: 'json',
        required: true,
        placeholder: '{"category":"SPOT","symbol":"SOLUSDT","baseCoin":"SOL","quoteCoin":"USDT"}',
      },
    ],
  },
  {
    id: 'instrument-patch',
    title: 'Edit instrument (status, fees, …)',
    method: 'PATCH',
    path: '/instruments',
    fields: [
      { name: 'category', type: 'select', options: CATEGORIES },
      { name: 'symbol', required: true },
      {
        name: 'status',
        type: 'select',
        options: ['', 'listed', 'online', 'limit_open', 'offline', 'restricted'],
      },
      {
        name: 'changes',
        label: 'other fields (JSON)',
        type: 'json',
        placeholder: '{"takerFeeRate":"0.002"}',
      },
    ],
  },
];

export const BROKER_ACTIONS: Action[] = [
  {
    id: 'agent-register',
    title: 'Register agent',
    method: 'POST',
    path: '/agents',
    fields: [
      { name: 'uid', required: true },
      { name: 'rebateRate', label: 'rebate rate', required: true, placeholder: '0.3' },
      { name: 'spotRebateRate', label: 'spot rate' },
      { name: 'marginRebateRate', label: 'margin rate' },
      { name: 'futuresRebateRate', label: 'futures rate' },
    ],
  },
  {
    id: 'agent-get',
    title: 'Show agent',
    method: 'GET',
    path: '/agents/:uid',
    fields: [{ name: 'uid', required: true, inPath: true }],
  },
  {
    id: 'agent-customer',
    title: 'Add customer to agent',
    method: 'POST',
    path: '/agents/:uid/customers',
    fields: [
      { name: 'uid', label: 'agent uid', required: true, inPath: true },
      { name: 'customerUid', label: 'customer uid', required: true },
    ],
  },
  {
    id: 'kyc',
    title: 'Set KYC result',
    method: 'PUT',
    path: '/accounts/:uid/kyc',
    fields: [
      { name: 'uid', required: true, inPath: true },
      { name: 'result', type: 'select', options: ['passed', 'not_passed'] },
    ],
  },
];

export const VENUE_ACTIONS: Action[] = [
  {
    id: 'reset',
    title: 'Reset the venue',
    method: 'POST',
    path: '/reset',
    fields: [],
    confirm: 'Reset the venue to its first-start state? Every account, order and balance is dropped.',
    body: () => ({}),
  },
];
