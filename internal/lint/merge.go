// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"fmt"
	"hash/maphash"
	"regexp"
	"slices"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/textfmt"
)

// dedupeSkips keeps one skip per rule and place: a module reached from
// several root modules (or calls) is not checked once, whatever reached it.
// The most telling reason stands (a queue that has a consumer but no rate
// over the same queue with no consumer in the module's own root), then
// the shortest, which names the module-local address.
func dedupeSkips(skips []Skip) []Skip {
	var m skipMerger
	for _, s := range skips {
		m.add(s, "")
	}
	return m.result()
}

// skipMerger is dedupeSkips one skip at a time. A large tree has tens of
// thousands of skips, many of them the same place reached again, so what
// it keeps of the others is their count: each distinct other reason as a
// hash, not the text.
type skipMerger struct {
	best map[skipPlace]int
	out  []Skip
	// roots are the root modules each kept skip was found linting.
	roots []string
	// others are the other reasons of the same rank merged into each kept
	// skip: the other instances a place stands for (of a resource or a
	// module with count or for_each, or of a module several roots call).
	others map[int]map[uint64]struct{}
	// elsewhere are the kept skips some of whose other reasons come from
	// another root module than theirs.
	elsewhere map[int]bool
	seed      maphash.Seed
}

// skipPlace is what dedupeSkips keeps one skip of.
type skipPlace struct {
	rule, file   string
	line, column int
}

func (m *skipMerger) add(s Skip, root string) {
	if m.best == nil {
		m.best, m.others, m.elsewhere, m.seed = map[skipPlace]int{}, map[int]map[uint64]struct{}{}, map[int]bool{}, maphash.MakeSeed()
	}
	key := skipPlace{s.Rule, s.Range.Filename, s.Range.Start.Line, s.Range.Start.Column}
	i, ok := m.best[key]
	if !ok {
		m.best[key] = len(m.out)
		m.out, m.roots = append(m.out, s), append(m.roots, root)
		return
	}
	kept := &m.out[i]
	switch r, k := skipRank(s), skipRank(*kept); {
	case r < k:
		*kept, m.roots[i] = s, root
		delete(m.others, i)
		delete(m.elsewhere, i)
	case r > k:
	case sameVerdict(s, *kept):
		// Another instance (count, for_each, a module called twice)
		// skipped for the same reason: one skip listing them, in the
		// words of the first.
		instances := addInstance(kept.Instances, kept.Address, s.Address)
		if addressLess(s.Address, kept.Address) {
			*kept, m.roots[i] = s, root
		}
		kept.Instances = instances
	case moduleLocal(s.Reason) == moduleLocal(kept.Reason):
		// One module instance seen from two roots (a root, and an
		// example calling it as a module): the same reason, in the
		// module's own words.
		instances := addInstance(kept.Instances, kept.Address, s.Address)
		if len(s.Reason) < len(kept.Reason) {
			*kept, m.roots[i] = s, root
		}
		kept.Instances = instances
	default:
		if len(s.Reason) < len(kept.Reason) {
			instances := addInstance(kept.Instances, kept.Address, s.Address)
			s, *kept = *kept, s
			root, m.roots[i] = m.roots[i], root
			kept.Instances = instances
		} else {
			kept.Instances = addInstance(kept.Instances, kept.Address, s.Address)
		}
		if m.others[i] == nil {
			m.others[i] = map[uint64]struct{}{}
		}
		// Counted but for the instance each names, as sameVerdict
		// merges: q["b"] and q["c"] read by one consumer are one reason.
		reason := s.Reason
		if s.Address != "" {
			reason = strings.ReplaceAll(reason, s.Address, "\x00")
			if p := modulePrefix(s.Address); p != "" {
				reason = strings.ReplaceAll(reason, p, "\x01")
			}
		}
		m.others[i][maphash.String(m.seed, reason)] = struct{}{}
		if root != m.roots[i] {
			m.elsewhere[i] = true
		}
	}
}

// sameVerdict reports whether two skips at one place give one reason, but
// for the instance each names: "max_size of aws_autoscaling_group.w[0] is
// not known before apply" and the same of w[1].
func sameVerdict(s, kept Skip) bool {
	if s.Reason == kept.Reason {
		return true
	}
	if s.Address == "" || kept.Address == "" || !strings.Contains(s.Reason, s.Address) {
		return false
	}
	if strings.ReplaceAll(s.Reason, s.Address, kept.Address) == kept.Reason {
		return true
	}
	// The reason names other resources of the same module instance too
	// (a queue's mapping): module.q["b"]. for module.q["a"]. throughout.
	sp, kp := modulePrefix(s.Address), modulePrefix(kept.Address)
	return sp != "" && kp != "" && strings.ReplaceAll(s.Reason, sp, kp) == kept.Reason
}

// modulePrefix is the module instance part of a resource address,
// "module.q[\"a\"]." of module.q["a"].aws_sqs_queue.q; "" for a resource
// of the root module.
func modulePrefix(addr string) string {
	p := 0
	for strings.HasPrefix(addr[p:], "module.") {
		rest := addr[p+len("module."):]
		i := strings.IndexAny(rest, ".[")
		if i < 0 {
			break
		}
		j := i
		if rest[i] == '[' {
			k := strings.Index(rest[i:], "]")
			if k < 0 {
				break
			}
			j = i + k + 1
		}
		if j >= len(rest) || rest[j] != '.' {
			break
		}
		p += len("module.") + j + 1
	}
	return addr[:p]
}

