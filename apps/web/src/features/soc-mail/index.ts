// What other features and app/ may use of this feature (design §10.10). Kept light: no texts.
export { socMailKeys } from './api/socMailKeys.ts';
