#!/usr/bin/env bash
# make release-check: `goreleaser check` of .goreleaser.yml, then a snapshot
# release of it for this machine's platform only (every platform would take
# most of an hour on 2 CPUs), checked as the registry and a user take it:
# the provider's zip, SHA256SUMS and manifest; the CLI's archive and
# checksums file; the CLI installed from its archive reporting the
# snapshot's version and commit and linting the examples. GoReleaser is
# built into the cache by tools/install-cli.sh; nothing is signed or
# published. With --check-only, stops after `goreleaser check`.
set -euo pipefail
cd "$(dirname "$0")/.."

goreleaser=$(tools/install-cli.sh goreleaser)
"$goreleaser" check
[ "${1:-}" = --check-only ] && exit 0

goos=$(go env GOOS)
goarch=$(go env GOARCH)
work=.cache/release
mkdir -p "$work"
# Both builds read their platforms from the anchors on these two lines.
sed -e "s/^\(    goos: &goos \).*/\1[$goos]/" -e "s/^\(    goarch: &goarch \).*/\1[$goarch]/" .goreleaser.yml >"$work/goreleaser.yml"
grep -q "^    goos: &goos \[$goos\]$" "$work/goreleaser.yml" && grep -q "^    goarch: &goarch \[$goarch\]$" "$work/goreleaser.yml" ||
	{ echo "release-check: cannot narrow the goos and goarch anchors of .goreleaser.yml to $goos/$goarch" >&2; exit 1; }
# GoReleaser reads the commit only where the clone has a remote: give a
# worktree without one the repository's, for this run's git commands only.
if [ -z "$(git remote)" ]; then
	export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.url GIT_CONFIG_VALUE_0=https://github.com/queuecap/terraform-provider-queuecap.git
fi
"$goreleaser" release --snapshot --clean --skip=sign --config "$work/goreleaser.yml"

fail() { echo "release-check: $*" >&2; exit 1; }
version=$(grep -o '"version":"[^"]*"' dist/metadata.json | head -1 | cut -d'"' -f4)
[ -n "$version" ] || fail "no version in dist/metadata.json"
commit=$(git rev-parse HEAD)
provider=terraform-provider-queuecap_$version
cli=queuecap_${version}_${goos}_$goarch.tar.gz
[ "$goos" = windows ] && cli=${cli%.tar.gz}.zip

# The registry's files, exactly: the sums list the provider's zip and the
# manifest, nothing of the CLI's.
expected=$(printf '%s\n' "${provider}_${goos}_$goarch.zip" "${provider}_manifest.json" | sort)
listed=$(awk '{print $2}' "dist/${provider}_SHA256SUMS" | sort)
[ "$listed" = "$expected" ] || fail "${provider}_SHA256SUMS lists:"$'\n'"$listed"$'\n'"want:"$'\n'"$expected"
listed=$(awk '{print $2}' "dist/queuecap_${version}_SHA256SUMS")
[ "$listed" = "$cli" ] || fail "queuecap_${version}_SHA256SUMS lists:"$'\n'"$listed"$'\n'"want $cli"
# The manifest is uploaded under its release name from the repository root.
(cd dist && grep -v '_manifest\.json$' "${provider}_SHA256SUMS" | sha256sum --quiet -c - && sha256sum --quiet -c "queuecap_${version}_SHA256SUMS")
grep "  ${provider}_manifest.json$" "dist/${provider}_SHA256SUMS" | sed "s/  .*/  terraform-registry-manifest.json/" | sha256sum --quiet -c -

# A user's install: the archive checked against its sums and unpacked.
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
tar -xzf "dist/$cli" -C "$bin" queuecap
got=$("$bin/queuecap" --version)
[ "$got" = "queuecap v$version (commit $commit)" ] || fail "the archive's queuecap --version says: $got"
"$bin/queuecap" lint --config examples/lint/queuecap.hcl examples/lint/good >/dev/null || fail "queuecap lint examples/lint/good failed"
set +e
"$bin/queuecap" lint --config examples/lint/queuecap.hcl examples/lint/bad >/dev/null
code=$?
set -e
[ "$code" = 2 ] || fail "queuecap lint examples/lint/bad exited $code, want 2"
echo "release-check: $provider and $cli for $goos/$goarch are as the registry and a user want them"
