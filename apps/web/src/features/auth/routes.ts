// The lazy loaders of this feature's pages (design §7: every page is its own chunk): what
// app/ may load of it besides index.ts (design §10.10).
export const loadChangePasswordPage = () => import('./pages/ChangePasswordPage.tsx');
export const loadExternalLoginCallbackPage = () => import('./pages/ExternalLoginCallbackPage.tsx');
export const loadLoginPage = () => import('./pages/LoginPage.tsx');
export const loadTemporaryPasswordPage = () => import('./pages/TemporaryPasswordPage.tsx');
