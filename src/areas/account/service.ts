// STUB: replaced by the area implementation.

import type { SessionService } from '../../identity/sessions.ts';
import type { ConnectedAppsService } from '../../oauth/connected-apps.ts';
import type { AreaDeps } from '../deps.ts';
import type { AccountStore } from './store.ts';

export function accountService(
  deps: AreaDeps & { store: AccountStore } & { sessions: SessionService; connectedApps: ConnectedAppsService },
) {
  return { deps };
}

export type AccountService = ReturnType<typeof accountService>;
