#!/usr/bin/env bash
# Copyright (c) The queuecap Authors
# SPDX-License-Identifier: MPL-2.0
# make release-check: `goreleaser check` of .goreleaser.yml, then a snapshot
# release of it for this machine's platform only (every platform would take
# most of an hour on 2 CPUs), checked as the registry and a user take it:
# the provider's zip, SHA256SUMS and manifest; the CLI's archive and
# checksums file; the CLI installed from its archive reporting the
# snapshot's version and commit and linting the examples; the tflint
# plugin's zip and checksums.txt, the plugin installed as `tflint --init`
# installs it and run by the real tflint over the examples; on linux, the
# container image built from the snapshot's CLI as the release builds it,
# checked with Debian's skopeo and umoci and pushed to a registry on
# loopback. GoReleaser and TFLint are built into the cache by
# tools/install-cli.sh; nothing is signed or published. With --check-only,
# stops after `goreleaser check`.
set -euo pipefail
cd "$(dirname "$0")/.."

goreleaser=$(tools/install-cli.sh goreleaser)
tflint=$(tools/install-cli.sh tflint)
"$goreleaser" check
[ "${1:-}" = --check-only ] && exit 0

goos=$(go env GOOS)
goarch=$(go env GOARCH)
work=.cache/release
mkdir -p "$work"
# Every build reads their platforms from the anchors on these two lines.
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
# tflint's names for plugin "queuecap" (plugin/install.go of TFLint 0.64).
plugin=tflint-ruleset-queuecap_${goos}_$goarch.zip
plugin_bin=tflint-ruleset-queuecap
[ "$goos" = windows ] && plugin_bin=$plugin_bin.exe

# The registry's files, exactly: the sums list the provider's zip and the
# manifest, nothing of the CLI's.
expected=$(printf '%s\n' "${provider}_${goos}_$goarch.zip" "${provider}_manifest.json" | sort)
listed=$(awk '{print $2}' "dist/${provider}_SHA256SUMS" | sort)
[ "$listed" = "$expected" ] || fail "${provider}_SHA256SUMS lists:"$'\n'"$listed"$'\n'"want:"$'\n'"$expected"
listed=$(awk '{print $2}' "dist/queuecap_${version}_SHA256SUMS")
[ "$listed" = "$cli" ] || fail "queuecap_${version}_SHA256SUMS lists:"$'\n'"$listed"$'\n'"want $cli"
listed=$(awk '{print $2}' dist/checksums.txt)
[ "$listed" = "$plugin" ] || fail "checksums.txt lists:"$'\n'"$listed"$'\n'"want $plugin"
# tflint takes the binary from the top of the zip; nothing else belongs there.
inside=$(unzip -Z1 "dist/$plugin")
[ "$inside" = "$plugin_bin" ] || fail "$plugin holds:"$'\n'"$inside"$'\n'"want $plugin_bin alone"
# The manifest is uploaded under its release name from the repository root.
(cd dist && grep -v '_manifest\.json$' "${provider}_SHA256SUMS" | sha256sum --quiet -c - && sha256sum --quiet -c "queuecap_${version}_SHA256SUMS" && sha256sum --quiet -c checksums.txt)
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

