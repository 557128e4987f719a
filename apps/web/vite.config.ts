import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
/** `@/…` is apps/web/src (tsconfig.json `paths`, the same in vitest.config.ts). */
const srcAlias = { '@': fileURLToPath(new URL('./src', import.meta.url)) };
const changelogPath = fileURLToPath(new URL('../../CHANGELOG.md', import.meta.url));
const packageJson = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** Identifier of one build: unique per run so that a redeploy is always noticed by open tabs. */
const createBuildId = (): string => `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;

/**
 * Emits `version.json` ({version, build_id}) and a copy of the repository changelog next to the
 * bundle; running tabs poll the first and link to the second when a new build is deployed.
 */
function versionManifest(version: string, buildId: string): Plugin {
  return {
    name: 'soc-version-manifest',
    apply: 'build',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'version.json',
        source: `${JSON.stringify({ version, build_id: buildId })}\n`,
      });
      let changelog: string;
      try {
        changelog = readFileSync(changelogPath, 'utf8');
      } catch {
        this.warn(`CHANGELOG.md not found at ${changelogPath}; the "What's new" link will be broken`);
        return;
      }
      this.emitFile({ type: 'asset', fileName: 'CHANGELOG.md', source: changelog });
    },
  };
}

export default defineConfig(({ command }) => {
  // The dev server has no version.json; the 'dev' id switches the new-version check off.
  const buildId = command === 'build' ? createBuildId() : 'dev';
  return {
    root: webRoot,
    resolve: { alias: srcAlias },
    define: {
      __BUILD_ID__: JSON.stringify(buildId),
    },
    plugins: [
      react(),
      versionManifest(packageJson.version, buildId),
      // Brotli and gzip copies beside every compressible file; the server (and nginx) send the one
      // the browser accepts as it is. Brotli at its highest quality: it costs build time only.
      compression({
        include: /\.(?:html|css|js|mjs|json|svg|md|txt)$/,
        algorithms: ['brotliCompress', 'gzip'],
      }),
      // The service worker (Workbox) keeps the shell and every hashed asset, so a repeat visit
      // loads no JavaScript over the network. It never answers API calls: nothing under /api/ is
      // cached, and navigations to the server's own pages (and files such as CHANGELOG.md) go there.
      // A new deployment installs a new worker that waits until the user accepts the reload
      // (shared/version/serviceWorker.ts); registration is done by the app, lazily.
      VitePWA({
        strategies: 'generateSW',
        injectRegister: false,
        registerType: 'prompt',
        // Installable on phones and tablets (issue 40): the plugin writes manifest.webmanifest,
        // links it from index.html and precaches it with the icons of public/icons.
        manifest: {
          name: 'SOC Portal',
          short_name: 'SOC Portal',
          start_url: '/dashboard',
          scope: '/',
          display: 'standalone',
          // antd's default primary colour, the one of the shield in the header
          theme_color: '#1677ff',
          background_color: '#ffffff',
          icons: [
            { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
            { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
            { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
            { src: '/icons/icon.svg', sizes: 'any', type: 'image/svg+xml' },
          ],
        },
        filename: 'sw.js',
        workbox: {
          globPatterns: ['**/*.{js,css,html,svg,png,ico,woff2}'],
          // hashed names change with their content: no revision query needed
          dontCacheBustURLsMatching: /^assets\//,
          // the largest lazy chunks (charts) are bigger than Workbox's 2 MiB default
          maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
          navigateFallback: 'index.html',
          // the server's own pages: the API (and its reference), the demo's SMS outbox, health, files
          navigateFallbackDenylist: [/^\/api\//, /^\/dev\//, /^\/(?:healthz|readyz)$/, /\.[a-z0-9]+$/i],
          runtimeCaching: [],
          cleanupOutdatedCaches: true,
          clientsClaim: false,
          skipWaiting: false,
          // one file: the runtime does not need a script of its own (and its own CSP check)
          inlineWorkboxRuntime: true,
        },
      }),
    ],
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      rolldownOptions: {
        onwarn(warning, defaultHandler) {
          // antd marks its modules "use client" for React Server Components; meaningless in an SPA.
          if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
          defaultHandler(warning);
        },
        treeshake: {
          // @rc-component/form (and its validator) declare no `sideEffects` in package.json, so every
          // antd component that merely imports a context from antd's form module (menus, tooltips)
          // would drag the whole form engine into the shell. Their modules only define exports.
          // Every other module keeps its package.json's declaration (undefined = no opinion).
          moduleSideEffects: (id) =>
            /[\\/]node_modules[\\/]@rc-component[\\/](form|async-validator)[\\/]/.test(id)
              ? false
              : undefined,
        },
        output: {
          // Each language's pack is a lazy chunk; the app fetches one before its first render, so
          // scripts/bundle-size.mjs counts it with the initial JS: the name tells it which it is.
          chunkFileNames: (chunk) =>
            chunk.facadeModuleId && /[\\/]src[\\/]app[\\/]i18n[\\/]packs[\\/]/.test(chunk.facadeModuleId)
              ? 'assets/locale-[name]-[hash].js'
              : 'assets/[name]-[hash].js',
          codeSplitting: {
            // React and the router change rarely: their own chunk stays cached across deploys.
            // Only libraries the shell needs at start-up belong here, or lazy code would turn eager.
            groups: [
              {
                name: 'react-vendor',
                test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack[\\/](query-core|react-query))[\\/]/,
              },
            ],
          },
        },
      },
    },
    server: {
      proxy: {
        '/api': 'http://127.0.0.1:8080',
      },
    },
  };
});
