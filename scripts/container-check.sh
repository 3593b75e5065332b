#!/usr/bin/env bash
# Builds Lyceum's image with podman and runs it as a school would, then brings up compose.yaml's topology (two
# instances, PostgreSQL, Redis, Caddy on HTTPS) with podman-compose and reaches the school through Caddy.
#
#   scripts/container-check.sh            (as root; needs podman, podman-compose, curl; debootstrap if no base image)
#
# No image registry is needed: the base is BASE_IMAGE (default: a Debian 12 made here with debootstrap and imported),
# and PostgreSQL, Redis and Caddy are stand-ins built from Debian's packages (test/container/stand-ins.Containerfile)
# unless POSTGRES_IMAGE, REDIS_IMAGE and CADDY_IMAGE name real ones. Each step's time is printed at the end.
# KEEP_IMAGES=0 removes the images it built; by default they stay, so a second run reuses their layers.
set -euo pipefail
cd "$(dirname "$0")/.."

BASE_IMAGE=${BASE_IMAGE:-localhost/debian-base:bookworm}
IMAGE=localhost/lyceum:check
PROJECT=lyceum-check
HTTPS_PORT=${CHECK_HTTPS_PORT:-18443}
HTTP_PORT=${CHECK_HTTP_PORT:-18080}
SINGLE_PORT=${CHECK_PORT:-18300}
HOST=lyceum.test
work=$(mktemp -d /tmp/lyceum-container-check.XXXXXX)
timings=()

