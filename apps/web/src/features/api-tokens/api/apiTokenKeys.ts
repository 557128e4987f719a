/** Query keys of the personal API tokens. */
export const apiTokenKeys = {
  all: ['api-tokens'] as const,
  list: (page: number) => [...apiTokenKeys.all, 'list', page] as const,
};
