// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rates_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/queuecap/terraform-provider-queuecap/internal/rates"
	"github.com/queuecap/terraform-provider-queuecap/internal/rates/synth"
)

// BenchmarkPrometheus1000Queues fetches a week in steps of 5 minutes
// (2,016 points a series) of 1,000 queues' six default queries from a
// loopback server answering each with a generated series: the client's
// cost (templates, requests, decoding, alignment) and the loopback's.
func BenchmarkPrometheus1000Queues(b *testing.B) {
	const queues = 1000
	sc := synth.Scenario{Start: start, Duration: 7 * 24 * time.Hour, PerConsumerRate: 50,
		Arrival:   []synth.Segment{synth.At(0, 300)},
		Consumers: []synth.Segment{synth.At(0, 12), synth.At(30*time.Hour, 2), synth.At(31*time.Hour, 12)}}
	w := rates.Window{End: sc.Start.Add(sc.Duration), Length: sc.Duration, Step: 5 * time.Minute}
	series := sc.Series(w.Step)
	first := w.Start().Add(w.Step - time.Millisecond)
	last := first.Add(time.Duration(w.Steps()-1) * w.Step)
	// The answers by a word of each default query's metric name.
	answers := map[string][]byte{}
	for word, m := range map[string]rates.Metric{
		"_sent_": rates.Sent, "_deleted_": rates.Deleted, "_received_": rates.Received,
		"_visible_": rates.Visible, "_oldest_": rates.OldestAge, "_in_service_": rates.Consumers,
	} {
		answers[word] = []byte(matrix(first, last, w.Step, series[m]))
	}
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		q := r.FormValue("query")
		for word, body := range answers {
			if strings.Contains(q, word) {
				rw.Header().Set("Content-Type", "application/json")
				_, _ = rw.Write(body)
				return
			}
		}
		http.Error(rw, "no answer", http.StatusBadRequest)
	}))
	b.Cleanup(srv.Close)
	p, err := rates.NewPrometheus(srv.URL, nil, srv.Client())
	if err != nil {
		b.Fatal(err)
	}
	targets := make([]rates.Target, queues)
	for i := range targets {
		targets[i] = rates.Target{QueueName: fmt.Sprint("queue-", i), Consumer: rates.Consumer{Kind: rates.KindASG, Name: fmt.Sprint("asg-", i)}}
	}
	b.ReportAllocs()
	for b.Loop() {
		got, err := p.Fetch(context.Background(), targets, w)
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range got {
			if f.Err != nil || f.Series[rates.Visible].Samples() != w.Steps() {
				b.Fatalf("%v: %d samples", f.Err, f.Series[rates.Visible].Samples())
			}
		}
	}
}