func (m *skipMerger) result() []Skip {
	for i, o := range m.others {
		switch n := len(o); {
		case n > 0 && m.elsewhere[i]:
			// The module's own root and a root calling it (an example)
			// give different reasons.
			m.out[i].Reason += fmt.Sprintf(" (and %s at this place, where another root module calls this one)", textfmt.Plural(n, "other reason"))
		case n > 0:
			// n counts the other reasons, not the instances giving them
			// (Instances lists those): "1 more like it" read as one
			// instance where three gave two reasons.
			m.out[i].Reason += fmt.Sprintf(" (and %s at this place, for other instances)", textfmt.Plural(n, "other reason"))
		}
	}
	// The instance whose reason a skip gives comes first; the others
	// follow in addressLess order.
	for i := range m.out {
		if is := m.out[i].Instances; len(is) > 1 && is[0] != m.out[i].Address {
			if k := slices.Index(is, m.out[i].Address); k > 0 {
				copy(is[1:k+1], is[:k])
				is[0] = m.out[i].Address
			}
		}
	}
	m.others, m.elsewhere = nil, nil
	return m.out
}

// moduleAddress is the part of an address that names a module call with
// neither count nor for_each: one instance, whichever root reaches it.
var moduleAddress = regexp.MustCompile(`\bmodule\.[A-Za-z0-9_-]+\.`)

// moduleLocal is a reason with the calls of single module instances taken
// out of the addresses it names, as a finding's key takes its module
// instance out of its message; the keys of count and for_each instances
// stay, so that those are still counted apart. Most reasons name no
// module, and are not handed to the regular expression.
func moduleLocal(reason string) string {
	if !strings.Contains(reason, "module.") {
		return reason
	}
	return moduleAddress.ReplaceAllString(reason, "")
}

// skipRank orders the reasons for one place, lower first: a coverage skip
// that names the queue's consumer says what to declare, where the same
// module linted as its own root has no consumer to name.
func skipRank(s Skip) int {
	if s.Rule == skipCoverage && !strings.HasPrefix(s.Reason, "no consumer of ") {
		return 0
	}
	return 1
}

// issueMerger keeps one finding per rule, place and module-local message,
// taking them one at a time: a module reached from several roots or calls
// with the same result is one finding listing every caller (with the
// message in the module's own addresses); different results stay apart,
// each naming its caller.
type issueMerger struct {
	at  map[string]int
	out []placedIssue
}

func (m *issueMerger) add(is placedIssue) {
	if m.at == nil {
		m.at = map[string]int{}
	}
	if is.key == "" {
		is.key, is.local = issueKey(&is.Issue, is.Message), is.Message
	}
	i, seen := m.at[is.key]
	if !seen {
		m.at[is.key] = len(m.out)
		m.out = append(m.out, is)
		return
	}
	kept := &m.out[i]
	differ := kept.Message != is.Message
	instances := addInstance(kept.Instances, kept.Address, is.Address)
	callers := kept.Callers
	for _, c := range is.Callers {
		if !slices.Contains(callers, c) {
			callers = append(callers, c)
		}
	}
	first := addressLess(is.Address, kept.Address)
	// The callers' arguments, the first instance's first; none when a
	// reach takes the value from elsewhere (it has none).
	var args []Range
	if len(kept.Arguments) > 0 && len(is.Arguments) > 0 {
		firsts, more := kept.Arguments, is.Arguments
		if first {
			firsts, more = more, firsts
		}
		args = slices.Clone(firsts)
		for _, a := range more {
			if !slices.Contains(args, a) {
				args = append(args, a)
			}
		}
	}
	// The first instance stands for the others, in HCL and plan alike.
	if first {
		*kept = is
	}
	kept.Instances, kept.Callers, kept.Arguments = instances, callers, args
	if differ {
		kept.Message = kept.local
	}
}

// addInstance adds addr to the instances a finding or skip at first
// stands for, listing first as well once there are two, in addressLess
// order.
func addInstance(instances []string, first, addr string) []string {
	if addr == "" || len(instances) == 0 && (first == "" || addr == first) {
		return instances
	}
	if len(instances) == 0 {
		instances = []string{first}
	}
	if i, found := slices.BinarySearchFunc(instances, addr, compareAddresses); !found {
		instances = slices.Insert(instances, i, addr)
	}
	return instances
}

// mergeRules makes the sorted skips of several rules at one place for one
// reason one skip listing them.
func mergeRules(skips []Skip) []Skip {
	type key struct {
		file         string
		line, column int
		reason       string
	}
	at := map[key]int{}
	out := skips[:0]
	for _, s := range skips {
		k := key{s.Range.Filename, s.Range.Start.Line, s.Range.Start.Column, s.Reason}
		i, ok := at[k]
		if !ok {
			at[k] = len(out)
			out = append(out, s)
			continue
		}
		if len(out[i].Rules) == 0 {
			out[i].Rules = []string{out[i].Rule}
		}
		if !slices.Contains(out[i].Rules, s.Rule) {
			out[i].Rules = append(out[i].Rules, s.Rule)
		}
	}
	return out
}
