import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest, authStore } from '@/shared/api/index.ts';

/**
 * Logs out: revokes the refresh token on the server, then ends the local session. The local
 * session ends even when the server cannot be reached: the user asked to leave.
 */
export async function logout(): Promise<void> {
  const session = authStore.get();
  try {
    if (session) {
      await apiRequest('/auth/logout/', {
        method: 'POST',
        body: { refresh: session.refresh },
        schema: z.unknown(),
        auth: 'attach',
        notify: false,
      });
    }
  } catch {
    // Already expired or offline: the refresh token dies with its lifetime anyway.
  } finally {
    authStore.clear('logout');
  }
}

/** Mutation around logout(). */
export function useLogoutMutation() {
  return useMutation({ mutationFn: logout });
}
