// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

//go:build !unix

package lint

// Without named pipes to block on nor O_NOFOLLOW, the checks made before
// a file is opened stand alone.
const (
	nonBlocking = 0
	noFollow    = 0
)
