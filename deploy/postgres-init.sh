#!/bin/sh
# Run once by the postgres image on an empty volume: the service's ordinary role (no superuser, no
# CREATEDB) and its database, which it owns. That is all cluster mode needs (docs/cluster.md).
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres <<SQL
CREATE ROLE linkbot LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD '${LINKBOT_DB_PASSWORD}';
CREATE DATABASE linkbot OWNER linkbot;
SQL
