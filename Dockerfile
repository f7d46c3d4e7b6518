# syntax=docker/dockerfile:1
# phctl as a container image: a CI job starts phctl at once instead of installing it (README,
# "CI"). Build and try it:
#   docker build -t phctl:0.1.0 --build-arg PHCTL_REVISION="$(git rev-parse HEAD)" .
#   docker run --rm -v "$PWD/examples:/work" phctl:0.1.0 validate .
#
# The base image is pinned by digest (a tag moves): node:20-bookworm-slim's multi-platform
# index. `scripts/update-base-image.sh` asks the registry for the tag's digest now and rewrites
# this line (then rebuild, test, commit). A --build-arg NODE_IMAGE=… overrides it.
ARG NODE_IMAGE=node:20-bookworm-slim@sha256:2cf067cfed83d5ea958367df9f966191a942351a2df77d6f0193e162b5febfc0

# ---- build: the bundles (dev dependencies) and better-sqlite3's native module -------------
FROM ${NODE_IMAGE} AS build
# A compiler for better-sqlite3 when its prebuilt binary cannot be downloaded: this stage only.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /build
COPY package.json package-lock.json ./
# Install scripts run only for the two dependencies that need theirs (package.json allowScripts).
RUN npm ci --ignore-scripts --no-audit --no-fund \
  && npm rebuild better-sqlite3 esbuild
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/bundle.js scripts/
COPY schemas schemas
COPY src src
# The examples train the bundles' V8 code caches (scripts/bundle.js); they are not shipped.
COPY examples examples
RUN npm run build

# ---- the image: Node, phctl's production dependencies, the bundles; no compiler, not root --
FROM ${NODE_IMAGE}
ARG NODE_IMAGE
ARG PHCTL_VERSION=0.1.0
ARG PHCTL_REVISION=unknown
ARG PHCTL_SOURCE=https://github.com/your-org/phctl
LABEL org.opencontainers.image.title="phctl" \
  org.opencontainers.image.description="Manage a project-hosting service as code: validate, plan, apply, drift, export, and a reference server." \
  org.opencontainers.image.version="${PHCTL_VERSION}" \
  org.opencontainers.image.revision="${PHCTL_REVISION}" \
  org.opencontainers.image.source="${PHCTL_SOURCE}" \
  org.opencontainers.image.licenses="Apache-2.0" \
  org.opencontainers.image.base.name="${NODE_IMAGE}"
# What CI jobs run beside phctl: git (the plan's base worktree), curl (the GitLab apply job).
RUN apt-get update \
  && apt-get install -y --no-install-recommends git ca-certificates curl \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production
WORKDIR /opt/phctl
COPY package.json package-lock.json ./
# The production dependencies from the lockfile, no install script run; the one native module
# comes built from the build stage (the same base image: the same Node ABI and libc).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
  && npm cache clean --force
COPY --from=build /build/node_modules/better-sqlite3/build/Release/better_sqlite3.node node_modules/better-sqlite3/build/Release/
COPY --from=build /build/dist dist
COPY --from=build /build/schemas schemas
# git refuses a checkout another user owns ("dubious ownership"): GitHub's job containers and
# Docker actions run as root on a checkout the runner's user owns, GitLab's runners check out
# as root, a local run mounts the caller's files. The image runs only phctl on the checkout it
# is given, so git trusts every directory, for every user (the system config): the image works
# as root and as node.
RUN ln -s /opt/phctl/dist/cli/main.js /usr/local/bin/phctl \
  && phctl --version \
  && git config --system --add safe.directory '*' \
  && mkdir /work && chown node:node /work
# The node image's unprivileged user (uid 1000) by default; `--user root` (GitHub's container
# jobs, Docker actions) works as well.
USER node
WORKDIR /work
ENTRYPOINT ["phctl"]
CMD ["--help"]
