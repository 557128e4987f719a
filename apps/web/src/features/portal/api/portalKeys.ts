/** Query keys of the portal config (a single, public document). */
export const portalKeys = {
  all: ['portal'] as const,
  config: () => [...portalKeys.all, 'config'] as const,
};
