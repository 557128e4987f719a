import { FileInfoSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { fileKeys } from './fileKeys.ts';

/** GET /soc/files/{path}/ → the file's name (product §B7); the viewer shows failures itself. */
export function useFileInfoQuery(path: string) {
  return useQuery({
    queryKey: fileKeys.info(path),
    queryFn: ({ signal }) =>
      apiRequest(`/soc/files/${path}/`, { schema: FileInfoSchema, signal, notify: false }),
    retry: false,
  });
}
