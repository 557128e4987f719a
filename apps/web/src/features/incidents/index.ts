// What other features and app/ may use of this feature (design §10.10).
export { incidentKeys } from './api/incidentKeys.ts';
export { useFilterChoicesQuery } from './api/useFilterChoicesQuery.ts';
// the lookups of the incident forms, which the SOC's registration form shares
export { CategorySelect, IssueTypeSelect, SystemSelect } from './components/LookupFields.tsx';
export type { LookupValue } from './components/LookupSelect.tsx';
