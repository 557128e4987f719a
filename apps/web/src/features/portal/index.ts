// What other features and app/ may use of this feature (design §10.10).
export { portalKeys } from './api/portalKeys.ts';
export { prefetchPortalConfig, usePortalConfigQuery } from './api/usePortalConfigQuery.ts';
