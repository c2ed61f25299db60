// The console's providers, outermost first: Mantine (components, notifications), TanStack
// Query (server state), the session (API client, admin, permissions), the router (screens).
import { Center, Loader, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { Suspense, useState } from 'react';
import { SessionProvider } from '../session/session';
import { createSessionStore } from '../session/session-store';
import { createConsoleQueryClient } from './query-client';
import { createConsoleRouter } from './router';
import { cssVariablesResolver, theme } from './theme';

export function App() {
  const [{ session, queryClient, router }] = useState(() => {
    // The API serves the console, so it is on this page's own origin (in development, Vite
    // forwards /api to it).
    const session = createSessionStore({ baseUrl: window.location.origin });
    return { session, queryClient: createConsoleQueryClient(session), router: createConsoleRouter(session) };
  });
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <Notifications position="top-right" />
      <QueryClientProvider client={queryClient}>
        <SessionProvider store={session}>
          {/* Strings load per namespace; until the first ones arrive, a spinner without words. */}
          <Suspense
            fallback={
              <Center mih="100vh">
                <Loader aria-label="Loading" />
              </Center>
            }
          >
            <RouterProvider router={router} />
          </Suspense>
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
