// Types of apps/server/build.mjs for the TypeScript tests that import it.

/** The server's bundles by name (`main`, `demo-cli`, `admin-cli`, `telemetry`) and their entry files. */
export declare const ENTRY_POINTS: Record<string, string>;
/** Builds `entries` (names of ENTRY_POINTS, default all) into `outdir` (default `apps/server/dist`). */
export declare function buildServer(outdir?: string, entries?: string[]): Promise<void>;
