#!/usr/bin/env sh
# A self-signed certificate for a floor on a private network (use a real one if you can).
set -eu
name=${1:-floor.local}
dir=$(dirname "$0")/certs
mkdir -p "$dir"
openssl req -x509 -newkey rsa:2048 -nodes -days 825 -subj "/CN=$name" \
  -addext "subjectAltName=DNS:$name" \
  -keyout "$dir/floor.key" -out "$dir/floor.crt"
echo "wrote $dir/floor.crt and floor.key for $name"
