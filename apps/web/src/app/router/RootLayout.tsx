import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { reportError } from '@/shared/errors/errorReporter.ts';
import { ErrorScreen } from '@/shared/ui/ErrorBoundary.tsx';
import { AppShell } from '../shell/AppShell.tsx';
import { AuthGate } from '../shell/AuthGate.tsx';
import { NewVersionNotifier } from '../shell/NewVersionNotifier.tsx';

/** The root route: the new-version check runs everywhere; the rest sits behind the auth gate. */
export function RootLayout() {
  return (
    <>
      <NewVersionNotifier />
      <AuthGate>
        <AppShell />
      </AuthGate>
    </>
  );
}

/** The router's last-resort error screen (errors outside the shell's own boundary). */
export function RouteErrorScreen() {
  const error = useRouteError();
  useEffect(() => reportError(error, { tags: { source: 'router' } }), [error]);
  return <ErrorScreen error={error} />;
}
