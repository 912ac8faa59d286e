// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package runner

import (
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

// TestSchedule: every index is worked once, on no more workers than
// asked, and schedule returns only when all are done.
func TestSchedule(t *testing.T) {
	for _, tc := range []struct{ n, workers int }{{0, 4}, {1, 4}, {7, 1}, {100, 3}, {3, 10}} {
		var running, peak atomic.Int64
		counts := make([]atomic.Int64, tc.n)
		schedule(tc.n, tc.workers, func(i int) {
			now := running.Add(1)
			for p := peak.Load(); now > p && !peak.CompareAndSwap(p, now); p = peak.Load() {
			}
			counts[i].Add(1)
			running.Add(-1)
		})
		for i := range counts {
			if c := counts[i].Load(); c != 1 {
				t.Errorf("n=%d workers=%d: index %d worked %d times", tc.n, tc.workers, i, c)
			}
		}
		if p := peak.Load(); p > int64(tc.workers) {
			t.Errorf("n=%d workers=%d: %d at once", tc.n, tc.workers, p)
		}
	}
}

// TestInOrder: results given in any order, from several goroutines, are
// folded in index order, each as soon as the ones before it are in.
func TestInOrder(t *testing.T) {
	const n = 200
	var folded []int
	fold := inOrder(func(i int, v int) {
		if v != i*i {
			t.Errorf("index %d folded with %d", i, v)
		}
		folded = append(folded, i)
	})
	order := rand.Perm(n)
	var wg sync.WaitGroup
	for _, part := range [][]int{order[:n/2], order[n/2:]} {
		wg.Go(func() {
			for _, i := range part {
				fold(i, i*i)
			}
		})
	}
	wg.Wait()
	want := make([]int, n)
	for i := range want {
		want[i] = i
	}
	if !slices.Equal(folded, want) {
		t.Errorf("folded %v, want 0..%d in order", folded, n-1)
	}

	// As soon as possible: 1 waits for 0, and 0 brings 1 with it.
	var got []int
	f := inOrder(func(i int, _ struct{}) { got = append(got, i) })
	f(1, struct{}{})
	if len(got) != 0 {
		t.Fatalf("folded %v before 0 came", got)
	}
	f(0, struct{}{})
	if !slices.Equal(got, []int{0, 1}) {
		t.Errorf("folded %v once 0 came, want [0 1]", got)
	}
}
