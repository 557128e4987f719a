import type { Branding, BrandingUpdate } from '@soc/contracts';
import { BrandingUpdateSchema } from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import type { Db } from '../../db/client.ts';
import type { AdminCaller } from './admin-caller.ts';
import { adminRecorder } from './admin-caller.ts';
import { createAdminRepository } from './admin.repository.ts';
import { BRANDING_KEY, effectiveBranding, mergeBranding } from './branding.ts';
import { createSystemsAdmin } from './systems.service.ts';
import { createUsersAdmin } from './users.service.ts';

/**
 * Administration of systems, contracts, services with SLA, contacts, users and branding
 * (issue 13), shared by the admin API and `npm run admin`. Every change is audited.
 */
export interface AdminServiceOptions {
  db: Db;
  config: Config;
  /**
   * Called once a change of a user's account, systems or sessions committed, so that this
   * instance's auth cache forgets them before the next request (other instances learn it from the
   * database's NOTIFY).
   */
  onUserChanged?: (userId: number) => void;
}

/** The systems part (systems.service.ts), the users part (users.service.ts) and branding. */
export function createAdminService({ db, config, onUserChanged = () => undefined }: AdminServiceOptions) {
  const repo = createAdminRepository(db);
  const record = adminRecorder(db);
  return {
    repo,
    ...createSystemsAdmin(db, repo),
    ...createUsersAdmin(db, repo, onUserChanged),

    branding: (): Promise<Branding> => effectiveBranding(db, config),

    async updateBranding(raw: BrandingUpdate, caller: AdminCaller): Promise<Branding> {
      const input = BrandingUpdateSchema.parse(raw);
      const stored = (await repo.setting(BRANDING_KEY)) ?? {};
      await repo.putSetting(BRANDING_KEY, mergeBranding(stored, input), caller.userId);
      await record(caller, 'settings.branding', 'settings', BRANDING_KEY, { fields: Object.keys(input) });
      return effectiveBranding(db, config);
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
