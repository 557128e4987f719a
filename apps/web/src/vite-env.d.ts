/// <reference types="vite/client" />

/** Identifier of this web build, injected by vite.config.ts ('dev' on the dev server). */
declare const __BUILD_ID__: string;
