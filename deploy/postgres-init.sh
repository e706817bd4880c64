#!/bin/sh
# Run once by the postgres image on an empty volume: the service's ordinary role (no superuser, no
# CREATEDB) and its database, which it owns. That is all cluster mode needs (docs/cluster.md).
# The password reaches SQL as a psql variable (:'password' quotes it as a literal), never pasted in.
set -eu
psql -v ON_ERROR_STOP=1 -v password="$LINKBOT_DB_PASSWORD" --username "$POSTGRES_USER" --dbname postgres <<'SQL'
CREATE ROLE linkbot LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD :'password';
CREATE DATABASE linkbot OWNER linkbot;
SQL
