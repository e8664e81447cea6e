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

# ---- route solver --------------------------------------------------------------
# The worker serving tms-routes runs solve.py (VROOM through pyvroom) with Python (docs/routes.md, The solver).
# Debian's python3 on the same base as the runtime, so the venv's interpreter link resolves there; the packages are
# the pinned, hashed wheels of requirements.txt, as venv.ts installs them outside a container.
FROM node:${NODE_VERSION}-slim AS solver
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 python3-venv \
    && rm -rf /var/lib/apt/lists/*
COPY src/modules/routes/solver/requirements.txt /tmp/solver-requirements.txt
RUN --mount=type=cache,target=/root/.cache/pip \
    python3 -m venv /opt/solver \
    && /opt/solver/bin/python -m pip install --disable-pip-version-check --require-hashes --only-binary=:all: \
       --no-deps -r /tmp/solver-requirements.txt

# ---- runtime -----------------------------------------------------------------
FROM node:${NODE_VERSION}-slim
ENV NODE_ENV=production
# In a container the API and /metrics listen on every interface: a container's loopback is reachable from inside it
# only, and what the network reaches is decided by the published ports. Outside one, HOST defaults to 127.0.0.1.
ENV HOST=0.0.0.0
WORKDIR /app

# The route solver: Debian's python3 (the venv's interpreter) and the venv with VROOM. With SOLVER_PYTHON set, the
# worker uses it as it is and never makes .tools/solver-venv (src/modules/routes/solver/venv.ts).
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 \
    && rm -rf /var/lib/apt/lists/*
COPY --from=solver /opt/solver /opt/solver
ENV SOLVER_PYTHON=/opt/solver/bin/python

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
