#!/usr/bin/env bash
# Copyright (c) The queuecap Authors
# SPDX-License-Identifier: MPL-2.0
# Generates docs/ with tfplugindocs, offline: the provider's schema comes from
# `providers schema -json` run by a local CLI against a freshly built
# provider installed from a local plugin directory, so nothing is downloaded.
#
#   tools/generate-docs.sh          # writes docs/ in place
#   tools/generate-docs.sh --check  # fails when the committed docs are stale
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# OpenTofu, because Terraform 1.5.7 (the newest buildable here) omits
# provider functions from the schema.
cli=${SCHEMA_CLI:-$("$root/tools/install-cli.sh" tofu)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# tfplugindocs reads the schema under the registry.terraform.io/hashicorp
# namespace of the provider's short name.
version=0.0.1
platform=$(go env GOOS)_$(go env GOARCH)
plugins=$work/plugins/registry.terraform.io/hashicorp/queuecap/$version/$platform
mkdir -p "$plugins" "$work/config"
(cd "$root" && CGO_ENABLED=0 go build -o "$plugins/terraform-provider-queuecap_v$version" .)
cat >"$work/config/main.tf" <<'TF'
terraform {
  required_providers {
    queuecap = { source = "registry.terraform.io/hashicorp/queuecap" }
  }
}
TF
: >"$work/empty.tfrc"
export TF_CLI_CONFIG_FILE=$work/empty.tfrc
"$cli" -chdir="$work/config" init -backend=false -input=false -plugin-dir="$work/plugins" >/dev/null
"$cli" -chdir="$work/config" providers schema -json >"$work/schema.json"

generate() { # provider-dir
	(cd "$root/tools" && go tool tfplugindocs generate --provider-dir "$1" \
		--provider-name queuecap --rendered-provider-name queuecap \
		--providers-schema "$work/schema.json") >/dev/null
}

# tfplugindocs' own check of what the Registry reads (front matter, file
# names, a page per data source and function), with the subcategories
# templates/ assigns: a page without one, as a new formula's is until its
# name is added to templates/data-sources.md.tmpl or functions.md.tmpl,
# fails here.
validate() { # provider-dir
	local out
	if ! out=$(cd "$root/tools" && go tool tfplugindocs validate --provider-dir "$1" \
		--provider-name queuecap --providers-schema "$work/schema.json" \
		--allowed-resource-subcategories "Sizing,Recovery,Alarms,Queue settings" \
		--allowed-guide-subcategories "Linting,Testing" 2>&1); then
		grep -v '\[DEBUG\]' <<<"$out" >&2
		return 1
	fi
}

if [ "${1:-}" = --check ]; then
	# Generate into a copy so the check never writes into the work tree.
	mkdir -p "$work/tree"
	cp -r "$root/examples" "$work/tree/"
	[ -d "$root/templates" ] && cp -r "$root/templates" "$work/tree/"
	[ -d "$root/docs" ] && cp -r "$root/docs" "$work/tree/"
	generate "$work/tree"
	if ! diff -r "$root/docs" "$work/tree/docs"; then
		echo "docs/ is stale: run 'make generate' and commit the result" >&2
		exit 1
	fi
	validate "$root"
	echo "docs/ is current"
else
	"$cli" fmt -recursive "$root/examples" >/dev/null
	generate "$root"
	validate "$root"
	echo "docs/ generated"
fi
