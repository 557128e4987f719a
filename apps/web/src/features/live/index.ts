// What other features and app/ may use of this feature (design §10.10).
export { isOwnIncident } from './hooks/ownIncidents.ts';
