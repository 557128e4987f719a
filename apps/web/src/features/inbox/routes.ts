// The lazy loaders of this feature: what app/ may load of it besides index.ts (design §10.10).
export const loadInboxPanel = () => import('./components/InboxPanel.tsx');
