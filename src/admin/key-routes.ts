/**
 * Operator routes of API keys (docs/operator.md, "API keys"): list every key (paged, by key,
 * filtered by owner and status), change one (freeze, unfreeze, permissions, IP whitelist,
 * label) and revoke one. Freezing and revoking are journaled commands (ModifyApiKey,
 * RevokeApiKey): a frozen key is refused with 40013, a revoked one with 40006, and the
 * WebSocket sessions logged in with it are closed once the change is durable.
 */
import { permissionCodesOf } from '../domain/account.ts';
import type { ModifyApiKey } from '../domain/commands.ts';
import { asObject, optionalEnum, optionalString, optionalStringList, type Fields } from '../api/params.ts';
import { reject, unwrap, type Route } from '../api/request.ts';
import type { Services } from '../api/services.ts';
import { cursorOf, keyView, pageOf, pageSize } from './views.ts';

const KEY_STATUSES = ['normal', 'frozen'] as const;

/** The changes a PATCH asks for; at least one. */
function changesOf(body: Fields): Pick<ModifyApiKey, 'permissions' | 'ipList' | 'label' | 'frozen'> {
  const status = optionalEnum(body, 'status', KEY_STATUSES);
  const listed = optionalStringList(body, 'permissions', 64);
  const permissions = listed ? permissionCodesOf(listed) : undefined;
  if (permissions === null) reject('PARAM_ERROR', 'permissions');
  const ipList = optionalStringList(body, 'ipList', 30);
  const label = optionalString(body, 'label');
  if (label !== undefined && label.length > 20) reject('PARAM_ERROR', 'label');
  if (status === undefined && !permissions && !ipList && label === undefined) {
    reject('PARAM_EMPTY', 'status, permissions, ipList or label');
  }
  return {
    ...(status !== undefined ? { frozen: status === 'frozen' } : {}),
    ...(permissions ? { permissions } : {}),
    ...(ipList ? { ipList } : {}),
    ...(label !== undefined ? { label } : {}),
  };
}

export function keyRoutes(services: Services): Route[] {
  const state = () => services.sequencer.exchange.state;
  const route = (method: Route['method'], path: string, handler: Route['handler']): Route => ({
    method,
    path,
    auth: 'operator',
    dialect: 'admin',
    handler,
  });
  const keyNamed = (params: Record<string, string>) => {
    const key = state().apiKeys.get(params.apiKey ?? '');
    if (!key) reject('ACCOUNT_NOT_FOUND', 'apiKey');
    return key;
  };

  return [
    route('GET', '/admin/v1/api-keys', (request) => {
      const { query } = request;
      const uid = optionalString(query, 'uid');
      const status = optionalEnum(query, 'status', KEY_STATUSES);
      const limit = pageSize(query);
      const after = cursorOf(query, /^[A-Za-z0-9_-]{1,64}$/);
      const matching = [...state().apiKeys.values()]
        .filter(
          (key) =>
            (after === undefined || key.apiKey > after) &&
            (uid === undefined || key.uid === uid) &&
            (status === undefined || (status === 'frozen') === Boolean(key.frozen)),
        )
        .sort((a, b) => (a.apiKey < b.apiKey ? -1 : 1));
      return pageOf(matching, limit, (key) => key.apiKey, keyView);
    }),
    route('PATCH', '/admin/v1/api-keys/:apiKey', async (request, params) => {
      const key = keyNamed(params);
      const changes = changesOf(asObject(request.body));
      const command: ModifyApiKey = {
        type: 'ModifyApiKey',
        timeMs: services.clock.now(),
        uid: key.uid,
        apiKey: key.apiKey,
        ...changes,
      };
      unwrap(await services.sequencer.submit(command));
      return keyView(keyNamed(params));
    }),
    route('DELETE', '/admin/v1/api-keys/:apiKey', async (_request, params) => {
      const key = keyNamed(params);
      unwrap(
        await services.sequencer.submit({
          type: 'RevokeApiKey',
          timeMs: services.clock.now(),
          uid: key.uid,
          apiKey: key.apiKey,
        }),
      );
      return { apiKey: key.apiKey, uid: key.uid, status: 'revoked' };
    }),
  ];
}
