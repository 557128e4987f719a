import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AssetChoicesSchema,
  AssetIncidentListResponseSchema,
  AssetListQuerySchema,
  AssetListResponseSchema,
  AssetPageQuerySchema,
  AssetParamsSchema,
  AssetSchema,
  AssetSoftwareQuerySchema,
  DetailErrorSchema,
  FieldErrorsSchema,
  SoftwareListResponseSchema,
} from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import { offsetLinks, pageLinks } from '../../lib/pagination.ts';
import { requireAuth } from '../../lib/request-auth.ts';
import type { AssetsService } from './assets.service.ts';

const errors = { 400: FieldErrorsSchema, 404: DetailErrorSchema };

/** `/api/v0/cmdb/assets/…`: the asset inventory (product §A7, product §B2 Assets, §7). Read-only. */
export const assetsRoutes: FastifyPluginAsyncZod<{ assets: AssetsService; config: Config }> = async (
  app,
  { assets, config },
) => {
  const tags = ['assets'];
  app.get(
    '/assets/',
    {
      schema: {
        operationId: 'listAssets',
        tags,
        summary: 'Assets of the caller’s systems: search (name, IP, FQDN), filters, ordering, pages',
        querystring: AssetListQuerySchema,
        response: { 200: AssetListResponseSchema, ...errors },
      },
    },
    async (request) => {
      const q = request.query;
      const { total, results } = await assets.list(requireAuth(request), q);
      return { total, ...pageLinks(request, config.publicUrl, total, q.page, q.page_size), results };
    },
  );

  app.get(
    '/assets/choices/',
    {
      schema: {
        operationId: 'getAssetFilterChoices',
        tags,
        summary: 'Values of the asset list filters (types, criticalities, operating systems)',
        response: { 200: AssetChoicesSchema },
      },
    },
    async (request) => assets.choices(requireAuth(request)),
  );

  app.get(
    '/assets/:cmdbId/',
    {
      schema: {
        operationId: 'getAsset',
        tags,
        summary: 'An asset by cmdb_id',
        params: AssetParamsSchema,
        response: { 200: AssetSchema, ...errors },
      },
    },
    async (request) => assets.asset(requireAuth(request), request.params.cmdbId),
  );

  app.get(
    '/assets/:cmdbId/incidents/',
    {
      schema: {
        operationId: 'listAssetIncidents',
        tags,
        summary: 'Incidents of the asset (through snapshots.cmdb_id), newest first; limit/offset',
        params: AssetParamsSchema,
        querystring: AssetPageQuerySchema,
        response: { 200: AssetIncidentListResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { limit, offset } = request.query;
      const { total, results } = await assets.incidents(
        requireAuth(request),
        request.params.cmdbId,
        limit,
        offset,
      );
      return { total, ...offsetLinks(request, config.publicUrl, total, limit, offset), results };
    },
  );

  app.get(
    '/assets/:cmdbId/software/',
    {
      schema: {
        operationId: 'listAssetSoftware',
        tags,
        summary: 'Installed software of the asset by name; limit/offset',
        params: AssetParamsSchema,
        querystring: AssetSoftwareQuerySchema,
        response: { 200: SoftwareListResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { limit, offset, search } = request.query;
      const { total, results } = await assets.software(
        requireAuth(request),
        request.params.cmdbId,
        limit,
        offset,
        search || undefined,
      );
      return { total, ...offsetLinks(request, config.publicUrl, total, limit, offset), results };
    },
  );
};
