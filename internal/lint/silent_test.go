// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNeverSilentOnCorpora holds the linter to its promise on every root
// module of ../shared/corpus/real and ../shared/corpus/wild: each event
// source mapping, ECS scaling target, scaling policy and SQS alarm it does
// not link, each module call it cannot read, and each queue the capacity
// rules cannot check, is a skip naming its file (TestNoFindingTwice, in
// corpus_test.go, holds the findings). Skipped without ../shared.
func TestNeverSilentOnCorpora(t *testing.T) {
	for _, corpus := range []string{"real", "wild"} {
		top := filepath.Join("..", "..", "..", "shared", "corpus", corpus)
		if _, err := os.Stat(top); err != nil {
			t.Skip("no corpus at", top)
		}
		t.Run(corpus, func(t *testing.T) {
			l := newLoader(dirBoundary(top))
			roots := rootModuleDirs(top, func(string, error) {})
			if len(roots) == 0 {
				t.Fatal("no root modules")
			}
			var unlinked int
			for _, dir := range roots {
				b, _ := buildRoot(l, dir, Options{Config: &Config{}}, nil)
				if b == nil {
					continue
				}
				skipped := func(file string, words ...string) bool {
					for _, s := range b.skips {
						if s.Range.Filename != file {
							continue
						}
						all := true
						for _, w := range words {
							all = all && strings.Contains(s.Reason, w)
						}
						if all {
							return true
						}
					}
					return false
				}
				check := func(what, addr, file string, linked bool) {
					if linked {
						return
					}
					unlinked++
					if !skipped(file, addr) {
						t.Errorf("%s: %s %s is not linked and no skip says so", dir, what, addr)
					}
				}
				for _, m := range b.model.Mappings {
					src := b.refs[m][0]
					_, relevant := (&linker{builder: b}).whyUnlinked(src, "aws_sqs_queue", "sqs")
					check("event source mapping", m.Addr, m.DefRange.Filename, m.Queue != nil || !relevant)
				}
				for _, tg := range b.targets {
					linked := tg.namespace != "" && tg.namespace != "ecs"
					for _, f := range b.model.Fleets {
						linked = linked || (f.Kind == FleetECS && f.MaxSize.Range == tg.maxCap.Range && tg.maxCap.Set)
					}
					l := &linker{builder: b}
					if f := l.fleetFor(tg.resourceID); f != nil && f.Kind == FleetECS {
						linked = true
					}
					check("scaling target", tg.addr, tg.rng.Filename, linked)
				}
				for _, p := range b.model.Policies {
					r := b.refs[p][0]
					s := knownString(r.val)
					other := s != "" && !strings.HasPrefix(s, "service/") && strings.Contains(s, "/")
					check("scaling policy", p.Addr, p.DefRange.Filename, p.Fleet != nil || other)
				}
				for _, a := range b.model.Alarms {
					check("alarm", a.Addr, a.DefRange.Filename, len(a.Queues) > 0 || !readsSQS(a.Metrics))
				}
				for _, q := range b.model.Queues {
					checked := q.IsDeadLetter || (q.FailureDestination && len(q.Consumers) == 0) || (len(q.Consumers) > 0 && q.Rates.ArrivalRate.Set)
					check("queue", q.Addr, q.DefRange.Filename, checked)
				}
				for _, in := range b.instances {
					for _, c := range in.mod.Calls {
						// A call known to make no instance declares nothing.
						none := false
						if c.Count != nil || c.ForEach != nil {
							e := in.expansionOf("module."+c.Name, c.Count, c.ForEach)
							none = e.known && len(e.instances) == 0
						}
						check("module call", in.absAddr("module."+c.Name), c.DefRange.Filename, c.Child != nil || none)
					}
				}
			}
			if unlinked == 0 {
				t.Errorf("nothing unlinked in the %s corpus: the test checks nothing", corpus)
			}
			t.Logf("%s: %d root modules, %d unlinked objects, each with its skip", corpus, len(roots), unlinked)
		})
	}
}
