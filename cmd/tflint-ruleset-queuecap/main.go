// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Command tflint-ruleset-queuecap is queuecap's rules as a tflint plugin:
// tflint starts it, and it serves the ruleset over tflint-plugin-sdk.
//
//	plugin "queuecap" {
//	  enabled = true
//	}
package main

import (
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
	"github.com/terraform-linters/tflint-plugin-sdk/plugin"

	"github.com/queuecap/terraform-provider-queuecap/internal/tflintplugin"
)

// version and commit are set by the release build, as the CLI's are:
// -ldflags "-X main.version=… -X main.commit=…".
var version, commit string

func main() {
	model.Version, model.Commit = version, commit
	plugin.Serve(&plugin.ServeOpts{RuleSet: tflintplugin.New(model.BuildVersion())})
}
