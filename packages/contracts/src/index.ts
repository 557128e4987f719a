export * from './common/zod-config.ts';
export * from './common/constants.ts';
export * from './common/errors.schemas.ts';
export * from './common/lists.schemas.ts';
export * from './auth/auth.schemas.ts';
export * from './portal/portal.schemas.ts';
export * from './common/query.ts';
export * from './incidents/incidents.schemas.ts';