# A tflint user's install: the binary where `tflint --init` puts it,
# <plugin dir>/<source>/<version>/tflint-ruleset-<name>, written as tflint
# writes it (the zip entry's bytes, mode 0755). The block's version is only
# that directory's name and the release tag v<version> tflint would download:
# tflint neither parses it nor compares it with the version the plugin
# reports, so the snapshot's 0.1.1-snapshot+abc1234 is installed as it is.
source=github.com/queuecap/terraform-provider-queuecap
export TFLINT_PLUGIN_DIR=$bin/tflint-plugins TFLINT_DISABLE_VERSION_CHECK=1
mkdir -p "$TFLINT_PLUGIN_DIR/$source/$version"
unzip -p "dist/$plugin" "$plugin_bin" >"$TFLINT_PLUGIN_DIR/$source/$version/$plugin_bin"
chmod 0755 "$TFLINT_PLUGIN_DIR/$source/$version/$plugin_bin"
# The plugin block takes the queue blocks examples/lint/queuecap.hcl has.
{
	printf 'plugin "queuecap" {\n  enabled = true\n  version = "%s"\n  source  = "%s"\n' "$version" "$source"
	sed -n '/^queue /,/^}/s/^/  /p' examples/lint/queuecap.hcl
	echo '}'
} >"$bin/.tflint.hcl"
# No network: through a proxy nothing listens on, any download tflint tried
# would fail; --init finds the plugin installed and downloads nothing.
offline=(env HTTPS_PROXY=http://127.0.0.1:9 https_proxy=http://127.0.0.1:9 HTTP_PROXY=http://127.0.0.1:9 http_proxy=http://127.0.0.1:9 NO_PROXY= no_proxy=)
got=$("${offline[@]}" "$tflint" --config="$bin/.tflint.hcl" --init) || fail "tflint --init with the plugin installed failed: $got"
[ "$got" = "All plugins are already installed" ] || fail "tflint --init with the plugin installed says: $got"
got=$("${offline[@]}" "$tflint" --config="$bin/.tflint.hcl" --version | grep '^+ ruleset\.queuecap ' || true)
[ "$got" = "+ ruleset.queuecap ($version)" ] || fail "tflint --version lists the plugin as: ${got:-nothing}"
# The same findings at the same places as the CLI's (the rule and the start
# of each queuecap issue; queuecap_not_checked, which would add the CLI's
# skipped check as a notice, is off by default). The JSON holds no
# unescaped quote inside a string, so these patterns match only its keys.
findings() {
	grep -o '"rule":\({"name":\)\{0,1\}"queuecap_[a-z_]*"\|"range":{"filename":"[^"]*","start":{"line":[0-9]*,"column":[0-9]*' |
		awk '/^"rule"/ { r = $0; next } r != "" { print r $0; r = "" }' |
		sed 's/.*"\(queuecap_[a-z_]*\)".*"filename":"\([^"]*\)".*"line":\([0-9]*\),"column":\([0-9]*\)$/\1 \2:\3:\4/' | sort
}
set +e
tflint_json=$("${offline[@]}" "$tflint" --config="$bin/.tflint.hcl" --chdir=examples/lint/bad --format json)
code=$?
set -e
[ "$code" = 2 ] || fail "tflint over examples/lint/bad exited $code, want 2 (issues found):"$'\n'"$tflint_json"
grep -q '"errors":\[\]' <<<"$tflint_json" || fail "tflint over examples/lint/bad reports errors:"$'\n'"$tflint_json"
got=$(findings <<<"$tflint_json" || true)
want=$("$bin/queuecap" lint --config examples/lint/queuecap.hcl --force --format json examples/lint/bad | findings)
[ "$(cut -d' ' -f1 <<<"$want" | sort -u | wc -l)" -ge 8 ] || fail "queuecap lint examples/lint/bad finds fewer than the eight rules:"$'\n'"$want"
[ "$got" = "$want" ] || fail "tflint's queuecap issues over examples/lint/bad:"$'\n'"$got"$'\n'"the CLI's:"$'\n'"$want"
echo "release-check: tflint ${tflint##*-} ran $plugin_bin $version from $plugin as installed for $source: $(wc -l <<<"$got") queuecap issues of $(cut -d' ' -f1 <<<"$got" | sort -u | wc -l) rules, the CLI's"

# The container image, built by tools/image from the snapshot's linux CLI
# as the release builds it from every linux CLI, then read by Debian's OCI
# tools as a user's engine would: skopeo its manifest and configuration,
# umoci unpacks it into a runtime bundle whose queuecap must be the
# archive's binary and report the snapshot's version.
if [ "$goos" != linux ]; then
	echo "release-check: the container image is linux only: not built on $goos"
else
	tools/apt-install.sh skopeo umoci jq
	(cd tools && go build -o "$bin/image" ./image && go build -o "$bin/crane" github.com/google/go-containerregistry/cmd/crane)
	"$bin/image" -dist dist -out dist/image -created "$(git log -1 --format=%cI)"
	ref=v$version
	image=$(skopeo inspect "oci:dist/image:$ref")
	config=$(skopeo inspect --config "oci:dist/image:$ref")
	manifest=$(skopeo inspect --raw "oci:dist/image:$ref")
	expect() { # what, jq filter over $2, wanted value
		local got
		got=$(jq -c "$3" <<<"$2")
		[ "$got" = "$4" ] || fail "the image's $1 is $got, want $4"
	}
	expect platform "$image" '[.Os, .Architecture]' "[\"linux\",\"$goarch\"]"
	expect layers "$manifest" '[.mediaType, (.layers | length)]' '["application/vnd.oci.image.manifest.v1+json",1]'
	expect "entry point" "$config" '.config.Entrypoint' '["/usr/local/bin/queuecap"]'
	expect command "$config" '.config.Cmd' null
	expect "working directory and user" "$config" '[.config.WorkingDir, .config.User]' '["/workdir","65532:65532"]'
	expect labels "$config" '.config.Labels | [."org.opencontainers.image.version", ."org.opencontainers.image.revision", ."org.opencontainers.image.licenses", ."org.opencontainers.image.source"]' \
		"[\"v$version\",\"$commit\",\"MPL-2.0\",\"https://github.com/queuecap/terraform-provider-queuecap\"]"
	umoci unpack --rootless --image "dist/image:$ref" "$bin/bundle" >/dev/null
	expect "runtime process" "$(cat "$bin/bundle/config.json")" '.process | [.args, .cwd, .user.uid, .user.gid]' '[["/usr/local/bin/queuecap"],"/workdir",65532,65532]'
	cmp "$bin/queuecap" "$bin/bundle/rootfs/usr/local/bin/queuecap" || fail "the image's queuecap is not the archive's"
	got=$("$bin/bundle/rootfs/usr/local/bin/queuecap" --version)
	[ "$got" = "queuecap v$version (commit $commit)" ] || fail "the image's queuecap --version says: $got"

	# The release's push (tools/push-image.sh) to crane's registry on
	# loopback in ghcr.io's place: both tags must name the layout's digest.
	# The registry stops itself after five minutes if this script dies.
	timeout 300 "$bin/crane" registry serve --address 127.0.0.1:0 >"$bin/registry.log" 2>&1 &
	registry_pid=$!
	trap 'kill "$registry_pid" 2>/dev/null; rm -rf "$bin"' EXIT
	for _ in $(seq 100); do
		port=$(sed -n 's/.*serving on port \([0-9]*\).*/\1/p' "$bin/registry.log")
		[ -n "$port" ] && break
		sleep 0.1
	done
	[ -n "$port" ] || fail "crane registry serve did not start: $(cat "$bin/registry.log")"
	repository=127.0.0.1:$port/queuecap/queuecap
	digest=$(tools/push-image.sh dist/image "$repository" snapshot latest 2>"$bin/push.log") || fail "tools/push-image.sh failed: $(cat "$bin/push.log")"
	expect "layout's digest" "$(cat dist/image/index.json)" '.manifests[0].digest' "\"$digest\""
	for tag in snapshot latest; do
		expect "digest under $tag" "$(skopeo inspect --tls-verify=false "docker://$repository:$tag")" '.Digest' "\"$digest\""
	done
	size=$(jq '[.layers[].size] | add' <<<"$manifest")
	echo "release-check: image $ref ($digest): 1 layer of $((size / 1024)) KiB, entry point /usr/local/bin/queuecap in /workdir as 65532, unpacked by umoci and run: $got; pushed and read back under snapshot and latest"
fi
echo "release-check: $provider, $cli and $plugin for $goos/$goarch are as the registry and a user want them"
