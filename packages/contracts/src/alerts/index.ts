export * from './alerts.schemas.ts';
export * from './iocs.schemas.ts';
