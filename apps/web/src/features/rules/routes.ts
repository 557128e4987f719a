// The lazy loaders of this feature's pages (design §7: every page is its own chunk): what
// app/ may load of it besides index.ts (design §10.10).
export const loadRulePage = () => import('./pages/RulePage.tsx');
// The rules view of the documentation hub, as a chunk of its own: behind index.ts it would share
// a chunk with the MITRE matrix that the dashboard and the incident page import, and bring the
// whole rules list to their first visit
export const loadRulesView = () => import('./components/RulesView.tsx');
