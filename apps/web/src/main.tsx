import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import './app/i18n/languagePacks.ts';
import { AppProviders } from './app/providers/AppProviders.tsx';
import { createQueryClient } from './app/providers/queryClient.ts';
import { preloadDirectPage, routes } from './app/router/routes.tsx';
import { installGlobalErrorHandlers } from '@/shared/errors/errorReporter.ts';
import { prefetchCurrentUser } from './features/auth/index.ts';
import { prefetchPortalConfig } from './features/portal/index.ts';

// Installed first so that errors during start-up are caught too; they are sent once the
// portal config has supplied a DSN (and dropped when it has none).
installGlobalErrorHandlers();

const router = createBrowserRouter(routes);
const queryClient = createQueryClient();
preloadDirectPage(new URL(window.location.href), queryClient);
// the first two calls leave now, in parallel, rather than one after the other from the render
prefetchPortalConfig(queryClient);
prefetchCurrentUser(queryClient);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The service worker (production builds only) after the first screen, so that it never competes
// with it; a failure is only logged (product §B8).
if (import.meta.env.PROD) {
  window.addEventListener('load', () => {
    import('@/shared/version/serviceWorker.ts').then(
      (sw) => sw.registerServiceWorker(),
      (error: unknown) => console.warn('Service worker module failed to load', error),
    );
  });
}

createRoot(container).render(
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
