#!/usr/bin/env bash
# Times docs/deploy.md on a fresh Debian 12: the commands of its "One server, one instance" block, run one by one as
# written, on a fresh server (a debootstrapped Debian 12 booted with systemd in a podman container), until the school
# answers on HTTPS. Prints each command's time and the whole.
#
#   scripts/container-fresh-server.sh        (as root; needs podman, debootstrap, curl)
#
# What differs from a real server, and why:
# - the clone is from a bundle of this repository's HEAD (commit first what should be in it), not from the forge;
# - Caddy is told `tls internal` (its own certificate authority): Let's Encrypt cannot reach this machine;
# - the school's name is made to point at the server in its /etc/hosts; the request comes from this machine to the
#   container's port 443, published on CHECK_HTTPS_PORT;
# - before the first command: the Debian mirror's updates and security suites are added to the sources (as a Debian
#   installer sets them), and the certificate authority this machine's network re-signs TLS with is trusted (its npm
#   registry goes through a proxy).
set -euo pipefail
cd "$(dirname "$0")/.."

SERVER_IMAGE=localhost/debian-server:bookworm
NAME=lyceum-fresh-server
PORT=${CHECK_HTTPS_PORT:-19443}
work=$(mktemp -d /tmp/lyceum-fresh-server.XXXXXX)
cleanup() {
  podman rm -f -t 0 "$NAME" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  printf 'FAIL: %s\n' "$*" >&2
  exit 1
}

if ! podman run --rm docker.io/library/debian:bookworm-slim true >/dev/null 2>&1 &&
  ! podman run --rm localhost/debian-base:bookworm true >/dev/null 2>&1 &&
  [ -z "${CONTAINERS_CONF:-}" ]; then
  # The same rescue as scripts/container-check.sh, for the same machine.
  printf '[containers]\ndefault_ulimits = ["nofile=%s:%s", "nproc=32768:32768"]\n[engine]\nruntime = "runc"\n' \
    "$(ulimit -Hn)" "$(ulimit -Hn)" >"$work/containers.conf"
  export CONTAINERS_CONF=$work/containers.conf
fi

if ! podman image exists "$SERVER_IMAGE"; then
  echo "making a fresh Debian 12 (debootstrap, the default variant: what a minimal server install has)"
  debootstrap bookworm "$work/rootfs" http://deb.debian.org/debian >/dev/null
  tar -C "$work/rootfs" -c . | podman import - "$SERVER_IMAGE" >/dev/null 2>&1
  rm -rf "$work/rootfs"
fi

# The block of commands under "## One server, one instance", as the reader copies it.
awk '/^## One server, one instance/ { inside = 1 } inside && /^```sh$/ { block = 1; next } block && /^```$/ { exit }
  block { print }' docs/deploy.md >"$work/commands"
[ -s "$work/commands" ] || fail "no command block under '## One server, one instance' in docs/deploy.md"
grep -q 'github.com' "$work/commands" || fail "the block no longer clones from the forge; update this script"
grep -q '/etc/caddy/Caddyfile && systemctl reload caddy' "$work/commands" ||
  fail "the block no longer writes /etc/caddy/Caddyfile then reloads Caddy; update this script"
sed -i -e 's|https://github.com/[^ ]*lyceum.git|/tmp/lyceum.bundle|' \
  -e 's|/etc/caddy/Caddyfile && systemctl reload caddy|/etc/caddy/Caddyfile \&\& sed -i "0,/{$/s//{\\n\\ttls internal/" /etc/caddy/Caddyfile \&\& systemctl reload caddy|' \
  "$work/commands"

# Each command, then its time in /root/timings.
{
  echo 'set -euo pipefail'
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    printf 'printf "\\n$ %%s\\n" %q\n' "$line"
    echo 'start=$(date +%s.%N)'
    echo "$line"
    printf 'awk -v a="$start" -v b="$(date +%%s.%%N)" -v c=%q '"'"'BEGIN { printf "%%7.1f s  %%s\\n", b - a, c }'"'"' >>/root/timings\n' "$line"
  done <"$work/commands"
} >"$work/run.sh"

git bundle create "$work/lyceum.bundle" HEAD 2>/dev/null
podman run -d --name "$NAME" --hostname school --systemd=always -p "127.0.0.1:$PORT:443" "$SERVER_IMAGE" /sbin/init \
  >/dev/null 2>"$work/podman.log" || fail "podman run: $(cat "$work/podman.log")"
for _ in $(seq 1 50); do
  state=$(podman exec "$NAME" systemctl is-system-running 2>/dev/null || true)
  [ "$state" = running ] || [ "$state" = degraded ] && break
  sleep 0.2
done
podman exec "$NAME" mkdir -p /usr/local/share/ca-certificates
for crt in /usr/local/share/ca-certificates/*.crt; do [ -e "$crt" ] && podman cp "$crt" "$NAME:/usr/local/share/ca-certificates/"; done
podman cp "$work/lyceum.bundle" "$NAME:/tmp/lyceum.bundle"
podman cp "$work/run.sh" "$NAME:/root/run.sh"
podman exec "$NAME" sh -c '
  chmod 644 /tmp/lyceum.bundle
  printf "deb http://deb.debian.org/debian bookworm main\ndeb http://deb.debian.org/debian bookworm-updates main\ndeb http://deb.debian.org/debian-security bookworm-security main\n" >/etc/apt/sources.list
  echo "NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt" >>/etc/environment
  echo "127.0.0.1 school.example" >>/etc/hosts'

t0=$(date +%s.%N)
status=0
timeout 1800 podman exec -e DEBIAN_FRONTEND=noninteractive -e NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt "$NAME" \
  bash /root/run.sh >"$work/run.log" 2>&1 || status=$?
grep -E '^\$ |setup_url|✔|·|✖' "$work/run.log" | cut -c1-160
podman exec "$NAME" cat /root/timings
[ "$status" = 0 ] || fail "the last command failed: $(tail -20 "$work/run.log")"
for _ in $(seq 1 300); do
  [ "$(curl -sk --resolve "school.example:$PORT:127.0.0.1" -o /dev/null -w '%{http_code}' "https://school.example:$PORT/readyz")" = 200 ] && break
  sleep 0.2
done
t1=$(date +%s.%N)
ready=$(curl -sk --resolve "school.example:$PORT:127.0.0.1" "https://school.example:$PORT/readyz")
[[ $ready == *'"ready"'* ]] || fail "the school does not answer on HTTPS: $ready"
echo
echo "the school answers on HTTPS: $ready"
awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%7.1f s  in all, from the first command to the school on HTTPS\n", b - a }'
