export * from './users.ts';
export * from './systems.ts';
export * from './incidents.ts';
export * from './auth.ts';
export * from './jobs.ts';
export * from './documents.ts';
export * from './inventory.ts';
export * from './assets.ts';
