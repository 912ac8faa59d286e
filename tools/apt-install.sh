#!/usr/bin/env bash
# Copyright (c) The queuecap Authors
# SPDX-License-Identifier: MPL-2.0
# Installs the Debian package of each command given that is not on PATH,
# with apt-get (as root, or through sudo): the make targets' tools that
# Debian packages rather than the Go module proxy. Exits 1, naming them,
# when commands are still missing (no apt-get, or no such package).
#
#   tools/apt-install.sh skopeo umoci       # the command is the package
#   tools/apt-install.sh promtool:prometheus
set -euo pipefail

missing=() packages=()
for arg in "$@"; do
	# type -P: an executable on PATH, not a shell keyword such as time.
	type -P "${arg%%:*}" >/dev/null || { missing+=("${arg%%:*}"); packages+=("${arg#*:}"); }
done
[ ${#missing[@]} = 0 ] && exit 0
if command -v apt-get >/dev/null; then
	sudo=$([ "$(id -u)" = 0 ] || echo sudo)
	echo "installing ${packages[*]} with apt-get" >&2
	# A failure shows in its own words, and below as the commands missing.
	$sudo apt-get update -qq || true
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null || true
fi
still=()
for c in "${missing[@]}"; do
	type -P "$c" >/dev/null || still+=("$c")
done
[ ${#still[@]} = 0 ] || { echo "${still[*]}: not installed, and apt-get could not install it" >&2; exit 1; }
