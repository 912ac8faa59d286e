#!/usr/bin/env bash
# Copyright (c) The queuecap Authors
# SPDX-License-Identifier: MPL-2.0
# Prints the path of the Terraform CLI on PATH when it is 1.8 or newer, the
# first Terraform with provider functions, so that `make testacc` runs the
# provider's acceptance tests under it too. Otherwise it prints nothing and
# says on standard error why that run is skipped. (The Terraform that
# tools/install-cli.sh builds, 1.5.7, has no provider functions.)
set -euo pipefail

min=1.8.0
if ! cli=$(command -v terraform); then
	echo "note: no terraform on PATH, so the provider's tests do not run under a Terraform with provider functions (1.8+)" >&2
	exit 0
fi
# `version -json` exists since Terraform 0.13; an older or foreign CLI yields no version.
version=$("$cli" version -json 2>/dev/null | sed -n 's/.*"terraform_version":[[:space:]]*"\([^"]*\)".*/\1/p' || true)
core=${version%%-*}
if [ -z "$core" ]; then
	echo "note: $cli reports no version with 'version -json', so the provider's tests do not run under it" >&2
	exit 0
fi
if [ "$(printf '%s\n' "$min" "$core" | sort -V | head -n 1)" != "$min" ]; then
	echo "note: $cli is Terraform $version, older than $min, so the provider's tests do not run under a Terraform with provider functions" >&2
	exit 0
fi
echo "$cli"
