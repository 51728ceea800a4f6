# brokerbench container image: a static binary on a small base, run as a non-root user.
#
#   docker build -t brokerbench .
#   docker run --rm brokerbench run --db postgres://... --users 50:300:50 --out /work/run.json
#
# The image holds no PostgreSQL server, so --db is required (the managed local
# PostgreSQL needs server binaries on the host).

FROM golang:1.26-alpine AS build
WORKDIR /src
# Modules first, so source edits do not invalidate the download layer.
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# CGO off: a static binary runs on any base, and neither database client needs cgo.
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/brokerbench ./cmd/brokerbench

# Alpine rather than distroless: the compose and CI examples chain commands in /bin/sh.
FROM alpine:3.22
RUN adduser -D -H -u 10001 brokerbench && mkdir /work && chown brokerbench /work
COPY --from=build /out/brokerbench /usr/local/bin/brokerbench
USER 10001
WORKDIR /work
ENTRYPOINT ["brokerbench"]
CMD ["--help"]
