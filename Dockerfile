# Loom Runs in a container. Stages:
#   build    all dependencies and the source; `next build` writes the standalone server
#   init     the same, to run the one-shot setup scripts (npm run db:init ...) against a server
#   runtime  the standalone server only: its traced production modules, no source, no npm, no data
# linux/amd64 only: the embedded engine ships as a glibc x64 library.

FROM node:20-bookworm-slim AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY package.json package-lock.json ./
# Exactly the lockfile's versions. The lockfile names chdb's other-platform engine packages too
# (optional, for other OS/CPU, never fetched here), which is what lets `npm ci` accept it.
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx next build && node scripts/standalone.mjs /standalone

FROM build AS init
USER node
CMD ["npm", "run", "db:init"]

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    HOSTNAME=0.0.0.0 \
    PORT=3000 \
    LOOM_RUNS_DATA_DIR=/data/embedded
WORKDIR /app
COPY --from=build --chown=root:root /standalone ./
# The embedded engine's data lives in a volume, never in the image; the server runs as `node`.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3000
# Alive = the server answers: 200 without users, 401 when users are configured (health needs a login).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "require('http').get({host:'127.0.0.1',port:process.env.PORT,path:'/api/health',timeout:4000},r=>process.exit([200,401].includes(r.statusCode)?0:1)).on('error',()=>process.exit(1))"]
CMD ["node", "server.js"]
