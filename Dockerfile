# syntax=docker/dockerfile:1
# The portal in one image: the built web app served by the API server (README.md, "Deployment
# with containers"). Build from the repository root: docker build -t soc-portal .

# --- build: every workspace's dependencies, then the web bundle and the server bundle
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/contracts/package.json packages/contracts/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# --- runtime dependencies: only the server's (its bundle inlines the workspace packages)
FROM node:24-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/contracts/package.json packages/contracts/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
RUN npm ci --omit=dev --workspace=@soc/server --no-audit --no-fund \
  && mkdir -p apps/server/node_modules

# --- runtime: the bundles, the migrations and production dependencies, run as a non-root user
FROM node:24-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/var/lib/soc-portal
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=deps /app/apps/server/node_modules ./apps/server/node_modules
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/apps/server/package.json ./apps/server/package.json
COPY --from=build /app/apps/server/dist ./apps/server/dist
COPY --from=build /app/apps/server/drizzle ./apps/server/drizzle
# the compact ATT&CK data and MITRE's notice, read when no bundle is configured or imported
COPY --from=build /app/apps/server/src/integrations/attack/data ./apps/server/src/integrations/attack/data
COPY --from=build /app/apps/web/dist ./apps/web/dist
# `npm run admin -- …` (README.md, "Administration"): the script and what it imports
COPY --from=build /app/scripts/admin.mjs /app/scripts/freshness.mjs ./scripts/
# uploaded files, generated reports and (without DATABASE_URL) the embedded database
RUN mkdir -p /var/lib/soc-portal && chown node:node /var/lib/soc-portal
VOLUME ["/var/lib/soc-portal"]
# the image's own unprivileged user (uid 1000)
USER node
EXPOSE 8080
# ready = the process answers and its database does (GET /readyz)
HEALTHCHECK --interval=10s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# traces start before the server loads when OTEL_EXPORTER_OTLP_ENDPOINT is set (README.md, "Traces")
CMD ["node", "--enable-source-maps", "--import", "./apps/server/dist/telemetry.js", "apps/server/dist/main.js"]
