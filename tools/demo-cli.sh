#!/usr/bin/env bash
# Copyright (c) The queuecap Authors
# SPDX-License-Identifier: MPL-2.0
# Prints the path of the CLI `make demo` runs, and says on standard error,
# in one line, which one it is and why:
#
#   1. $TERRAFORM, when set;
#   2. the terraform on PATH, when it is 1.0 or newer;
#   3. the tofu on PATH (every OpenTofu release, 1.6 on);
#   4. otherwise the Terraform 1.5.7 that tools/install-cli.sh caches,
#      building it from source first when it is missing (the slow path,
#      with progress lines while it builds).
#
# The demo (examples/sizing) uses the provider's data sources only, which
# every Terraform from 1.0 and every OpenTofu serve through dev_overrides
# without `init`; provider functions (Terraform 1.8+, OpenTofu 1.7+) are not
# part of it, so a CLI without them is not passed over.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)

# version CLI prints the version CLI reports (1.11.4, 1.12.6-dev), or
# nothing. `version -json` exists from Terraform 0.13; before it, the first
# line of `version` says "Terraform v0.12.31".
version() {
	local v
	v=$("$1" version -json 2>/dev/null | sed -n 's/.*"terraform_version":[[:space:]]*"\([^"]*\)".*/\1/p' | head -n 1 || true)
	if [ -z "$v" ]; then
		v=$("$1" version 2>/dev/null | sed -n '1s/^[A-Za-z]* v\([0-9][^ ]*\).*/\1/p' || true)
	fi
	echo "$v"
}

# major VERSION prints VERSION's major number, or nothing for no version.
major() {
	case $1 in
	[0-9]*) echo "${1%%.*}" ;;
	esac
}

if [ -n "${TERRAFORM:-}" ]; then
	echo "==> using $TERRAFORM $(version "$TERRAFORM") (from TERRAFORM)" >&2
	echo "$TERRAFORM"
	exit 0
fi

if cli=$(command -v terraform); then
	v=$(version "$cli")
	m=$(major "$v")
	if [ -n "$m" ] && [ "$m" -ge 1 ]; then
		echo "==> using Terraform $v: $cli (the terraform on PATH)" >&2
		echo "$cli"
		exit 0
	fi
	echo "==> not using $cli: it reports version '${v:-none}', and the demo needs Terraform 1.0 or newer" >&2
fi

if cli=$(command -v tofu); then
	v=$(version "$cli")
	if [ -n "$(major "$v")" ]; then
		echo "==> using OpenTofu $v: $cli (the tofu on PATH)" >&2
		echo "$cli"
		exit 0
	fi
	echo "==> not using $cli: it reports no version" >&2
fi

echo "==> no Terraform 1.0+ or OpenTofu on PATH: using the Terraform 1.5.7 that tools/install-cli.sh builds from source and caches (the first time about 12 minutes on 2 cores; put terraform or tofu on PATH to skip it)" >&2
cli=$("$root/tools/install-cli.sh" terraform)
echo "==> using Terraform $(version "$cli"): $cli (built by tools/install-cli.sh)" >&2
echo "$cli"
