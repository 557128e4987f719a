// The lazy loaders of this feature's pages (design §7: every page is its own chunk): what
// app/ may load of it besides index.ts (design §10.10).
export const loadSocRegisterPage = () => import('./pages/SocRegisterPage.tsx');