say() { printf '\n== %s\n' "$*"; }
fail() {
  printf 'FAIL: %s\n' "$*" >&2
  [ ${#timings[@]} = 0 ] || printf '%s\n' "${timings[@]}" >&2
  exit 1
}
now() { date +%s.%N; }
# Whether a container's log has a line with this text (the log read whole: `grep -q` in a pipe would cut it short).
logged() { podman logs "$1" >"$work/log" 2>&1 && grep -q -- "$2" "$work/log"; }
# Records how long the step that began at $1 took, under the name $2.
took() { timings+=("$(printf '%-44s %6.1f s' "$2" "$(echo "$(now) - $1" | bc)")"); }

cleanup() {
  set +e
  if [ -f "$work/compose.yaml" ]; then
    (cd "$work" && podman-compose -p "$PROJECT" down -v >/dev/null 2>&1)
  fi
  podman rm -f -t 0 lyceum-check-single >/dev/null 2>&1
  podman volume rm -f lyceum-check-single >/dev/null 2>&1
  if [ "${KEEP_IMAGES:-1}" = 0 ]; then
    podman rmi -f "$IMAGE" localhost/lyceum-standin-{postgres,redis,caddy}:check >/dev/null 2>&1
  fi
  rm -rf "$work"
}
trap cleanup EXIT

for tool in podman podman-compose curl bc; do
  command -v "$tool" >/dev/null || fail "$tool is not installed (apt-get install podman podman-compose curl bc)"
done

say "base image $BASE_IMAGE"
if ! podman image exists "$BASE_IMAGE"; then
  [ "$BASE_IMAGE" = localhost/debian-base:bookworm ] || fail "no image $BASE_IMAGE here"
  command -v debootstrap >/dev/null || fail "no base image, and no debootstrap to make one (apt-get install debootstrap)"
  t=$(now)
  debootstrap --variant=minbase bookworm "$work/rootfs" http://deb.debian.org/debian >/dev/null
  tar -C "$work/rootfs" -c . | podman import - "$BASE_IMAGE" >/dev/null 2>&1
  rm -rf "$work/rootfs"
  took "$t" "base image (debootstrap + import)"
fi

say "can containers run here?"
if ! podman run --rm "$BASE_IMAGE" true 2>"$work/probe.err"; then
  # Seen on a Firecracker VM without CAP_SYS_RESOURCE and with a cgroup v1/v2 hybrid: crun refuses the hybrid, and
  # podman's default rlimits are above what this machine lets a process raise its own to.
  echo "podman's defaults fail: $(tail -1 "$work/probe.err")"
  echo "retrying with runc and rlimits within this machine's own"
  cat >"$work/containers.conf" <<EOF
[containers]
default_ulimits = ["nofile=$(ulimit -Hn):$(ulimit -Hn)", "nproc=32768:32768"]
[engine]
runtime = "runc"
EOF
  export CONTAINERS_CONF=$work/containers.conf
  podman run --rm "$BASE_IMAGE" true || fail "containers cannot run here (see the errors above)"
fi
echo yes

say "build $IMAGE"
secret=()
# A network whose TLS a proxy re-signs: the build's npm trusts what this machine trusts.
[ -s /etc/ssl/certs/ca-certificates.crt ] && secret=(--secret "id=ca-certificates,src=/etc/ssl/certs/ca-certificates.crt")
t=$(now)
podman build --format docker "${secret[@]}" --build-arg BASE_IMAGE="$BASE_IMAGE" -t "$IMAGE" -f Containerfile . \
  >"$work/build.log" 2>&1 || fail "podman build: $(tail -20 "$work/build.log")"
took "$t" "build the Lyceum image"
podman image inspect "$IMAGE" --format 'image size: {{.Size}} bytes'

say "one container: read-only, a volume, SQLite"
podman volume create lyceum-check-single >/dev/null
t=$(now)
podman run -d --name lyceum-check-single --read-only --tmpfs /tmp -v lyceum-check-single:/var/lib/lyceum \
  -p "127.0.0.1:$SINGLE_PORT:3000" -e BASE_URL="http://$HOST:$SINGLE_PORT" "$IMAGE" >/dev/null 2>"$work/run.err" ||
  fail "podman run: $(cat "$work/run.err")"
# Podman runs health checks on systemd timers; where there is no systemd, the check is run here by hand.
for _ in $(seq 1 300); do
  podman healthcheck run lyceum-check-single >/dev/null 2>&1 && break
  sleep 0.2
done
[ "$(podman inspect lyceum-check-single --format '{{.State.Health.Status}}')" = healthy ] ||
  fail "no healthy container: $(podman logs lyceum-check-single 2>&1 | tail -5)"
took "$t" "one container: start to healthy (first start)"
ready=$(curl -sf "http://127.0.0.1:$SINGLE_PORT/readyz") || fail "/readyz did not answer 200"
[[ $ready == *'"ready"'* ]] || fail "/readyz: $ready"
[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$SINGLE_PORT/signin")" = 200 ] || fail "/signin is not 200"
[ "$(podman exec lyceum-check-single id -u)" != 0 ] || fail "the server runs as root"
podman exec lyceum-check-single sh -c 'touch /app/x' 2>/dev/null && fail "the image's file system is writable"
logged lyceum-check-single setup_url || fail "no setup link in the log"
t=$(now)
podman stop -t 15 lyceum-check-single >/dev/null 2>>"$work/podman.log"
took "$t" "one container: SIGTERM to stopped"
[ "$(podman inspect lyceum-check-single --format '{{.State.ExitCode}}')" = 0 ] || fail "exit code after SIGTERM is not 0"
logged lyceum-check-single 'stopping: finishing in-flight requests' || fail "no graceful stop"
t=$(now)
podman start lyceum-check-single >/dev/null 2>>"$work/podman.log"
for _ in $(seq 1 300); do
  curl -sf "http://127.0.0.1:$SINGLE_PORT/readyz" >/dev/null && break
  sleep 0.2
done
took "$t" "one container: restart to ready (data kept)"
podman rm -f -t 15 lyceum-check-single >/dev/null 2>>"$work/podman.log"
echo ok

say "stand-ins for postgres, redis and caddy"
t=$(now)
for name in postgres redis caddy; do
  var=${name^^}_IMAGE
  if [ -z "${!var:-}" ]; then
    podman build --format docker --target "$name" --build-arg BASE_IMAGE="$BASE_IMAGE" \
      -t "localhost/lyceum-standin-$name:check" -f test/container/stand-ins.Containerfile test/container \
      >"$work/build-$name.log" 2>&1 || fail "podman build $name: $(tail -20 "$work/build-$name.log")"
    export "$var=localhost/lyceum-standin-$name:check"
  fi
done
took "$t" "stand-in images"

say "compose.yaml with podman-compose"
# The repository's compose file and Caddyfile as they are, in a folder of their own with its .env and secrets.
mkdir -p "$work/docs/deploy" "$work/secrets"
cp compose.yaml "$work/"
cp docs/deploy/compose.Caddyfile "$work/docs/deploy/"
(umask 022 && cd "$work/secrets" &&
  head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' >postgres-password &&
  printf 'postgres://lyceum:%s@postgres:5432/lyceum\n' "$(cat postgres-password)" >database-url &&
  head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >metrics-token)
cat >"$work/.env" <<EOF
BASE_URL=https://$HOST:$HTTPS_PORT
CADDY_TLS=internal
HTTPS_PORT=$HTTPS_PORT
HTTP_PORT=$HTTP_PORT
LYCEUM_IMAGE=$IMAGE
POSTGRES_IMAGE=$POSTGRES_IMAGE
REDIS_IMAGE=$REDIS_IMAGE
CADDY_IMAGE=$CADDY_IMAGE
EOF
container() { podman ps -a --format '{{.Names}}' | grep -E "^${PROJECT}[_-]$1[_-]1$"; }
healthy() {
  for _ in $(seq 1 300); do
    podman healthcheck run "$(container "$1")" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  fail "$1 is not healthy: $(podman logs "$(container "$1")" 2>&1 | tail -5)"
}
compose() { (cd "$work" && podman-compose -p "$PROJECT" "$@") >>"$work/compose.log" 2>&1; }
t=$(now)
# podman-compose 1.0 (Debian 12's) starts services in order but does not wait for depends_on's conditions, and without
# systemd no health check runs by itself: the waits compose.yaml asks for are done here.
compose up -d postgres redis || fail "podman-compose up: $(tail -5 "$work/compose.log")"
healthy postgres
healthy redis
compose up -d migrate || fail "podman-compose up migrate: $(tail -5 "$work/compose.log")"
[ "$(podman wait "$(container migrate)")" = 0 ] || fail "migrate: $(podman logs "$(container migrate)" 2>&1 | tail -5)"
compose up -d || fail "podman-compose up: $(tail -5 "$work/compose.log")"
healthy lyceum-1
healthy lyceum-2
via() { curl -sk --resolve "$HOST:$HTTPS_PORT:127.0.0.1" "$@"; }
for _ in $(seq 1 100); do
  [ "$(via -o /dev/null -w '%{http_code}' "https://$HOST:$HTTPS_PORT/readyz")" = 200 ] && break
  sleep 0.2
done
took "$t" "compose: up to the school on HTTPS"
ready=$(via "https://$HOST:$HTTPS_PORT/readyz")
[[ $ready == *'"postgres"'* ]] || fail "/readyz through Caddy: $ready"
issuer=$(via "https://$HOST:$HTTPS_PORT/.well-known/openid-configuration" | grep -o '"issuer":"[^"]*"')
[ "$issuer" = "\"issuer\":\"https://$HOST:$HTTPS_PORT\"" ] || fail "issuer: $issuer"
via -D "$work/headers" -o /dev/null "https://$HOST:$HTTPS_PORT/signin"
grep -qi '^set-cookie: __Host-.*; Secure' "$work/headers" || fail "no Secure __Host- cookie: $(cat "$work/headers")"
for _ in $(seq 1 8); do via -o /dev/null "https://$HOST:$HTTPS_PORT/api/v1/courses?limit=1"; done
for name in lyceum-1 lyceum-2; do
  served=$(podman logs "$(container "$name")" 2>&1 | grep -c '/api/v1/courses?limit=1' || true)
  [ "$served" -gt 0 ] || fail "$name served none of the requests"
  echo "$name served $served of 8"
done
[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$HTTP_PORT/" -H "Host: $HOST")" = 308 ] ||
  fail "plain HTTP does not redirect to HTTPS"
t=$(now)
podman stop -t 15 "$(container lyceum-1)" "$(container lyceum-2)" >/dev/null 2>>"$work/podman.log"
took "$t" "compose: both instances SIGTERM to stopped"
for name in lyceum-1 lyceum-2; do
  [ "$(podman inspect "$(container "$name")" --format '{{.State.ExitCode}}')" = 0 ] || fail "$name exit code is not 0"
done
echo ok

say "all passed"
printf '%s\n' "${timings[@]}"
