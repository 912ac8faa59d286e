// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// An SNS topic subscribed by a queue (protocol "sqs") produces the
// queue's messages: SNS delivers each message published to every queue
// subscribed, so a topic's declared queuecap:arrival_rate is the arrival
// rate of each of its queues, and the rates of several topics feeding one
// queue add up. A subscription with a filter_policy delivers only part of
// the topic, by an amount the configuration does not say.

// topic is an aws_sns_topic.
type topic struct {
	addr, name string
	arrival    Num // its queuecap:arrival_rate tag
}

// subscription is an aws_sns_topic_subscription with protocol "sqs".
type subscription struct {
	addr            string
	rng             hcl.Range
	topic, endpoint cty.Value
	filtered        bool
}

type snsRefs struct {
	topics map[string]*topic
	subs   []*subscription
}

func (b *builder) addSNS(res *resourceInstance) {
	n, addr := res.body, res.addr
	switch res.typ {
	case "aws_sns_topic":
		if b.sns.topics == nil {
			b.sns.topics = map[string]*topic{}
		}
		b.sns.topics[addr] = &topic{addr: addr, name: knownString(n.val("name")), arrival: b.tagRates(res.module, n.arg("tags")).rates.ArrivalRate}
	case "aws_sns_topic_subscription":
		if knownString(n.val("protocol")) != "sqs" {
			return
		}
		filter := n.val("filter_policy")
		b.sns.subs = append(b.sns.subs, &subscription{addr: addr, rng: res.defRange, topic: n.val("topic_arn"),
			endpoint: n.val("endpoint"), filtered: !filter.IsKnown() || !filter.IsNull()})
	}
}

// linkSNSProducers declares, for each queue that declares no arrival rate
// of its own, the sum of its topics' declared rates, when every topic
// feeding it declares one and delivers all it publishes; it says why not
// when some topic does and the sum cannot be made.
func (l *linker) linkSNSProducers() {
	type feed struct {
		sub   *subscription
		topic *topic // nil when not in this configuration
	}
	feeds := map[*Queue][]feed{}
	var fed []*Queue
	for _, s := range l.sns.subs {
		t := l.topicOf(s.topic)
		for _, q := range l.queuesOf(s.endpoint) {
			if t != nil && slices.ContainsFunc(feeds[q], func(f feed) bool { return f.topic == t && !f.sub.filtered && !s.filtered }) {
				continue // one topic subscribed twice delivers once
			}
			if feeds[q] == nil {
				fed = append(fed, q)
			}
			feeds[q] = append(feeds[q], feed{s, t})
		}
	}
	for _, q := range fed {
		fs := feeds[q]
		if declaresArrival(q) || !slices.ContainsFunc(fs, func(f feed) bool { return f.topic != nil && f.topic.arrival.Set }) {
			continue
		}
		sum := Num{Set: true, Known: true}
		var names []string
		var why string
		for _, f := range fs {
			switch {
			case f.sub.filtered:
				why = fmt.Sprintf("%s delivers to %s only what its filter_policy matches", f.sub.addr, q.Addr)
			case f.topic == nil:
				why = fmt.Sprintf("%s subscribes %s to a topic that is not in this configuration", f.sub.addr, q.Addr)
			case !f.topic.arrival.Set:
				why = fmt.Sprintf("SNS topic %s feeds %s (%s) and declares no queuecap:arrival_rate", f.topic.addr, q.Addr, f.sub.addr)
			}
			if why != "" {
				l.skip(f.sub.addr, f.sub.rng, why+", so the arrival rates its other topics declare are not all its arrivals: declare queuecap:arrival_rate on the queue")
				break
			}
			a := f.topic.arrival
			sum.V += a.V
			if len(names) == 0 || (sum.Known && !a.Known) {
				sum.Range = a.Range
			}
			sum.Known = sum.Known && a.Known
			names = append(names, f.topic.addr)
		}
		if why != "" {
			continue
		}
		sum.Via, sum.From = "SNS topic "+names[0], "tag queuecap:arrival_rate of SNS topic "+names[0]
		if len(names) > 1 {
			sum.Via = "SNS topics " + strings.Join(names, " + ")
			sum.From = "tags queuecap:arrival_rate of " + sum.Via
		}
		q.Declared.Add(model.SourceProducers, Rates{ArrivalRate: sum})
	}
}

// declaresArrival reports whether a queue declares its own arrival rate,
// in its tags or its .queuecap.hcl block.
func declaresArrival(q *Queue) bool {
	for _, s := range []model.Source{model.SourceTags, model.SourceConfig} {
		if r := q.Declared[s]; r != nil && r.ArrivalRate.Set {
			return true
		}
	}
	return false
}

// topicOf is the topic a subscription's topic_arn names: by origin, else
// by a known ARN.
func (l *linker) topicOf(v cty.Value) *topic {
	for _, o := range origins(v) {
		if t := l.sns.topics[o]; t != nil {
			return t
		}
	}
	s := knownString(v)
	if !strings.HasPrefix(s, "arn:") {
		return nil
	}
	name := s[strings.LastIndex(s, ":")+1:]
	for _, addr := range sortedKeys(l.sns.topics) {
		if t := l.sns.topics[addr]; t.name == name {
			return t
		}
	}
	return nil
}
