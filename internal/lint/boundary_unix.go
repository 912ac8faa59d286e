// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

//go:build unix

package lint

import "syscall"

// nonBlocking opens without blocking: opening a named pipe that has no
// writer would block the open itself.
const nonBlocking = syscall.O_NONBLOCK

// noFollow does not follow a final symbolic link, one swapped in after
// the checks.
const noFollow = syscall.O_NOFOLLOW
