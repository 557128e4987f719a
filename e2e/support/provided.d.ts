import 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the server started by the global setup. */
    baseUrl: string;
  }
}
