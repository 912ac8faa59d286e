// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package formatter

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

// FingerprintKey names the fingerprint recipe in SARIF's
// partialFingerprints and in baseline files. Hashing other parts is a new
// version, so that code scanning meets new keys rather than old keys with
// new meanings.
const FingerprintKey = "queuecap/v1"

// Fingerprints are the issues' identities across runs and machines, in
// the result's order, for code scanning (SARIF partialFingerprints),
// GitLab (fingerprint), JSON and baselines to tell a finding that stays
// from a new one. workDir is as Options.WorkDir ("" the working
// directory).
//
// Each is the SHA-256, cut to 128 bits, of the rule, the file relative to
// the working directory with forward slashes, the resource instance the
// finding is about (its address, the same from HCL and from a plan, else
// the module-local address of the object its rule judged) and its rank
// among the findings sharing those three. Lines,
// columns and messages are left out: an edit above a finding, or a new
// number in its message, leaves it the same finding. The rank keeps apart
// findings that share the rest (one module called twice with different
// results), at the price that fixing the first gives the second its
// fingerprint, as code scanning's own line hashes do. An issue that has
// its Fingerprint (a baseline set it among all the run's findings, before
// leaving some out) keeps it.
func Fingerprints(r *model.Result, workDir string) []string {
	if workDir == "" {
		workDir, _ = os.Getwd() // on failure absolute names stay absolute
	}
	keys := make([][]string, len(r.Issues))
	for i, is := range r.Issues {
		subject := is.Address
		if subject == "" {
			subject = is.Subject
		}
		keys[i] = []string{is.Rule, RepoPath(is.Range, workDir), subject}
	}
	out := rankedDigests(keys)
	for i, is := range r.Issues {
		if is.Fingerprint != "" {
			out[i] = is.Fingerprint
		}
	}
	return out
}

// rankedDigests hashes each key, its parts and its rank among equal keys
// before it, so that equal keys still give distinct digests.
func rankedDigests(keys [][]string) []string {
	out := make([]string, len(keys))
	seen := map[string]int{}
	for i, parts := range keys {
		key := strings.Join(parts, "\x00")
		rank := seen[key]
		seen[key]++
		sum := sha256.Sum256([]byte(key + "\x00" + strconv.Itoa(rank)))
		out[i] = hex.EncodeToString(sum[:16])
	}
	return out
}

// RepoPath is a range's file relative to workDir with forward slashes, as
// GitLab wants it (relative to the repository, where CI jobs run); a name
// already relative is only cleaned, one outside workDir stays absolute, and
// a plan's resource address stays as it is.
func RepoPath(rng model.Range, workDir string) string {
	name := rng.Filename
	if rng.AddressOnly() {
		return name
	}
	if filepath.IsAbs(name) && workDir != "" {
		if rel, err := filepath.Rel(workDir, name); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			name = rel
		}
	}
	return filepath.ToSlash(filepath.Clean(name))
}
