// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package promtest

import (
	"os/exec"
	"syscall"
)

// dieWithTest has the kernel kill the server when the test binary dies
// before its cleanups run (a panic, a timeout).
func dieWithTest(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
