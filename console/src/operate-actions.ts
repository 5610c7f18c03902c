/**
 * The Operate view's forms of accounts, keys and money: each an operator route, its fields
 * and how they make the request (components.tsx, ActionForm).
 */
import type { Action } from './components.tsx';

export const CATEGORIES = [
  'SPOT',
  'MARGIN',
  'USDT-FUTURES',
  'COIN-FUTURES',
  'USDC-FUTURES',
  'SUSDT-FUTURES',
  'SCOIN-FUTURES',
  'SUSDC-FUTURES',
];
export const FUTURES = CATEGORIES.filter((name) => name.endsWith('FUTURES'));

export const ACCOUNT_ACTIONS: Action[] = [
  {
    id: 'account-create',
    title: 'Create account',
    method: 'POST',
    path: '/accounts',
    fields: [
      { name: 'mode', type: 'select', options: ['classic', 'unified'] },
      { name: 'kind', type: 'select', options: ['main', 'sub', 'virtual'] },
      { name: 'parentUid', label: 'parent uid', placeholder: 'for sub and virtual' },
      { name: 'label' },
    ],
  },
  {
    id: 'key-create',
    title: 'Create API key',
    method: 'POST',
    path: '/accounts/:uid/api-keys',
    fields: [
      { name: 'uid', required: true, inPath: true },
      { name: 'label' },
      { name: 'permissions', type: 'list', placeholder: 'default: all' },
      { name: 'ipList', type: 'list', placeholder: 'default: any address' },
      { name: 'passphrase', type: 'password', placeholder: 'random if empty' },
    ],
  },
];

export const KEY_ACTIONS: Action[] = [
  {
    id: 'key-list',
    title: 'List API keys',
    method: 'GET',
    path: '/api-keys?uid=:uid&status=:status',
    fields: [
      { name: 'uid', inPath: true, placeholder: 'any account' },
      { name: 'status', type: 'select', options: ['', 'normal', 'frozen'], inPath: true },
    ],
  },
  {
    id: 'key-edit',
    title: 'Edit API key',
    method: 'PATCH',
    path: '/api-keys/:apiKey',
    fields: [
      { name: 'apiKey', label: 'API key', required: true, inPath: true },
      { name: 'status', type: 'select', options: ['', 'normal', 'frozen'] },
      { name: 'permissions', type: 'list', placeholder: 'unchanged if empty' },
      { name: 'ipList', type: 'list', placeholder: 'unchanged if empty' },
      { name: 'label', placeholder: 'unchanged if empty' },
    ],
  },
  {
    id: 'key-revoke',
    title: 'Revoke API key',
    method: 'DELETE',
    path: '/api-keys/:apiKey',
    fields: [{ name: 'apiKey', label: 'API key', required: true, inPath: true }],
    confirm: 'Revoke this API key? Bots using it stop at once.',
  },
];

const moneyFields = (direction: string) => [
  { name: 'uid', required: true, inPath: true },
  { name: 'coin', required: true, value: 'USDT' },
  { name: 'amount', type: 'number' as const, required: true },
  { name: 'wallet', placeholder: 'default: spot (classic) / unified' },
  { name: 'subType', type: 'select' as const, options: ['onchain', 'internal', 'fast'] },
  {
    name: 'status',
    type: 'select' as const,
    options: ['success', 'pending'],
    label: `status (pending ${direction})`,
  },
];

export const MONEY_ACTIONS: Action[] = [
  {
    id: 'deposit',
    title: 'Deposit',
    method: 'POST',
    path: '/accounts/:uid/deposits',
    fields: moneyFields('waits to be settled'),
  },
  {
    id: 'withdraw',
    title: 'Withdraw',
    method: 'POST',
    path: '/accounts/:uid/withdrawals',
    fields: moneyFields('freezes the amount'),
  },
  {
    id: 'settle',
    title: 'Settle a pending deposit or withdrawal',
    submitLabel: 'Settle',
    method: 'POST',
    path: '/funding/:recordId/settle',
    fields: [
      { name: 'recordId', label: 'record id', required: true, inPath: true },
      { name: 'status', type: 'select', options: ['success', 'fail'] },
    ],
  },
  {
    id: 'address-get',
    title: 'Whose deposit address',
    submitLabel: 'Look up',
    method: 'GET',
    path: '/deposit-addresses/:address',
    fields: [{ name: 'address', required: true, inPath: true, placeholder: '0x…' }],
  },
  {
    id: 'address-deposit',
    title: 'Credit a deposit address',
    submitLabel: 'Credit',
    method: 'POST',
    path: '/deposit-addresses/:address/deposits',
    fields: [
      { name: 'address', required: true, inPath: true, placeholder: '0x…' },
      { name: 'amount', type: 'number', required: true },
      { name: 'status', type: 'select', options: ['success', 'pending'] },
      { name: 'fromAddress', label: 'from address' },
      { name: 'txId', label: 'chain tx id', placeholder: 'bourse-deposit-{id} if empty' },
    ],
  },
];
