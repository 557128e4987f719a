export * from './tenants.schemas.ts';
export * from './assets.schemas.ts';
export * from './logsources.schemas.ts';
export * from './files.schemas.ts';
