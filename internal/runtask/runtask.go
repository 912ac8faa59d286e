// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Package runtask is `queuecap runtask serve`: an HCP Terraform and
// Terraform Enterprise run task that lints a run's plan.
//
// HCP Terraform POSTs a signed request after the plan; the service checks
// the signature, answers 200 at once and, in the background, downloads the
// plan JSON with the request's token, lints it as `queuecap lint --plan`
// does, and PATCHes the result to the request's callback URL: passed or
// failed, a message with the counts, and one outcome per finding. The
// request and the result are go-tfe's types, and the result is encoded
// with the JSON:API encoder go-tfe uses.
package runtask

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
)

// Defaults of Options.
const (
	DefaultPlanTimeout  = 60 * time.Second
	DefaultMaxPlanBytes = 64 << 20
	DefaultConcurrency  = 4
)

// Options configure a Service.
type Options struct {
	// HMACKey is the run task's HMAC key: every request must carry its
	// signature. It may not be empty.
	HMACKey []byte
	// Config holds the rule settings and queue blocks of a .queuecap.hcl;
	// nil is an empty one.
	Config *lint.Config
	// FailAt is the lowest severity that fails the task: the
	// --minimum-failure-severity of `queuecap lint`.
	FailAt lint.Severity
	// PlanTimeout bounds the download of a plan; MaxPlanBytes its size.
	PlanTimeout  time.Duration
	MaxPlanBytes int64
	// Concurrency is how many runs are fetched and linted at once; as many
	// again times QueuePerWorker wait their turn.
	Concurrency int
	// Client makes the outgoing requests; nil is one of its own.
	Client *http.Client
	Log    *slog.Logger
}

// QueuePerWorker sizes the queue of accepted runs: a request beyond it is
// answered 503, which HCP Terraform retries.
const QueuePerWorker = 16

// Service is the run task: an http.Handler and the workers behind it.
type Service struct {
	opts Options

	mu     sync.Mutex
	closed bool
	jobs   chan job

	// ctx is cancelled when Close gives up waiting: runs still queued or
	// in flight then report that the service stopped.
	ctx     context.Context
	cancel  context.CancelFunc
	workers sync.WaitGroup
	// retryWait is the pause before a callback is sent again.
	retryWait time.Duration
}

// New checks opts and starts the workers.
func New(opts Options) (*Service, error) {
	if len(opts.HMACKey) == 0 {
		return nil, errors.New("no HMAC key: the run task accepts only signed requests")
	}
	if opts.Config == nil {
		opts.Config = &lint.Config{}
	}
	if opts.FailAt == 0 {
		opts.FailAt = lint.Warning
	}
	if opts.PlanTimeout <= 0 {
		opts.PlanTimeout = DefaultPlanTimeout
	}
	if opts.MaxPlanBytes <= 0 {
		opts.MaxPlanBytes = DefaultMaxPlanBytes
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = DefaultConcurrency
	}
	if opts.Client == nil {
		opts.Client = &http.Client{} // each request has its own deadline
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	// The config's rule IDs are checked now, not on the first run.
	if _, err := lintPlan(nil, opts.Config); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	s := &Service{opts: opts, jobs: make(chan job, opts.Concurrency*QueuePerWorker), retryWait: time.Second}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	for range opts.Concurrency {
		s.workers.Go(s.work)
	}
	return s, nil
}

// Close stops taking runs and waits for the accepted ones to report,
// until ctx is done; then it stops them, each reporting a failed result
// that says so, and waits for those reports.
func (s *Service) Close(ctx context.Context) {
	s.Drain()
	done := make(chan struct{})
	go func() { s.workers.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		s.cancel()
		<-done
	}
	s.cancel()
}

// Drain stops taking runs: from now on a request is answered 503. The
// runs already accepted go on; Close waits for them.
func (s *Service) Drain() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		close(s.jobs)
	}
}

// enqueue hands a run to the workers, false when the queue is full or
// the service is closing.
func (s *Service) enqueue(j job) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	select {
	case s.jobs <- j:
		return true
	default:
		return false
	}
}

func (s *Service) work() {
	for j := range s.jobs {
		s.run(j)
	}
}
