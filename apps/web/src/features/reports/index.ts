// What other features and app/ may use of this feature (design §10.10).
export { reportKeys } from './api/reportKeys.ts';
