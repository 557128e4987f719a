/** The IOC feed for customers' blocking tools (issue 29 §3), and what other modules use of it. */
import { API_BASE } from '@soc/contracts';
import type { AppModule } from '../app-module.ts';
import { iocFeedRoutes } from './ioc-feed.routes.ts';
import { createIocFeedService } from './ioc-feed.service.ts';

export const iocFeedModule: AppModule = async (app, { ctx }) => {
  await app.register(iocFeedRoutes, {
    prefix: API_BASE,
    iocFeed: createIocFeedService({ db: ctx.db }),
    config: ctx.config,
  });
};
