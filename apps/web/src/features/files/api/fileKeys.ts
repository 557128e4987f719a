/** Query keys of the file viewer. */
export const fileKeys = {
  all: ['files'] as const,
  info: (path: string) => [...fileKeys.all, 'info', path] as const,
};
