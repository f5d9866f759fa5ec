#!/bin/sh
# Builds the server once per source version into a cache directory outside
# the repository, then runs it with all arguments:
#   /bin/sh variants/blind-go/run.sh --port 0 --window-seconds 1
set -eu

dir=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)

if [ -n "${XDG_CACHE_HOME:-}" ]; then
	cache_root=$XDG_CACHE_HOME
elif [ -n "${HOME:-}" ]; then
	cache_root=$HOME/.cache
else
	cache_root=${TMPDIR:-/tmp}/blind-go-cache-$(id -u)
fi

# The build key: the contents of the Go sources and go.mod, in name order.
hash_of() {
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum | cut -c1-16
	else
		cksum | tr ' ' '-'
	fi
}
key=$(cd "$dir" && cat go.mod $(ls *.go | LC_ALL=C sort) | hash_of)

out=$cache_root/blind-go/$key
bin=$out/server

if [ ! -x "$bin" ]; then
	mkdir -p "$out"
	# go needs a build cache; give it one when neither GOCACHE nor HOME says where.
	if [ -z "${GOCACHE:-}" ] && [ -z "${HOME:-}" ] && [ -z "${XDG_CACHE_HOME:-}" ]; then
		GOCACHE=$cache_root/go-build
		export GOCACHE
	fi
	tmp=$out/server.tmp.$$
	# A signal during the build ends the launcher too (a trap alone would let it go on to exec the server).
	trap 'rm -f "$tmp"' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	(cd "$dir" && GOFLAGS=-mod=mod GOPROXY=off CGO_ENABLED=0 go build -o "$tmp" .)
	mv -f "$tmp" "$bin" # atomic: a concurrent start sees the old or the new file, never half
	trap - EXIT INT TERM
fi

exec "$bin" "$@"
