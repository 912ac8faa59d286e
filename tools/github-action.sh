#!/usr/bin/env bash
# Copyright (c) The queuecap Authors
# SPDX-License-Identifier: MPL-2.0
# The step of action.yml (docs/ci.md#github-actions): installs queuecap,
# lints once, and leaves on the runner
#   - SARIF in $QUEUECAP_SARIF, for github/codeql-action/upload-sarif;
#   - the default format in the log and in the job summary;
#   - one annotation per finding (the github format's workflow commands);
#   - outputs sarif-file and exit-code, and queuecap on PATH for later steps.
# It exits with queuecap lint's code (2 for findings, 1 for an error), or 0
# for findings when QUEUECAP_FAIL_ON_FINDINGS is false.
#
# queuecap comes from the release archive for the runner's platform, checked
# against the release's SHA256SUMS and kept in the runner's tool cache, or
# with QUEUECAP_VERSION=source is built from the action's own source (Go
# on PATH: the action's setup-go step).
#
# Reads: QUEUECAP_VERSION (a release, v0.1.0 or 0.1.0, or source; default
# the action's ref when it is a release tag), QUEUECAP_DOWNLOAD_URL (the
# releases' base URL), QUEUECAP_PATHS (space-separated, default .),
# QUEUECAP_ARGS (more flags, split on spaces), QUEUECAP_SARIF (default
# queuecap.sarif), QUEUECAP_FAIL_ON_FINDINGS (default true), and GitHub's
# GITHUB_ACTION_PATH, GITHUB_ACTION_REF, RUNNER_OS, RUNNER_ARCH,
# RUNNER_TEMP, RUNNER_TOOL_CACHE, GITHUB_OUTPUT, GITHUB_PATH and
# GITHUB_STEP_SUMMARY.
set -euo pipefail

fail() {
	echo "::error title=queuecap action::$*"
	exit 1
}

