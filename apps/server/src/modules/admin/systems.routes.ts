import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdminContactCreateSchema,
  AdminContactUpdateSchema,
  AdminContractCreateSchema,
  AdminContractUpdateSchema,
  AdminPageQuerySchema,
  AdminServiceCreateSchema,
  AdminServiceUpdateSchema,
  AdminSystemCreateSchema,
  AdminSystemPageSchema,
  AdminSystemSchema,
  AdminSystemUpdateSchema,
  SystemMailDomainsSchema,
} from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import { pageLinks } from '../../lib/pagination.ts';
import { IdParams, caller, errors, noContent } from './admin.http.ts';
import type { AdminService } from './admin.service.ts';

/** `/api/v0/admin/…` of systems, their mail domains, contracts, services (SLA) and contacts. */
export const adminSystemRoutes: FastifyPluginAsyncZod<{ admin: AdminService; config: Config }> = async (
  app,
  { admin, config },
) => {
  const tags = ['admin'];

  app.get(
    '/systems/',
    {
      schema: {
        operationId: 'adminListSystems',
        tags,
        summary: 'Every protected system (search by code or name)',
        querystring: AdminPageQuerySchema,
        response: { 200: AdminSystemPageSchema, ...errors },
      },
    },
    async (request) => {
      const q = request.query;
      const { total, results } = await admin.listSystems(q);
      return { total, ...pageLinks(request, config.publicUrl, total, q.page, q.page_size), results };
    },
  );
  app.post(
    '/systems/',
    {
      schema: {
        operationId: 'adminCreateSystem',
        tags,
        summary: 'Create a protected system',
        body: AdminSystemCreateSchema,
        response: { 201: AdminSystemSchema, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await admin.createSystem(request.body, caller(request))),
  );
  app.get(
    '/systems/:id/',
    {
      schema: {
        operationId: 'adminGetSystem',
        tags,
        summary: 'A system with its contracts, services (SLA) and contacts',
        params: IdParams,
        response: { 200: AdminSystemSchema, ...errors },
      },
    },
    async (request) => admin.system(request.params.id),
  );
  app.patch(
    '/systems/:id/',
    {
      schema: {
        operationId: 'adminUpdateSystem',
        tags,
        summary: 'Change a system (code, name, status, people)',
        params: IdParams,
        body: AdminSystemUpdateSchema,
        response: { 200: AdminSystemSchema, ...errors },
      },
    },
    async (request) => admin.updateSystem(request.params.id, request.body, caller(request)),
  );

  app.get(
    '/systems/:id/mail_domains/',
    {
      schema: {
        operationId: 'adminGetMailDomains',
        tags,
        summary: 'Mail domains allowed as report recipients of a system (besides its users)',
        params: IdParams,
        response: { 200: SystemMailDomainsSchema, ...errors },
      },
    },
    async (request) => admin.mailDomains(request.params.id),
  );
  app.put(
    '/systems/:id/mail_domains/',
    {
      schema: {
        operationId: 'adminReplaceMailDomains',
        tags,
        summary: 'Replace the mail domains allowed as report recipients of a system',
        params: IdParams,
        body: SystemMailDomainsSchema,
        response: { 200: SystemMailDomainsSchema, ...errors },
      },
    },
    async (request) => admin.setMailDomains(request.params.id, request.body, caller(request)),
  );
  app.post(
    '/systems/:id/contracts/',
    {
      schema: {
        operationId: 'adminCreateContract',
        tags,
        summary: 'Add a contract to a system',
        params: IdParams,
        body: AdminContractCreateSchema,
        response: { 201: AdminSystemSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await admin.addContract(request.params.id, request.body, caller(request))),
  );
  app.patch(
    '/contracts/:id/',
    {
      schema: {
        operationId: 'adminUpdateContract',
        tags,
        summary: 'Change a contract',
        params: IdParams,
        body: AdminContractUpdateSchema,
        response: { 200: AdminSystemSchema, ...errors },
      },
    },
    async (request) => admin.updateContract(request.params.id, request.body, caller(request)),
  );
  app.delete(
    '/contracts/:id/',
    {
      schema: {
        operationId: 'adminDeleteContract',
        tags,
        summary: 'Delete a contract (its services stay, without contract)',
        params: IdParams,
        response: noContent,
      },
    },
    async (request, reply) => {
      await admin.deleteContract(request.params.id, caller(request));
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/systems/:id/services/',
    {
      schema: {
        operationId: 'adminCreateService',
        tags,
        summary: 'Add a service (with contracted EPS and SLA rows) to a system',
        params: IdParams,
        body: AdminServiceCreateSchema,
        response: { 201: AdminSystemSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await admin.addService(request.params.id, request.body, caller(request))),
  );
  app.patch(
    '/services/:id/',
    {
      schema: {
        operationId: 'adminUpdateService',
        tags,
        summary: 'Change a service; `sla` replaces its SLA rows',
        params: IdParams,
        body: AdminServiceUpdateSchema,
        response: { 200: AdminSystemSchema, ...errors },
      },
    },
    async (request) => admin.updateService(request.params.id, request.body, caller(request)),
  );
  app.delete(
    '/services/:id/',
    {
      schema: {
        operationId: 'adminDeleteService',
        tags,
        summary: 'Delete a service',
        params: IdParams,
        response: noContent,
      },
    },
    async (request, reply) => {
      await admin.deleteService(request.params.id, caller(request));
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/systems/:id/contacts/',
    {
      schema: {
        operationId: 'adminCreateContact',
        tags,
        summary: 'Add a customer contact (receives notifications in its language)',
        params: IdParams,
        body: AdminContactCreateSchema,
        response: { 201: AdminSystemSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await admin.addContact(request.params.id, request.body, caller(request))),
  );
  app.patch(
    '/contacts/:id/',
    {
      schema: {
        operationId: 'adminUpdateContact',
        tags,
        summary: 'Change a contact',
        params: IdParams,
        body: AdminContactUpdateSchema,
        response: { 200: AdminSystemSchema, ...errors },
      },
    },
    async (request) => admin.updateContact(request.params.id, request.body, caller(request)),
  );
  app.delete(
    '/contacts/:id/',
    {
      schema: {
        operationId: 'adminDeleteContact',
        tags,
        summary: 'Delete a contact',
        params: IdParams,
        response: noContent,
      },
    },
    async (request, reply) => {
      await admin.deleteContact(request.params.id, caller(request));
      return reply.status(204).send(null);
    },
  );
};
