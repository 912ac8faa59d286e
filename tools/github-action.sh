#!/usr/bin/env bash
# Copyright (c) The queuecap Authors
# SPDX-License-Identifier: MPL-2.0
# The step of action.yml (docs/ci.md#github-actions): builds queuecap from
# the action's own source, lints, and leaves on the runner
#   - SARIF in $QUEUECAP_SARIF, for github/codeql-action/upload-sarif;
#   - the default format in the log and, as a table, in the job summary;
#   - one annotation per finding (the github format's workflow commands);
#   - outputs sarif-file and exit-code, and queuecap on PATH for later steps.
# It exits with queuecap lint's code (2 for findings, 1 for an error), or 0
# for findings when QUEUECAP_FAIL_ON_FINDINGS is false.
#
# Reads: QUEUECAP_PATHS (space-separated, default .), QUEUECAP_ARGS (more
# flags, split on spaces), QUEUECAP_SARIF (default queuecap.sarif),
# QUEUECAP_FAIL_ON_FINDINGS (default true), and GitHub's GITHUB_ACTION_PATH,
# GITHUB_ACTION_REF (the version queuecap reports), RUNNER_TEMP,
# GITHUB_OUTPUT, GITHUB_PATH and GITHUB_STEP_SUMMARY.
set -euo pipefail

src=${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set: run this as the step of action.yml}
bin=${RUNNER_TEMP:-${TMPDIR:-/tmp}}/queuecap-bin
mkdir -p "$bin"
# A tag of the action, such as v0.1.0, is the version queuecap reports and
# the release its rule links point at; any other ref reads as a development
# build (lint.ReleaseTag).
# GITHUB_ACTION_REF can be empty in a composite action's steps; the runner
# checks an action out to _actions/OWNER/REPO/REF.
ref=${GITHUB_ACTION_REF:-}
case $src in */_actions/*/*/*) ref=${ref:-${src##*/}} ;; esac
(cd "$src" && go build -trimpath -ldflags "-X main.version=${ref:-dev}" -o "$bin/queuecap" ./cmd/queuecap)
queuecap=$bin/queuecap
"$queuecap" --version

read -ra paths <<<"${QUEUECAP_PATHS:-.}"
read -ra args <<<"${QUEUECAP_ARGS:-}"
sarif=${QUEUECAP_SARIF:-queuecap.sarif}

# Annotations, then one run that writes SARIF to the file (--output) and
# the default format to the log: its exit code is the step's.
"$queuecap" lint --format github "${args[@]}" "${paths[@]}" || true
set +e
log=$("$queuecap" lint --no-color --format sarif --output "$sarif" "${args[@]}" "${paths[@]}")
code=$?
set -e
printf '%s\n' "$log"

if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
	{
		echo "### queuecap lint"
		echo
		echo '```'
		printf '%s\n' "$log"
		echo '```'
	} >>"$GITHUB_STEP_SUMMARY"
fi
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
