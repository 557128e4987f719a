// What other features and app/ may use of this feature (design §10.10).
export { incidentKeys } from './api/incidentKeys.ts';
export { useFilterChoicesQuery } from './api/useFilterChoicesQuery.ts';
