#!/usr/bin/env bash
# Pin the Dockerfile's base image to the digest its tag names today (the one command to update
# it): asks the registry for node:20-bookworm-slim's multi-platform index digest and rewrites
# `ARG NODE_IMAGE=…@sha256:…`. Needs docker with buildx and access to Docker Hub. Then build
# the image, run it, and commit the Dockerfile.
#   scripts/update-base-image.sh [TAG]     (default node:20-bookworm-slim)
set -euo pipefail
cd "$(dirname "$0")/.."
tag=${1:-node:20-bookworm-slim}
digest=$(docker buildx imagetools inspect --format '{{json .Manifest}}' "$tag" |
  node -e 'const m = JSON.parse(require("fs").readFileSync(0, "utf8")); process.stdout.write(m.digest)')
if ! [[ "$digest" =~ ^sha256:[0-9a-f]{64}$ ]]; then
  echo "update-base-image: no digest for $tag (got '$digest')" >&2
  exit 1
fi
sed -i -E "s|^ARG NODE_IMAGE=.*$|ARG NODE_IMAGE=$tag@$digest|" Dockerfile
grep -n '^ARG NODE_IMAGE=' Dockerfile
