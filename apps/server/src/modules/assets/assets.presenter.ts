import type { Asset, AssetIncident, SoftwareItem } from '@soc/contracts';
import type { AssetsRepository } from './assets.repository.ts';

type AssetRow = NonNullable<Awaited<ReturnType<AssetsRepository['byCmdbId']>>>;
type IncidentRow = Awaited<ReturnType<AssetsRepository['incidents']>>['rows'][number];
type SoftwareRow = Awaited<ReturnType<AssetsRepository['software']>>['rows'][number];

export const presentAsset = ({ asset, system }: AssetRow): Asset => ({
  cmdb_id: asset.cmdbId,
  name: asset.name,
  asset_type: asset.assetType,
  os: asset.os,
  ip_address: asset.ipAddress,
  fqdn: asset.fqdn,
  mac_address: asset.macAddress,
  criticality: asset.criticality,
  owner: asset.owner,
  location: asset.location,
  first_seen: asset.firstSeenAt.getTime(),
  last_seen: asset.lastSeenAt.getTime(),
  system: { id: system.id, is_id: system.isId, full_name: system.fullName },
});

export const presentAssetIncident = (r: IncidentRow): AssetIncident => ({
  key: r.key,
  summary: r.summary,
  status: r.status,
  priority: r.priority,
  created: r.created.getTime(),
});

export const presentSoftware = (r: SoftwareRow): SoftwareItem => ({
  id: r.id,
  name: r.name,
  vendor: { name: r.vendor },
  version: r.version,
  install_time: r.installTime ? r.installTime.getTime() : null,
});
