#!/bin/sh
# The part of the official postgres image's entrypoint that compose.yaml relies on: on an empty PGDATA, a cluster
# whose superuser is POSTGRES_USER with the password in POSTGRES_PASSWORD_FILE, and the database POSTGRES_DB.
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  initdb --username="$POSTGRES_USER" --pwfile="$POSTGRES_PASSWORD_FILE" --auth-local=trust \
    --auth-host=scram-sha-256 --pgdata="$PGDATA" >/dev/null
  echo 'host all all all scram-sha-256' >>"$PGDATA/pg_hba.conf"
  if [ "$POSTGRES_DB" != postgres ]; then
    echo "CREATE DATABASE \"$POSTGRES_DB\" OWNER \"$POSTGRES_USER\"" | postgres --single -D "$PGDATA" postgres >/dev/null
  fi
fi
exec postgres -D "$PGDATA" -c listen_addresses='*'
