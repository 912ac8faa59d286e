#!/usr/bin/env bash
# Copyright (c) The queuecap Authors
# SPDX-License-Identifier: MPL-2.0
# Installs a CLI the make targets run into the cache when it is missing and
# prints its path. The CLIs are built from the Go module proxy, the only
# source this project's machines reach; each build is cached under
# $QUEUECAP_CACHE (default $HOME/.cache/queuecap) and reused.
#
#   tools/install-cli.sh terraform      # Terraform 1.5.7, about 4 min cold
#   tools/install-cli.sh tofu           # OpenTofu 1.12.6, about 10 min cold
#   tools/install-cli.sh tflint         # TFLint 0.64.0 (the plugin tests, make bench), a few min cold
#   tools/install-cli.sh golangci-lint  # golangci-lint 2.15.0 (make lint), a few min cold
#   tools/install-cli.sh goreleaser     # GoReleaser 2.17.0 (make release-check), about 15 min cold
#   tools/install-cli.sh actionlint     # actionlint 1.7.12 (make actionlint), a minute or two cold
#
# golangci-lint is built here with its own go.sum rather than as a `go tool`
# of tools/go.mod: there its dependencies would be resolved together with
# tfplugindocs', and the linters would run on versions nobody tested.
set -euo pipefail

TERRAFORM_VERSION=1.5.7
TOFU_VERSION=1.12.6
TFLINT_VERSION=0.64.0
GOLANGCI_LINT_VERSION=2.15.0
# 2.18 needs Go 1.27; 2.17.0 is the newest that builds on Go 1.26.
GORELEASER_VERSION=2.17.0
ACTIONLINT_VERSION=1.7.12
cache=${QUEUECAP_CACHE:-$HOME/.cache/queuecap}
bin=$cache/bin
mkdir -p "$bin"

case ${1:-} in
terraform)
	out=$bin/terraform-$TERRAFORM_VERSION
	if [ ! -x "$out" ]; then
		echo "installing Terraform $TERRAFORM_VERSION into $bin (cached for later runs)" >&2
		tmp=$(mktemp -d)
		# go install builds outside any module, so the project's go.mod is not touched.
		(cd "$tmp" && GOBIN=$tmp GOFLAGS=-mod=mod go install "github.com/hashicorp/terraform@v$TERRAFORM_VERSION") >&2
		mv "$tmp/terraform" "$out"
		rm -rf "$tmp"
	fi
	;;
tofu)
	out=$bin/tofu-$TOFU_VERSION
	if [ ! -x "$out" ]; then
		echo "building OpenTofu $TOFU_VERSION into $bin (cached for later runs)" >&2
		dir=$(cd /tmp && GOFLAGS=-mod=mod go mod download -json "github.com/opentofu/opentofu@v$TOFU_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
		[ -n "$dir" ] || { echo "go mod download did not report a source directory for OpenTofu" >&2; exit 1; }
		src=$(mktemp -d)
		cp -r "$dir/." "$src"
		chmod -R u+w "$src"
		(cd "$src" && go build -o "$out.tmp" ./cmd/tofu) >&2
		mv "$out.tmp" "$out"
		rm -rf "$src"
	fi
	;;
tflint)
	out=$bin/tflint-$TFLINT_VERSION
	if [ ! -x "$out" ]; then
		echo "installing TFLint $TFLINT_VERSION into $bin (cached for later runs)" >&2
		tmp=$(mktemp -d)
		(cd "$tmp" && GOBIN=$tmp GOFLAGS=-mod=mod go install "github.com/terraform-linters/tflint@v$TFLINT_VERSION") >&2
		mv "$tmp/tflint" "$out"
		rm -rf "$tmp"
	fi
	;;
golangci-lint)
	out=$bin/golangci-lint-$GOLANGCI_LINT_VERSION
	if [ ! -x "$out" ]; then
		echo "installing golangci-lint $GOLANGCI_LINT_VERSION into $bin (cached for later runs)" >&2
		tmp=$(mktemp -d)
		(cd "$tmp" && GOBIN=$tmp GOFLAGS=-mod=mod go install "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@v$GOLANGCI_LINT_VERSION") >&2
		mv "$tmp/golangci-lint" "$out"
		rm -rf "$tmp"
	fi
	;;
goreleaser)
	out=$bin/goreleaser-$GORELEASER_VERSION
	if [ ! -x "$out" ]; then
		echo "installing GoReleaser $GORELEASER_VERSION into $bin (cached for later runs)" >&2
		tmp=$(mktemp -d)
		(cd "$tmp" && GOBIN=$tmp GOFLAGS=-mod=mod go install "github.com/goreleaser/goreleaser/v2@v$GORELEASER_VERSION") >&2
		mv "$tmp/goreleaser" "$out"
		rm -rf "$tmp"
	fi
	;;
actionlint)
	out=$bin/actionlint-$ACTIONLINT_VERSION
	if [ ! -x "$out" ]; then
		echo "installing actionlint $ACTIONLINT_VERSION into $bin (cached for later runs)" >&2
		tmp=$(mktemp -d)
		(cd "$tmp" && GOBIN=$tmp GOFLAGS=-mod=mod go install "github.com/rhysd/actionlint/cmd/actionlint@v$ACTIONLINT_VERSION") >&2
		mv "$tmp/actionlint" "$out"
		rm -rf "$tmp"
	fi
	;;
*)
	echo "usage: $0 terraform|tofu|tflint|golangci-lint|goreleaser|actionlint" >&2
	exit 2
	;;
esac
echo "$out"
