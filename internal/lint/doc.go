// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Package lint is the engine of `queuecap lint`: it loads Terraform
// configurations, evaluates what can be known before apply, links queues to
// the fleets that consume them and to the scaling policies and alarms around
// them into the model (package model), and runs the rules over it.
//
// A run is a list of stages (run.go), which package runner calls in order
// and spreads over workers: discover the root modules (roots.go),
// schedule them on workers, build each one's
// model and link it (root.go): a front end, the HCL's (hclfront.go) or the
// plan's (plan.go), hands the builder (build.go) one resourceInstance per
// resource instance through intake (resource.go), and the linker (link.go)
// links them; run the rules over each subject (root.go), then post-process
// the run's findings and skips: placing them at the module calls that reach
// them, merging what several roots and instances found alike, ignore
// comments, sorting (callers.go, merge.go, run.go).
package lint
