# syntax=docker/dockerfile:1
# pod-doctor: one image for every role (bot, worker, agent, CLI).
#   docker build -t pod-doctor:0.2.0 .
# Stages: build (all deps, tsc → dist/), prod-deps (runtime dependencies only), node-runtime
# (Node's image without npm), runtime (that file system, the app, user 10001).
# test/deploy/dockerfile.test.ts checks the stages, the pin, the user and the entrypoint.
#
# The base is pinned by digest, so a rebuild of the same commit gets the same Node and Debian
# (node:24-bookworm-slim as of Node 24.18.0). To move it, read the tag's current digest and
# replace the one below (or pass it for one build with --build-arg NODE_IMAGE=...):
#   docker buildx imagetools inspect node:24-bookworm-slim --format '{{json .Manifest.Digest}}'
ARG NODE_IMAGE=node:24-bookworm-slim@sha256:6f7b03f7c2c8e2e784dcf9295400527b9b1270fd37b7e9a7285cf83b6951452d

FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
# No install scripts: nothing the compiler needs runs one. (The `node` dev dependency, which
# brings Node 24 to machines whose own Node is older, stays an empty shell without its script;
# the image's Node is the same major.)
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

# Node's image without its package managers: nothing at run time installs packages, and npm's
# own dependencies would only add to what scanners report. Debian slim rather than distroless:
# the node agent runs `stat` (hung-mount checks) and `nsenter` (actions in the host's
# namespaces), both from the base system.
FROM ${NODE_IMAGE} AS node-runtime
RUN rm -rf /usr/local/lib/node_modules /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack \
      /usr/local/bin/yarn /usr/local/bin/yarnpkg /opt/yarn-* /usr/local/include/node /root/.npm

# Copied as one file system, so no layer of the image holds npm (a deletion in a layer on top
# would leave it in the one below).
FROM scratch AS runtime
COPY --from=node-runtime / /
LABEL org.opencontainers.image.title="pod-doctor" \
      org.opencontainers.image.description="ChatOps incident bot for Kubernetes: bot, worker, node agent" \
      org.opencontainers.image.licenses="Apache-2.0"
# A small young generation: idle roles keep tens of MB less resident (npm run bench:rss).
ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    NODE_ENV=production \
    NODE_OPTIONS=--max-semi-space-size=2 \
    POD_DOCTOR_PLAYBOOK_DIR=/app/playbooks
WORKDIR /app
RUN groupadd --system --gid 10001 pod-doctor \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin pod-doctor
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY package.json LICENSE ./
COPY playbooks ./playbooks
# The CRI's protobuf definitions (kubernetes/cri-api), loaded by the node agent's runtime probe.
COPY vendor ./vendor
# The commit shows in `pod-doctor --version` and pod_doctor_build_info; last, so a new commit
# rebuilds no other layer:  docker build --build-arg GIT_COMMIT=$(git rev-parse --short HEAD) .
ARG GIT_COMMIT=unknown
ENV POD_DOCTOR_GIT_COMMIT=${GIT_COMMIT}
LABEL org.opencontainers.image.revision="${GIT_COMMIT}"
# Non-root by default; the agent DaemonSet alone overrides it (runAsUser 0, deploy/README.md).
USER 10001:10001
# bot (PORT), worker metrics (POD_DOCTOR_METRICS_PORT), agent.
EXPOSE 3000 9464 9477
ENTRYPOINT ["node", "dist/bin/pod-doctor.js"]
CMD ["--help"]
