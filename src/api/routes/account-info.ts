/**
 * Account information: v2 spot account/info (classic) and v3 account/settings (unified;
 * a classic account gets 40084 there, which is how ccxt tells the two apart).
 */
import { positionModeOf } from '../../engine/futures/settings.ts';
import { reject, caller, type Route } from '../request.ts';
import type { Services } from '../services.ts';

export function accountInfoRoutes(services: Services): Route[] {
  return [
    {
      method: 'GET',
      path: '/api/v2/spot/account/info',
      auth: 'signed',
      dialect: 'v2-spot',
      accountMode: 'classic',
      rateLimit: { perSecond: 1, by: 'uid' },
      handler: (request) => {
        const { account, key } = caller(request);
        return {
          userId: account.uid,
          inviterId: '',
          channelCode: '',
          channel: '',
          ips: key.ipList.join(','),
          authorities: [...key.permissions],
          parentId: Number(account.parentUid ?? account.uid),
          traderType: 'not_trader',
          regisTime: String(account.createdTimeMs),
        };
      },
    },
    {
      method: 'GET',
      path: '/api/v3/account/settings',
      auth: 'signed',
      dialect: 'v3',
      accountMode: 'unified',
      rateLimit: { perSecond: 10, by: 'uid' },
      handler: (request) => {
        const { account } = caller(request);
        if (account.mode !== 'unified') reject('CLASSIC_ACCOUNT_ON_UNIFIED_API');
        return {
          uid: account.uid,
          accountMode: 'unified',
          assetMode: 'multi_assets',
          accountLevel: 'advanced',
          // The account's mode on USDT-M, the line set-hold-mode always sets.
          holdMode: positionModeOf(services.sequencer.exchange.state, account.uid, 'USDT-FUTURES'),
          stpMode: 'none',
          symbolConfigList: [],
          coinConfigList: [],
        };
      },
    },
  ];
}
