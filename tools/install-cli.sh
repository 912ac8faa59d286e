#!/usr/bin/env bash
# Copyright (c) The queuecap Authors
# SPDX-License-Identifier: MPL-2.0
# Installs a CLI the make targets run into the cache when it is missing and
# prints its path. The CLIs are built from the Go module proxy, the only
# source this project's machines reach; each build is cached under
# $QUEUECAP_CACHE (default $HOME/.cache/queuecap) and reused.
#
#   tools/install-cli.sh terraform      # Terraform 1.5.7, about 12 min cold on 2 cores
#   tools/install-cli.sh tofu           # OpenTofu 1.12.6, about 10 min cold
#   tools/install-cli.sh tflint         # TFLint 0.64.0 (the plugin tests, make bench), a few min cold
#   tools/install-cli.sh golangci-lint  # golangci-lint 2.15.0 (make lint), a few min cold
#   tools/install-cli.sh goreleaser     # GoReleaser 2.17.0 (make release-check), about 15 min cold
#   tools/install-cli.sh gitlab-ci-schema  # GitLab's CI JSON schema (ci.json), from npm, seconds
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
# GitLab's CI schema (app/assets/javascripts/editor/schema/ci.json of its
# repository) comes from npm, the one registry here that ships it: the
# gitlab-ci-local package fetches it from GitLab when it is built and
# bundles it whole as an object literal. Both checksums are pinned: the
# package's, and that of the schema read out of it.
GITLAB_CI_LOCAL_VERSION=4.75.1
GITLAB_CI_LOCAL_SHA256=fb1165eafff80c2a9eaf05a3e392f2558b5db7daa747b61d83450e18fb549bb8
GITLAB_CI_SCHEMA_SHA256=7568b544b4b95102f21e9fd89d769d54ee6f86b35d2fbb7f7b947d6fa9fc4dda
ACTIONLINT_VERSION=1.7.12
cache=${QUEUECAP_CACHE:-$HOME/.cache/queuecap}
bin=$cache/bin
mkdir -p "$bin"

# progress WHAT COMMAND... runs COMMAND, saying every
# $QUEUECAP_PROGRESS_SECONDS (default 30) how long it has been building
# WHAT: a cold build prints nothing else for minutes. The ticker's sleep
# keeps none of the script's output open, so a pipe closes when we are done.
progress() {
	local what=$1 every=${QUEUECAP_PROGRESS_SECONDS:-30} ticker status=0
	shift
	(
		start=$SECONDS
		while sleep "$every" >/dev/null 2>&1; do
			s=$((SECONDS - start))
			printf '  ... still building %s: %d min %02d s so far\n' "$what" $((s / 60)) $((s % 60)) >&2
		done
	) &
	ticker=$!
	"$@" || status=$?
	kill "$ticker" 2>/dev/null || true
	wait "$ticker" 2>/dev/null || true
	return "$status"
}

# in_dir DIR COMMAND... runs COMMAND in DIR.
in_dir() (cd "$1" && shift && "$@")

# go_install NAME VERSION PACKAGE installs PACKAGE@vVERSION as
# $bin/NAME-VERSION when it is missing and sets out to its path. go install
# builds outside any module, so the project's go.mod is not touched.
go_install() {
	out=$bin/$1-$2
	if [ ! -x "$out" ]; then
		echo "building $1 $2 from source into $bin with go install (cached for later runs)" >&2
		tmp=$(mktemp -d)
		progress "$1 $2" in_dir "$tmp" env GOBIN="$tmp" GOFLAGS=-mod=mod go install "$3@v$2" >&2
		# The binary is named for the package's last element, a major
		# version suffix (/v2) aside.
		name=${3##*/}
		case $name in v[0-9]*) name=${3%/*} name=${name##*/} ;; esac
		mv "$tmp/$name" "$out"
		rm -rf "$tmp"
	fi
}

case ${1:-} in
terraform)
	go_install terraform "$TERRAFORM_VERSION" github.com/hashicorp/terraform
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
		progress "OpenTofu $TOFU_VERSION" in_dir "$src" go build -o "$out.tmp" ./cmd/tofu >&2
		mv "$out.tmp" "$out"
		rm -rf "$src"
	fi
	;;
tflint)
	go_install tflint "$TFLINT_VERSION" github.com/terraform-linters/tflint
	;;
golangci-lint)
	go_install golangci-lint "$GOLANGCI_LINT_VERSION" github.com/golangci/golangci-lint/v2/cmd/golangci-lint
	;;
goreleaser)
	go_install goreleaser "$GORELEASER_VERSION" github.com/goreleaser/goreleaser/v2
	;;
gitlab-ci-schema)
	out=$cache/schemas/gitlab-ci-$GITLAB_CI_LOCAL_VERSION.json
	if [ ! -f "$out" ]; then
		echo "fetching GitLab's CI schema from gitlab-ci-local $GITLAB_CI_LOCAL_VERSION (npm) into $cache/schemas" >&2
		mkdir -p "$cache/schemas"
		tmp=$(mktemp -d)
		trap 'rm -rf "$tmp"' EXIT
		(cd "$tmp" && npm pack --silent "gitlab-ci-local@$GITLAB_CI_LOCAL_VERSION" >/dev/null) >&2
		echo "$GITLAB_CI_LOCAL_SHA256  $tmp/gitlab-ci-local-$GITLAB_CI_LOCAL_VERSION.tgz" | sha256sum -c --quiet - >&2
		tar -xzf "$tmp/gitlab-ci-local-$GITLAB_CI_LOCAL_VERSION.tgz" -C "$tmp" package/dist/index.js
		# The literal starts with the schema's own $schema and $id; it is
		# evaluated alone, in an empty context, and written as JSON.
		node - "$tmp/package/dist/index.js" >"$tmp/ci.json" <<'EOF'
const fs = require("node:fs");
const vm = require("node:vm");
const src = fs.readFileSync(process.argv[2], "utf8");
const marker = '{$schema:"http://json-schema.org/draft-07/schema#",$id:"https://gitlab.com/.gitlab-ci.yml"';
const start = src.indexOf(marker);
if (start < 0 || src.indexOf(marker, start + 1) >= 0) {
  throw new Error("expected one schema literal in the bundle");
}
let depth = 0, quote = null, end = start;
for (; end < src.length; end++) {
  const c = src[end];
  if (quote) {
    if (c === "\\") end++;
    else if (c === quote) quote = null;
  } else if (c === '"' || c === "'" || c === "`") quote = c;
  else if (c === "{" || c === "[") depth++;
  else if ((c === "}" || c === "]") && --depth === 0) break;
}
const schema = vm.runInNewContext("(" + src.slice(start, end + 1) + ")", Object.create(null), { timeout: 5000 });
process.stdout.write(JSON.stringify(schema, null, 2) + "\n");
EOF
		echo "$GITLAB_CI_SCHEMA_SHA256  $tmp/ci.json" | sha256sum -c --quiet - >&2
		mv "$tmp/ci.json" "$out"
	fi
	;;
actionlint)
	go_install actionlint "$ACTIONLINT_VERSION" github.com/rhysd/actionlint/cmd/actionlint
	;;
*)
	echo "usage: $0 terraform|tofu|tflint|golangci-lint|goreleaser|actionlint|gitlab-ci-schema" >&2
	exit 2
	;;
esac
echo "$out"
