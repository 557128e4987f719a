// What other features and app/ may use of this feature (design §10.10).
export { viewerRouteOfLink } from './lib/filePath.ts';
