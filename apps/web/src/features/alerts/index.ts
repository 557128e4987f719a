// What other features and app/ may use of this feature (design §10.10).
import './i18n/texts.ts';
export { useIncidentAlertsQuery } from './api/useIncidentAlertsQuery.ts';
export { AlertsTab } from './components/AlertsTab.tsx';
