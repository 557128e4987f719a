import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '../app/providers/AppProviders.tsx';
import { createQueryClient } from '../app/providers/queryClient.ts';
import { routes } from '../app/router/routes.tsx';

/** Renders the whole app (providers, router, auth gate) at `path`, as the browser would. */
export function renderApp(path = '/dashboard', queryClient = createQueryClient()) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const user = userEvent.setup();
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient, user };
}

/** The app's own query client, for a test that fills it before rendering (features may not import app/). */
export const appQueryClient = createQueryClient;
