// What other features and app/ may use of this feature (design §10.10).
export { incidentPageKeys } from './api/incidentPageKeys.ts';