src=${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set: run this as the step of action.yml}
temp=${RUNNER_TEMP:-${TMPDIR:-/tmp}}
# GITHUB_ACTION_REF can be empty in a composite action's steps; the runner
# checks an action out to _actions/OWNER/REPO/REF (backslashes on Windows).
ref=${GITHUB_ACTION_REF:-}
case ${src//\\//} in */_actions/*/*/*) ref=${ref:-${src##*[/\\]}} ;; esac
release='^v?([0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?)$'

version=${QUEUECAP_VERSION:-}
if [ -z "$version" ]; then
	[[ $ref =~ $release && $ref == v* ]] ||
		fail "the action is used at ${ref:-an unknown ref}, not a release tag such as v0.1.0: set its input version to a release (version: v0.1.0), or to source to build queuecap with Go"
	version=$ref
fi

if [ "$version" = source ]; then
	# A tag of the action, such as v0.1.0, is the version queuecap reports
	# and the release its rule links point at; any other ref reads as a
	# development build (lint.ReleaseTag).
	bin=$temp/queuecap-bin
	mkdir -p "$bin"
	command -v go >/dev/null || fail "version source builds queuecap with Go, which is not on PATH: keep the input setup-go true"
	exe=queuecap$(go env GOEXE)
	(cd "$src" && go build -trimpath -ldflags "-X main.version=${ref:-dev}" -o "$bin/$exe" ./cmd/queuecap)
else
	[[ $version =~ $release ]] || fail "version $version: want a release such as v0.1.0, or source"
	number=${BASH_REMATCH[1]}
	# GoReleaser's names (.goreleaser.yml, archives queuecap).
	case ${RUNNER_OS:-} in
	Linux) os=linux ;;
	macOS) os=darwin ;;
	Windows) os=windows ;;
	*) fail "no queuecap release for the runner's OS ${RUNNER_OS:-(RUNNER_OS is not set)}: use version source" ;;
	esac
	case ${RUNNER_ARCH:-} in
	X64) arch=amd64 ;;
	ARM64) arch=arm64 ;;
	X86) arch=386 ;;
	ARM) arch=arm ;;
	*) fail "no queuecap release for the runner's architecture ${RUNNER_ARCH:-(RUNNER_ARCH is not set)}: use version source" ;;
	esac
	archive=queuecap_${number}_${os}_$arch.tar.gz
	exe=queuecap
	if [ "$os" = windows ]; then
		archive=${archive%.tar.gz}.zip
		exe=queuecap.exe
	fi
	sums=queuecap_${number}_SHA256SUMS
	# The layout of @actions/tool-cache, which setup-go and the others use:
	# TOOL/VERSION/ARCH, complete once ARCH.complete exists beside it.
	arch_lower=$(printf '%s' "$RUNNER_ARCH" | tr '[:upper:]' '[:lower:]')
	bin=${RUNNER_TOOL_CACHE:-$temp/tool-cache}/queuecap/$number/$arch_lower
	if [ -f "$bin.complete" ] && [ -x "$bin/$exe" ]; then
		echo "queuecap $number from the tool cache, $bin"
	else
		base=${QUEUECAP_DOWNLOAD_URL:?QUEUECAP_DOWNLOAD_URL is not set: action.yml sets it from the input download-url}
		base=${base%/}/v$number
		download=$(mktemp -d "$temp/queuecap-download.XXXXXX")
		trap 'rm -rf "$download"' EXIT
		for name in "$archive" "$sums"; do
			curl -fsSL --retry 3 -o "$download/$name" "$base/$name" ||
				fail "cannot download $base/$name: is $version a queuecap release?"
		done
		# The sums name the archive as sha256sum writes it: HASH, two
		# spaces (or " *" for binary mode), NAME.
		want=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$download/$sums")
		[ -n "$want" ] || fail "$sums lists no $archive"
		if command -v sha256sum >/dev/null; then
			got=$(sha256sum <"$download/$archive")
		else
			got=$(shasum -a 256 <"$download/$archive")
		fi
		got=${got%% *}
		[ "$got" = "$want" ] ||
			fail "$archive from $base does not match $sums: its SHA-256 is $got, the release lists $want; queuecap is not installed"
		rm -rf "$bin" "$bin.complete"
		mkdir -p "$bin"
		if [ "$os" != windows ]; then
			tar -xzf "$download/$archive" -C "$bin" "$exe"
		elif command -v unzip >/dev/null; then
			unzip -q -o "$download/$archive" "$exe" -d "$bin"
		else
			7z x -y -o"$bin" "$download/$archive" "$exe" >/dev/null
		fi || fail "cannot unpack $exe from $archive"
		: >"$bin.complete"
		echo "queuecap $number downloaded from $base, checked against $sums, cached in $bin"
	fi
fi
queuecap=$bin/$exe
"$queuecap" --version

read -ra paths <<<"${QUEUECAP_PATHS:-.}"
read -ra args <<<"${QUEUECAP_ARGS:-}"
sarif=${QUEUECAP_SARIF:-queuecap.sarif}
log=$(mktemp "$temp/queuecap-log.XXXXXX")

# One run writes every report: the annotations to standard output, where
# the runner reads workflow commands, SARIF to its file and the default
# format to the log file printed below. Its exit code is the step's.
set +e
"$queuecap" lint --no-color --output github=- --output "sarif=$sarif" --output "default=$log" "${args[@]}" "${paths[@]}"
code=$?
set -e
cat "$log"

if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
	{
		echo "### queuecap lint"
		echo
		echo '```'
		cat "$log"
		echo '```'
	} >>"$GITHUB_STEP_SUMMARY"
fi
rm -f "$log"
if [ -n "${GITHUB_OUTPUT:-}" ]; then
	{
		echo "sarif-file=$sarif"
		echo "exit-code=$code"
	} >>"$GITHUB_OUTPUT"
fi
if [ -n "${GITHUB_PATH:-}" ]; then
	echo "$bin" >>"$GITHUB_PATH"
fi

if [ "$code" = 2 ] && [ "${QUEUECAP_FAIL_ON_FINDINGS:-true}" = false ]; then
	exit 0
fi
exit "$code"
