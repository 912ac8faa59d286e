#!/usr/bin/env bash
# Copyright (c) The queuecap Authors
# SPDX-License-Identifier: MPL-2.0
# Pushes the OCI image layout tools/image wrote to a registry under each tag
# given, with crane (go-containerregistry, pinned in tools/go.mod), and
# prints the digest pushed. The release pushes to ghcr.io after `crane auth
# login`; `make release-check` to a registry of its own on loopback.
#
#   tools/push-image.sh dist/image ghcr.io/queuecap/queuecap v1.2.3 latest
set -euo pipefail

[ $# -ge 3 ] || { echo "usage: $0 LAYOUT REPOSITORY TAG..." >&2; exit 2; }
layout=$(cd "$1" && pwd)
repository=$2
shift 2
crane() { go -C "$(dirname "$0")" tool crane "$@"; }
# crane prints REPOSITORY@DIGEST for the layout's one entry, an image or an
# index, and pushes it as it is: the digest is the layout's.
pushed=$(crane push "$layout" "$repository:$1")
for tag in "${@:2}"; do
	crane tag "$repository:$1" "$tag" >&2
done
echo "${pushed#*@}"
