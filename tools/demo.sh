#!/usr/bin/env bash
# Copyright (c) The queuecap Authors
# SPDX-License-Identifier: MPL-2.0
# The main job on the bundled examples: builds the provider, installs it for
# local use through a dev_overrides CLI configuration in a temporary file,
# and plans and applies examples/sizing without `terraform init`, offline;
# then lints examples/lint with queuecap lint.
#
# The CLI is the terraform (1.0+) or tofu on PATH, else Terraform 1.5.7
# built from source on first use; TERRAFORM=/path/to/cli chooses another
# (tools/demo-cli.sh). Output that is not a terminal has no colour.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
terraform=$("$root/tools/demo-cli.sh")
no_color=
if [ ! -t 1 ]; then
	no_color=-no-color
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "==> building terraform-provider-queuecap"
(cd "$root" && go build -o "$work/bin/terraform-provider-queuecap" .)

cat >"$work/cli.tfrc" <<TFRC
provider_installation {
  dev_overrides {
    "queuecap/queuecap" = "$work/bin"
  }
  direct {}
}
TFRC
export TF_CLI_CONFIG_FILE=$work/cli.tfrc TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1

# A copy, so the state file never lands in the examples.
cp -r "$root/examples/sizing" "$work/sizing"
echo "==> $(basename "$terraform") apply examples/sizing (λ 10,000 msg/s, μ 400 msg/s per worker)"
"$terraform" -chdir="$work/sizing" apply -auto-approve -input=false -compact-warnings ${no_color:+"$no_color"}

echo
echo "==> building queuecap (the linter)"
(cd "$root" && go build -o "$work/bin/queuecap" ./cmd/queuecap)

# The linter exits 2 when it finds something at or above the failure
# severity: expected for bad/, so only 0 and 2 are accepted there.
echo "==> queuecap lint examples/lint/bad (one mistake per rule)"
status=0
(cd "$root" && "$work/bin/queuecap" lint --config examples/lint/queuecap.hcl examples/lint/bad) || status=$?
if [ "$status" -ne 2 ]; then
	echo "queuecap lint exited $status on examples/lint/bad, want 2 (findings)" >&2
	exit 1
fi
echo
echo "==> queuecap lint examples/lint/good (the fixed twin: no findings)"
(cd "$root" && "$work/bin/queuecap" lint --config examples/lint/queuecap.hcl examples/lint/good)
echo "no findings"
