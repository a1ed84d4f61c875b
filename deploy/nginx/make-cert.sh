#!/usr/bin/env sh
# A self-signed certificate for a floor on a private network (use a real one if you can):
#   make-cert.sh [NAME [DIR]]   writes DIR/floor.crt and DIR/floor.key (DIR: ./certs beside this)
set -eu
name=${1:-floor.local}
dir=${2:-$(dirname "$0")/certs}
mkdir -p "$dir"
openssl req -x509 -newkey rsa:2048 -nodes -days 825 -subj "/CN=$name" \
  -addext "subjectAltName=DNS:$name" \
  -keyout "$dir/floor.key" -out "$dir/floor.crt" 2>/dev/null
echo "wrote $dir/floor.crt and floor.key for $name"
