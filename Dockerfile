# Pasal's image: one image for every process role (`api`, `worker`, `all`, and `dist/cli.js`).
#   docker build -t pasal .
#   docker run --env-file .env pasal api      (or: worker)
# See compose.yaml for a whole deployment and docs/operations.md for running it.

ARG NODE_IMAGE=node:24-bookworm-slim

# 1. The bundle: esbuild (a dev dependency) writes dist/ from src/, the migrations make the
#    embedded database's template in dist/pglite-template/ (a first start without DATABASE_URL
#    copies it instead of running initdb), and Vite writes the admin console into console/dist/
#    (served at /admin). The workspaces' package.json files come first so that `npm ci` installs
#    the console's build tools too.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY console/package.json console/package.json
COPY clients/typescript/package.json clients/typescript/package.json
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts/build.mjs scripts/build.mjs
COPY src src
COPY drizzle drizzle
COPY clients/typescript clients/typescript
COPY console console
RUN node scripts/build.mjs

# 2. Run-time dependencies only. Their native parts (sharp, @node-rs/argon2, msgpackr-extract)
#    come as prebuilt packages, so no compiler is needed. Without the workspace folders, npm
#    installs none of the console's packages (React, Mantine…): the image serves its build only.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# 3. What runs: node_modules, dist/ (with the template, readable by every user, copied by the
#    first start and never opened in place), console/dist/ and the migrations, as the
#    unprivileged `node` user. Nothing builds here: the entry point runs dist/main.js directly.
FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    DATA_DIR=/app/data \
    PORT=3000
WORKDIR /app
COPY --from=deps /app/node_modules node_modules
COPY package.json ./
COPY drizzle drizzle
COPY --from=build /app/dist dist
COPY --from=build /app/console/dist console/dist
# DATA_DIR holds the mail outbox and local uploads when no SMTP/S3 is configured; the code
# itself stays owned by root, so the process cannot rewrite it.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
# Liveness of an API process (`/health` answers without touching the database; the proxy's
# readiness check uses `/ready`). The worker role does not listen: compose.yaml turns this off.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# A young generation of 16 MB semi-spaces, not the 64 MB V8 picks on a machine with much memory:
# ~90 MB less resident per process, no throughput lost in the bench (bench/README.md, issue 33).
ENTRYPOINT ["node", "--enable-source-maps", "--max-semi-space-size=16", "dist/main.js"]
CMD ["api"]
