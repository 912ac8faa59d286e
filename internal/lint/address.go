// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"cmp"
	"slices"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"

	"github.com/hashicorp/hcl/v2"
)

// instanceIndex finds the resource instance at a finding's place: the
// object of the model whose block, or one of whose values, lies there.
// Instances of one resource (count, for_each, a module called twice) share
// every place, so of those the one nearest the object the rule judged,
// along the model's links, is the one: the consumer of queue q[1] at
// max_size is audit[1], not audit[0].
type instanceIndex struct {
	owners map[Range][]string  // place → addresses, in model order
	links  map[string][]string // address → linked addresses
	seen   map[string]struct{} // reused by nearest
}

// addressAt is the address of the instance at rng for a finding or skip
// about subject whose text is text (see instanceIndex.at), else, with a
// plan, the resource instance whose planned values hold rng, else subject.
// The index is made on first use, once the model is linked.
func (b *builder) addressAt(rng Range, subject, text string) string {
	if b.addrIndex == nil {
		b.addrIndex = newInstanceIndex(b.model)
	}
	if a := b.addrIndex.at(rng, subject, text); a != "" {
		return a
	}
	if a, ok := b.planAddrs[rng.String()]; ok {
		return a
	}
	return subject
}

func newInstanceIndex(m *Model) *instanceIndex {
	x := &instanceIndex{owners: map[Range][]string{}, links: map[string][]string{}}
	own := func(addr string, rngs ...hcl.Range) {
		for _, r := range rngs {
			if r.Filename == "" {
				continue
			}
			k := toRange(r)
			if !slices.Contains(x.owners[k], addr) {
				x.owners[k] = append(x.owners[k], addr)
			}
		}
	}
	link := func(a, b string) {
		x.links[a] = append(x.links[a], b)
		x.links[b] = append(x.links[b], a)
	}
	// An object's rates are its own where they are declared for it (its
	// tags, its queue block, the data source sizing it), not where they
	// are another object's (a fleet's model.SourceQueue, a queue's
	// model.SourceConsumers).
	rates := func(d *model.DeclaredRates) []hcl.Range {
		var out []hcl.Range
		for _, f := range model.RateFields {
			for s, rs := range d {
				if rs != nil && s != int(model.SourceQueue) && s != int(model.SourceConsumers) {
					out = append(out, f.Of(rs).Range)
				}
			}
		}
		return out
	}
	for _, q := range m.Queues {
		own(q.Addr, q.DefRange, q.Retention.Range, q.Visibility.Range, q.RedriveRange)
		own(q.Addr, rates(&q.Declared)...)
		for _, f := range q.Consumers {
			link(q.Addr, f.Addr)
		}
		if q.DeadLetterQueue != nil {
			link(q.Addr, q.DeadLetterQueue.Addr)
		}
		for _, a := range q.Alarms {
			link(q.Addr, a.Addr)
		}
	}
	for _, f := range m.Fleets {
		own(f.Addr, f.DefRange, f.MinSize.Range, f.TimeoutSeconds.Range, f.QueueTagRange)
		// A maximum size from another resource's argument (an event
		// source mapping's maximum_concurrency or pollers, a capacity
		// provider's max_vcpu_count) lies in that resource: a finding
		// there names it, as a baseline then does.
		if f.SizeOf != "" {
			own(f.SizeOf, f.MaxSize.Range)
			link(f.Addr, f.SizeOf)
		} else {
			own(f.Addr, f.MaxSize.Range)
		}
		own(f.Addr, rates(&f.Declared)...)
		if r := f.Replacement; r != nil {
			own(f.Addr, r.Range, r.MinHealthy.Range, r.MaxHealthy.Range, r.Strategy.Range)
		}
		for _, p := range f.Policies {
			link(f.Addr, p.Addr)
		}
	}
	for _, p := range m.Policies {
		own(p.Addr, p.DefRange)
		if pr := p.Predictive; pr != nil {
			own(p.Addr, pr.Range, pr.Mode.Range, pr.MaxCapacityBreachBehavior.Range, pr.MaxCapacityBuffer.Range)
		}
		for _, s := range p.Steps {
			own(p.Addr, s.Lower.Range, s.Upper.Range, s.Adjustment.Range)
		}
		for _, a := range p.Alarms {
			link(p.Addr, a.Addr)
		}
	}
	for _, a := range m.Alarms {
		own(a.Addr, a.DefRange, a.Threshold.Range)
	}
	for _, mp := range m.Mappings {
		own(mp.Addr, mp.DefRange, mp.MaximumConcurrency.Range)
		if mp.Queue != nil {
			link(mp.Addr, mp.Queue.Addr)
		}
		if mp.Function != nil {
			link(mp.Addr, mp.Function.Addr)
		}
	}
	return x
}

// at is the address of the instance at rng for a finding about subject,
// whose text is text: subject itself when it lies there, else of the
// instances there nearest it along the links the one the text names (the
// longest such address), else the first of those; else the one instance
// there; "" when no object of the model lies there (a rate declared in a
// variable), or when several do and none is linked to subject.
func (x *instanceIndex) at(rng Range, subject, text string) string {
	owners := x.owners[rng]
	switch {
	case len(owners) == 0:
		return ""
	case slices.Contains(owners, subject):
		return subject
	}
	if near := x.nearest(subject, owners); len(near) > 0 {
		best := ""
		for _, a := range near {
			if strings.Contains(text, a) && len(a) > len(best) {
				best = a
			}
		}
		if best != "" {
			return best
		}
		return near[0]
	}
	if len(owners) == 1 {
		return owners[0]
	}
	return ""
}

// nearest are, of addrs, those fewest links away from subject, in model
// order; none when none is linked to it.
func (x *instanceIndex) nearest(subject string, addrs []string) []string {
	if subject == "" {
		return nil
	}
	clear(x.seen)
	if x.seen == nil {
		x.seen = map[string]struct{}{}
	}
	level := []string{subject}
	x.seen[subject] = struct{}{}
	for len(level) > 0 {
		var found []string
		for _, a := range addrs {
			if slices.Contains(level, a) {
				found = append(found, a)
			}
		}
		if len(found) > 0 {
			return found
		}
		var next []string
		for _, a := range level {
			for _, n := range x.links[a] {
				if _, ok := x.seen[n]; !ok {
					x.seen[n] = struct{}{}
					next = append(next, n)
				}
			}
		}
		level = next
	}
	return nil
}

// addressLess orders resource addresses as people count: the runs of
// digits in count indexes by their value (w[2] before w[10]), the rest by
// bytes; "" last. The first instance of several is the least, whatever
// order a configuration or a plan lists them in.
func addressLess(a, b string) bool {
	switch {
	case a == "":
		return false
	case b == "":
		return true
	}
	return compareAddresses(a, b) < 0
}

func compareAddresses(a, b string) int {
	if c := compareNatural(a, b); c != 0 {
		return c
	}
	// Equal by value (w["01"] and w["1"]) are still different addresses.
	return strings.Compare(a, b)
}

func compareNatural(a, b string) int {
	for a != "" && b != "" {
		da, db := digitRun(a), digitRun(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if c := cmp.Compare(len(na), len(nb)); c != 0 {
				return c
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

// digitRun is the length of the run of ASCII digits s starts with.
func digitRun(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}
