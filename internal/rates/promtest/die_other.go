// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

//go:build !linux

package promtest

import "os/exec"

// dieWithTest: only Linux kills a child with its parent; the cleanups
// stop the server.
func dieWithTest(*exec.Cmd) {}
