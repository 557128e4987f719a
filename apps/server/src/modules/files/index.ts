/** Downloads of stored files by path (`/soc/files/{path}/`). */
import { API_BASE } from '@soc/contracts';
import type { AppModule } from '../app-module.ts';
import { filesRoutes } from './files.routes.ts';
import { createFilesService } from './files.service.ts';

export const filesModule: AppModule = async (app, { ctx }) => {
  await app.register(filesRoutes, {
    prefix: `${API_BASE}/soc`,
    files: createFilesService(ctx.db),
    storage: ctx.storage,
  });
};
