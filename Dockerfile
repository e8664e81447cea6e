# syntax=docker/dockerfile:1
# One image for every Node role (api, worker, migrate); compose picks the command.
# Node 24 runs the TypeScript sources directly (type stripping): there is no build step.

ARG NODE_VERSION=24

# ---- production dependencies -------------------------------------------------
# A separate stage so the npm cache and lockfile tooling never reach the runtime layer.
# Debian slim (glibc), not Alpine: the Temporal core-bridge and @swc/core native
# binaries the worker needs are resolved for glibc.
FROM node:${NODE_VERSION}-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# --omit=dev also leaves out the `node` npm package: the base image already is Node 24.
# `npm install`, not `npm ci`, as in CI: the lockfile lacks some of @swc/core's optional platform
# packages, which `npm ci` rejects; the locked versions are still the ones installed.
RUN --mount=type=cache,target=/root/.npm \
    npm install --omit=dev --no-save --no-audit --no-fund

# ---- runtime -----------------------------------------------------------------
FROM node:${NODE_VERSION}-slim
ENV NODE_ENV=production
# In a container the API and /metrics listen on every interface: a container's loopback is reachable from inside it
# only, and what the network reaches is decided by the published ports. Outside one, HOST defaults to 127.0.0.1.
ENV HOST=0.0.0.0
WORKDIR /app

COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json ./
COPY migrations ./migrations
COPY api ./api
COPY src ./src
# The developer server's guides are documents of docs/.
COPY docs ./docs

# Code stays root-owned (read-only to the process); only DATA_DIR (default .data,
# used by the embedded dev services) is writable, in case anything touches it.
RUN install -d -o node -g node /app/.data
# The base image's `node` user, numerically, so runtimes can verify it is not root.
USER 1000:1000

EXPOSE 3000
# The API is the default role; the worker and the migration job override CMD.
CMD ["node", "src/main/api.ts"]
