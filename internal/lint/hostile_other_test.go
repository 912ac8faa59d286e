// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

//go:build !linux

package lint_test

// limitAddressSpace does nothing where the address space cannot be capped
// as on Linux: the child is then bounded by its time limit alone.
func limitAddressSpace(uint64) {}
