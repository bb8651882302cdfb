# syntax=docker/dockerfile:1
# One image for every app; the app is chosen by the command, e.g.
#   docker run IMAGE node dist/orchestrator.mjs
# Apps run from their bundles (`pnpm build`: dist/<entry>.mjs), built in the image from its own sources, on
# the Node.js LTS of the runtime stage (the bundles target the Node.js that built them: the same version).

# Only the package manifests, so the dependency layer below is rebuilt only when they change.
FROM node:24-slim AS manifests
WORKDIR /src
COPY . .
RUN mkdir /manifests \
 && find . -path ./node_modules -prune -o \( -name package.json -o -name pnpm-lock.yaml -o -name pnpm-workspace.yaml \) -print \
    | grep -v /node_modules/ | xargs -I{} cp --parents {} /manifests/

FROM node:24-slim AS build
# pnpm from the npm registry, as scripts/bootstrap.sh does (corepack's download is not used anywhere).
RUN npm install -g --no-audit --no-fund pnpm@9.15.9
WORKDIR /app
COPY --from=manifests /manifests/ ./
# Every dependency, for the build (esbuild, tsx run it); the lockfile must match the manifests.
RUN pnpm install --frozen-lockfile --reporter=append-only
COPY . .
RUN pnpm build

# What the image runs with: production dependencies only (PGlite, which the bundles load from node_modules,
# and tsx for FARM_ENTRY=source), installed from the same lockfile at the same paths as in the build.
FROM node:24-slim AS deps
RUN npm install -g --no-audit --no-fund pnpm@9.15.9
WORKDIR /app
COPY --from=manifests /manifests/ ./
RUN pnpm install --prod --frozen-lockfile --reporter=append-only
COPY . .

FROM node:24-slim
# git: git http-backend for the compose git server and repositories' own checks; tini: PID 1 that forwards
# SIGTERM and reaps the orphans of the checks the agent runs.
RUN apt-get update \
 && apt-get install -y --no-install-recommends git ca-certificates tini \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=deps /app /app
COPY --from=build /app/dist /app/dist
# The agent's checkouts (an emptyDir in Kubernetes, where the root filesystem is read-only) and the compose
# git server's repositories (a named volume takes this ownership).
RUN mkdir -p /work /srv/git && chown 1000:1000 /work /srv/git
# The node image's unprivileged user (uid/gid 1000, as the chart's securityContext expects).
USER 1000:1000
ENV NODE_ENV=production \
    FARM_WORK_DIR=/work \
    FARM_METRICS_PORT=9464 \
    HOME=/tmp
EXPOSE 9464
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/orchestrator.mjs"]
