import type { Asset, AssetChoices, AssetIncident, AssetListQuery, SoftwareItem } from '@soc/contracts';
import { ASSET_CRITICALITY_VALUES, ASSET_TYPE_VALUES } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/http-errors.ts';
import type { AuthContext } from '../../core/auth.ts';
import { systemScope } from '../../core/auth.ts';
import { presentAsset, presentAssetIncident, presentSoftware } from './assets.presenter.ts';
import { createAssetsRepository } from './assets.repository.ts';

interface Page<T> {
  total: number;
  results: T[];
}

/** The asset inventory, read-only (product §B6): customers see their systems' assets. */
export function createAssetsService(db: Db) {
  const repo = createAssetsRepository(db);

  /** Another tenant's asset is a 404 (design §4). */
  const load = async (auth: AuthContext, cmdbId: string) => {
    const row = await repo.byCmdbId(systemScope(auth), cmdbId);
    if (!row) throw notFound();
    return row;
  };

  return {
    async list(auth: AuthContext, q: AssetListQuery): Promise<Page<Asset>> {
      const { rows, total } = await repo.list(systemScope(auth), q);
      return { total, results: rows.map(presentAsset) };
    },

    async choices(auth: AuthContext): Promise<AssetChoices> {
      return {
        asset_types: [...ASSET_TYPE_VALUES],
        criticalities: [...ASSET_CRITICALITY_VALUES],
        os: await repo.osChoices(systemScope(auth)),
      };
    },

    async asset(auth: AuthContext, cmdbId: string): Promise<Asset> {
      return presentAsset(await load(auth, cmdbId));
    },

    async incidents(
      auth: AuthContext,
      cmdbId: string,
      limit: number,
      offset: number,
    ): Promise<Page<AssetIncident>> {
      const { asset } = await load(auth, cmdbId);
      const { rows, total } = await repo.incidents(asset.cmdbId, asset.systemId, limit, offset);
      return { total, results: rows.map(presentAssetIncident) };
    },

    async software(
      auth: AuthContext,
      cmdbId: string,
      limit: number,
      offset: number,
      search?: string,
    ): Promise<Page<SoftwareItem>> {
      const { asset } = await load(auth, cmdbId);
      const { rows, total } = await repo.software(asset.id, limit, offset, search);
      return { total, results: rows.map(presentSoftware) };
    },
  };
}
export type AssetsService = ReturnType<typeof createAssetsService>;
