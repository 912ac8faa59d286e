// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package synth_test

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/queuecap/terraform-provider-queuecap/internal/rates"
	"github.com/queuecap/terraform-provider-queuecap/internal/rates/synth"
)

var start = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

func TestWriteOpenMetrics(t *testing.T) {
	at := func(s int) time.Time { return start.Add(time.Duration(s) * time.Second) }
	var b strings.Builder
	err := synth.WriteOpenMetrics(&b, []synth.Family{
		{Name: "depth", Type: "gauge", Streams: []synth.Stream{{Labels: []synth.Label{{Name: "queue", Value: `a"b`}}, Points: []synth.Point{{at(0), 1.5}, {at(60), math.NaN()}}}}},
		{Name: "done", Type: "counter", Streams: []synth.Stream{{Labels: []synth.Label{{Name: "queue", Value: "a"}}, Points: []synth.Point{{at(15), 1e6}}}}},
		{Name: "depth", Type: "gauge", Streams: []synth.Stream{{Labels: []synth.Label{{Name: "queue", Value: "c"}}, Points: []synth.Point{{at(0), math.Inf(1)}}}}},
	})
	want := `# TYPE depth gauge
depth{queue="a\"b"} 1.5 1managed
depth{queue="a\"b"} NaN 2managed
depth{queue="c"} +Inf 1managed
# TYPE done counter
done_total{queue="a"} 1e+06 3managed
# EOF
`
	s := float64(start.Unix())
	want = strings.NewReplacer("1managed", ts(s), "2managed", ts(s+60), "3managed", ts(s+15)).Replace(want)
	if err != nil || b.String() != want {
		t.Errorf("got %v\n%s\nwant\n%s", err, b.String(), want)
	}
	if err := synth.WriteOpenMetrics(&b, []synth.Family{{Name: "x", Type: "gauge"}, {Name: "x", Type: "counter"}}); err == nil || err.Error() != "family x is both a gauge and a counter" {
		t.Errorf("a name of two types: %v", err)
	}
	if err := synth.WriteOpenMetrics(&b, []synth.Family{{Name: "x", Type: "histogram"}}); err == nil {
		t.Error("a histogram: no error")
	}
}

func ts(s float64) string { return strconv.FormatFloat(s, 'f', 3, 64) }

// TestExported: a period's Sum is the rate times the period, repeated at
// each scrape; a counter restarts from zero at a reset (the scrape from 5m on) and counts on.
func TestExported(t *testing.T) {
	sc := synth.Scenario{Start: start, Duration: 10 * time.Minute, PerConsumerRate: 10,
		Arrival: []synth.Segment{synth.At(0, 4)}, Consumers: []synth.Segment{synth.At(0, 1)}}
	got := sc.Exported(5*time.Minute, time.Minute)
	if p := got[rates.Sent]; len(p) != 10 || p[0].Value != 4*300 || p[9].Value != 4*300 || !p[4].At.Equal(start.Add(4*time.Minute)) {
		t.Errorf("sent: %v", p)
	}
	c := sc.Counter(rates.Sent, time.Minute, 100, 5*time.Minute)
	if len(c) != 10 || c[0].Value != 100+240 || c[4].Value != 100+5*240 || c[5].Value != 240 || c[9].Value != 5*240 || !c[0].At.Equal(start.Add(time.Minute)) {
		t.Errorf("counter: %v", c)
	}
}
