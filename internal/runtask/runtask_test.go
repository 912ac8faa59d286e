// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package runtask

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/runtask/standin"
)

var testKey = []byte("queuecap-test-hmac-key")

// wait bounds every wait for a callback: a run that hangs fails the test.
const wait = 10 * time.Second

// serve starts the run task on loopback with opts and the test key.
func serve(t *testing.T, opts Options) (string, *Service) {
	t.Helper()
	opts.HMACKey = testKey
	opts.Log = slog.New(slog.NewTextHandler(t.Output(), nil))
	svc, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(svc)
	t.Cleanup(func() {
		srv.Close()
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		svc.Close(ctx)
	})
	return srv.URL, svc
}

// send POSTs req to the run task, signed with the test key.
func send(t *testing.T, url string, req tfe.RunTaskRequest, outcomes bool) int {
	t.Helper()
	body := standin.Payload(t, req, outcomes)
	code, text, err := standin.Send(url, standin.Sign(testKey, body), body)
	if err != nil {
		t.Fatal(err)
	}
	if code != http.StatusOK {
		t.Logf("answered %d: %s", code, text)
	}
	return code
}

func readPlan(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "lint", "testdata", "plans", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// sameAsGoTFE checks that the callback is what go-tfe's own Callback
// sends for the same result: the body byte for byte, and the headers.
func sameAsGoTFE(t *testing.T, hcp *standin.Server, got standin.Result) {
	t.Helper()
	want := hcp.GoTFE(t, *got.Options)
	if want.Err != nil {
		t.Fatalf("go-tfe's request: %v", want.Err)
	}
	if !bytes.Equal(got.Body, want.Body) {
		t.Errorf("the callback's body differs from go-tfe's for the same result:\n%s\ngo-tfe:\n%s", got.Body, want.Body)
	}
	for _, h := range []string{"Content-Type", "Accept", "Authorization"} {
		if got.Header.Get(h) != want.Header.Get(h) {
			t.Errorf("%s: %q, go-tfe sends %q", h, got.Header.Get(h), want.Header.Get(h))
		}
	}
}

// outcomeWant is what a test checks of one outcome.
type outcomeWant struct {
	id, description, severity, level, rule string
	// body holds lines the Markdown must contain: the arithmetic and the
	// facts behind it.
	body []string
}

func TestRunTask(t *testing.T) {
	zeroSurplus := outcomeWant{
		id:          "queuecap_zero_surplus:aws_autoscaling_group.workers",
		description: "aws_autoscaling_group.workers: max_size 25 cannot drain any backlog: raise it to 26",
		severity:    "error", level: "error", rule: "queuecap_zero_surplus",
		body: []string{
			"max\\_size 25 × 400 msg/s = 10,000 msg/s does not exceed the declared arrival rate 10,000 msg/s: surplus 0 msg/s, any backlog never drains\n",
			"| `arrival_rate` | 10000 |", "| `per_consumer_rate` | 400 |", "| `max_consumers` | 25 |", "| `capacity` | 10000 |", "| `surplus` | 0 |",
			"On aws\\_autoscaling\\_group.workers: rule [`queuecap_zero_surplus`](https://github.com/queuecap/terraform-provider-queuecap/blob/main/docs/rules/queuecap_zero_surplus.md), severity error.",
		},
	}
	disabled := filepath.Join(t.TempDir(), "queuecap.hcl")
	if err := os.WriteFile(disabled, []byte("rule \"queuecap_zero_surplus\" {\n  enabled = false\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := lint.LoadConfig(disabled, true, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	unreachable := "http://" + closed.Addr().String() + "/api/v2/plans/plan-gone/json-output"
	_ = closed.Close()

	for _, tc := range []struct {
		name     string
		opts     Options
		plan     func(hcp *standin.Server) string // the plan_json_api_url
		stage    string
		outcomes bool
		status   tfe.TaskResultStatus
		message  string
		want     []outcomeWant
	}{
		{
			name: "failed with a finding", outcomes: true,
			plan:    func(hcp *standin.Server) string { return hcp.Plan("zero", readPlan(t, "zero_surplus.json")) },
			status:  tfe.TaskFailed,
			message: "1 error, 0 warnings, 0 notices; 2 queues checked, 0 checks skipped; failing at warning or above",
			want:    []outcomeWant{zeroSurplus},
		},
		{
			name: "passed with warnings below the failure severity", outcomes: true, opts: Options{FailAt: lint.Error},
			plan:    func(hcp *standin.Server) string { return hcp.Plan("arn", readPlan(t, "unknown_arn.json")) },
			status:  tfe.TaskPassed,
			message: "0 errors, 3 warnings, 0 notices; 1 queue checked, 1 check skipped; failing at error or above",
			want: []outcomeWant{{
				id:          "queuecap_batch_retry_amplification:aws_lambda_event_source_mapping.jobs",
				description: "aws_lambda_event_source_mapping.jobs: batch_size 10: one failing message re-drives the whole batch; add ReportBatchItemFailures or set batch_size = 1",
				severity:    "warning", level: "warning", rule: "queuecap_batch_retry_amplification",
				body: []string{"| `batch_size` | 10 |"},
			}, {
				id:          "queuecap_missing_dead_letter_queue:aws_sqs_queue.jobs",
				description: "aws_sqs_queue.jobs: no redrive_policy: a message that always fails is received 2,880 times a day; add a dead-letter queue",
				severity:    "warning", level: "warning", rule: "queuecap_missing_dead_letter_queue",
				body: []string{"86,400 / 30 = 2,880 times a day", "| `receives_per_day` | 2880 |"},
			}, {
				id:          "queuecap_visibility_timeout_too_short:aws_sqs_queue.jobs",
				description: "aws_sqs_queue.jobs: visibility_timeout_seconds 30 is under 6 × the function's 60 s timeout: raise it to 360",
				severity:    "warning", level: "warning", rule: "queuecap_visibility_timeout_too_short",
				body: []string{"| `required_visibility_timeout_seconds` | 360 |"},
			}},
		},
		{
			name: "failed with warnings at the failure severity", outcomes: true,
			plan:    func(hcp *standin.Server) string { return hcp.Plan("arn", readPlan(t, "unknown_arn.json")) },
			status:  tfe.TaskFailed,
			message: "0 errors, 3 warnings, 0 notices; 1 queue checked, 1 check skipped; failing at warning or above",
			want: []outcomeWant{{
				id:          "queuecap_batch_retry_amplification:aws_lambda_event_source_mapping.jobs",
				description: "aws_lambda_event_source_mapping.jobs: batch_size 10: one failing message re-drives the whole batch; add ReportBatchItemFailures or set batch_size = 1",
				severity:    "warning", level: "warning", rule: "queuecap_batch_retry_amplification",
			}, {
				id:          "queuecap_missing_dead_letter_queue:aws_sqs_queue.jobs",
				description: "aws_sqs_queue.jobs: no redrive_policy: a message that always fails is received 2,880 times a day; add a dead-letter queue",
				severity:    "warning", level: "warning", rule: "queuecap_missing_dead_letter_queue",
			}, {
				id:          "queuecap_visibility_timeout_too_short:aws_sqs_queue.jobs",
				description: "aws_sqs_queue.jobs: visibility_timeout_seconds 30 is under 6 × the function's 60 s timeout: raise it to 360",
				severity:    "warning", level: "warning", rule: "queuecap_visibility_timeout_too_short",
			}},
		},
		{
			name: "passed with the rule disabled in the config", outcomes: true, opts: Options{Config: cfg},
			plan:    func(hcp *standin.Server) string { return hcp.Plan("zero", readPlan(t, "zero_surplus.json")) },
			status:  tfe.TaskPassed,
			message: "0 errors, 0 warnings, 0 notices; 2 queues checked, 0 checks skipped; failing at warning or above",
		},
		{
			name:    "failed without outcomes when HCP Terraform takes none",
			plan:    func(hcp *standin.Server) string { return hcp.Plan("zero", readPlan(t, "zero_surplus.json")) },
			status:  tfe.TaskFailed,
			message: "1 error, 0 warnings, 0 notices; 2 queues checked, 0 checks skipped; failing at warning or above",
		},
		{
			name:    "unreachable plan URL",
			plan:    func(*standin.Server) string { return unreachable },
			status:  tfe.TaskFailed,
			message: "cannot fetch the plan JSON from " + unreachable + ": dial tcp " + strings.TrimPrefix(strings.Split(unreachable, "/api")[0], "http://") + ": connect: connection refused",
		},
		{
			name: "slow plan URL", opts: Options{PlanTimeout: 300 * time.Millisecond},
			plan: func(hcp *standin.Server) string {
				return hcp.PlanHandler("slow", func(w http.ResponseWriter, r *http.Request) {
					select {
					case <-r.Context().Done():
					case <-time.After(wait):
					}
				})
			},
			status: tfe.TaskFailed,
		},
		{
			name: "oversize plan", opts: Options{MaxPlanBytes: 4 << 10},
			plan:    func(hcp *standin.Server) string { return hcp.Plan("zero", readPlan(t, "zero_surplus.json")) },
			status:  tfe.TaskFailed,
			message: "the plan JSON is over 4 KiB, the largest plan this service reads (queuecap runtask serve --max-plan-size)",
		},
		{
			// Refused on its Content-Length, before its body: the body
			// never comes, so reading it would time out.
			name: "oversize plan by its length", opts: Options{MaxPlanBytes: 4 << 10, PlanTimeout: wait / 2},
			plan: func(hcp *standin.Server) string {
				return hcp.PlanHandler("announced", func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Length", "1073741824")
					w.WriteHeader(http.StatusOK)
					_ = http.NewResponseController(w).Flush()
					select {
					case <-r.Context().Done():
					case <-time.After(wait):
					}
				})
			},
			status:  tfe.TaskFailed,
			message: "the plan JSON is over 4 KiB, the largest plan this service reads (queuecap runtask serve --max-plan-size)",
		},
		{
			name: "oversize plan without a length", opts: Options{MaxPlanBytes: 4 << 10},
			plan: func(hcp *standin.Server) string {
				return hcp.PlanHandler("stream", func(w http.ResponseWriter, r *http.Request) {
					for range 8 {
						_, _ = w.Write(bytes.Repeat([]byte(" "), 1<<10))
						_ = http.NewResponseController(w).Flush() // chunked: no Content-Length
					}
				})
			},
			status:  tfe.TaskFailed,
			message: "the plan JSON is over 4 KiB, the largest plan this service reads (queuecap runtask serve --max-plan-size)",
		},
		{
			name:    "malformed plan JSON",
			plan:    func(hcp *standin.Server) string { return hcp.Plan("cut", readPlan(t, "zero_surplus.json")[:2000]) },
			status:  tfe.TaskFailed,
			message: "cannot lint the plan: the plan JSON is truncated: it ends before its last value does",
		},
		{
			name: "plan the token cannot read",
			plan: func(hcp *standin.Server) string {
				return hcp.URL + "/api/v2/plans/plan-none/json-output?x=1" // the stand-in redirects, then has no such plan
			},
			status: tfe.TaskFailed,
		},
		{
			name: "pre-plan stage", stage: "pre_plan",
			plan:    func(*standin.Server) string { return "" },
			status:  tfe.TaskFailed,
			message: `the request has no plan_json_api_url (stage "pre_plan"): queuecap lints the plan, so attach the run task to the post-plan or pre-apply stage`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hcp := standin.New(t)
			url, _ := serve(t, tc.opts)
			run := hcp.Run("t1", tc.plan(hcp))
			if tc.stage != "" {
				run.Stage = tc.stage
			}
			start := time.Now()
			if code := send(t, url, run, tc.outcomes); code != http.StatusOK {
				t.Fatalf("answered %d, want 200", code)
			}
			got := hcp.Next(t, wait)
			if got.Err != nil {
				t.Fatalf("the stand-in rejected the callback: %v\n%s", got.Err, got.Body)
			}
			o := got.Options
			if got.TaskResultID != "t1" || o.Status != tc.status {
				t.Errorf("callback for %q with status %q, want t1 and %q", got.TaskResultID, o.Status, tc.status)
			}
			switch tc.name {
			case "slow plan URL":
				tc.message = "fetching the plan JSON from " + run.PlanJSONAPIURL + " timed out after 300ms (queuecap runtask serve --plan-timeout)"
				if took := time.Since(start); took > 5*time.Second {
					t.Errorf("took %s to time out after 300ms", took)
				}
			case "plan the token cannot read":
				tc.message = "cannot fetch the plan JSON from " + strings.TrimSuffix(run.PlanJSONAPIURL, "?x=1") + ": it answered 404 Not Found"
			}
			if o.Message != tc.message {
				t.Errorf("message:\n%s\nwant:\n%s", o.Message, tc.message)
			}
			if len(o.Outcomes) != len(tc.want) {
				t.Fatalf("%d outcomes, want %d: %s", len(o.Outcomes), len(tc.want), got.Body)
			}
			for i, w := range tc.want {
				checkOutcome(t, o.Outcomes[i], w)
			}
			sameAsGoTFE(t, hcp, got)
		})
	}
}

func checkOutcome(t *testing.T, got *tfe.TaskResultOutcome, want outcomeWant) {
	t.Helper()
	if got.OutcomeID != want.id || got.Description != want.description {
		t.Errorf("outcome %q %q, want %q %q", got.OutcomeID, got.Description, want.id, want.description)
	}
	if wantURL := "https://github.com/queuecap/terraform-provider-queuecap/blob/main/docs/rules/" + want.rule + ".md"; got.URL != wantURL {
		t.Errorf("url %q, want %q", got.URL, wantURL)
	}
	sev, rule := got.Tags["Severity"], got.Tags["Rule"]
	if len(sev) != 1 || sev[0].Label != want.severity || sev[0].Level != want.level || len(rule) != 1 || rule[0].Label != want.rule {
		t.Errorf("tags %+v %+v, want severity %s (%s) and rule %s", sev, rule, want.severity, want.level, want.rule)
	}
	for _, line := range want.body {
		if !strings.Contains(got.Body, line) {
			t.Errorf("body lacks %q:\n%s", line, got.Body)
		}
	}
}

// TestRejected: what is not a signed run task request gets an error
// status and no callback. One worker takes runs in order, so had any of
// them been queued, its callback would come before the last request's.
func TestRejected(t *testing.T) {
	hcp := standin.New(t)
	url, _ := serve(t, Options{Concurrency: 1})
	plan := hcp.Plan("zero", readPlan(t, "zero_surplus.json"))
	body := standin.Payload(t, hcp.Run("bad", plan), true)
	verification := hcp.Run("verify", plan)
	verification.AccessToken = VerificationToken
	verificationBody := standin.Payload(t, verification, true)
	unsignedToken := hcp.Run("empty-token", plan)
	unsignedToken.AccessToken = ""
	badCallback := hcp.Run("ftp", plan)
	badCallback.TaskResultCallbackURL = "ftp://example.com/callback"
	badCallbackBody := standin.Payload(t, badCallback, true)
	emptyTokenBody := standin.Payload(t, unsignedToken, true)
	large := bytes.Repeat([]byte(" "), maxRequestBytes+1)

	for _, tc := range []struct {
		name      string
		method    string
		body      []byte
		signature string
		code      int
	}{
		{"no signature", http.MethodPost, body, "", http.StatusUnauthorized},
		{"another key's signature", http.MethodPost, body, standin.Sign([]byte("another key"), body), http.StatusUnauthorized},
		{"a signature of another body", http.MethodPost, body, standin.Sign(testKey, verificationBody), http.StatusUnauthorized},
		{"not hex", http.MethodPost, body, "zz" + standin.Sign(testKey, body)[2:], http.StatusUnauthorized},
		{"the verification request", http.MethodPost, verificationBody, standin.Sign(testKey, verificationBody), http.StatusOK},
		{"an empty access token", http.MethodPost, emptyTokenBody, standin.Sign(testKey, emptyTokenBody), http.StatusOK},
		{"the verification request unsigned", http.MethodPost, verificationBody, "", http.StatusUnauthorized},
		{"signed but not JSON", http.MethodPost, []byte("not json"), standin.Sign(testKey, []byte("not json")), http.StatusBadRequest},
		{"a callback URL that is not http", http.MethodPost, badCallbackBody, standin.Sign(testKey, badCallbackBody), http.StatusBadRequest},
		{"a body over 1 MiB", http.MethodPost, large, standin.Sign(testKey, large), http.StatusRequestEntityTooLarge},
		{"GET", http.MethodGet, nil, "", http.StatusMethodNotAllowed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, url+"/run-task", bytes.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			if tc.signature != "" {
				req.Header.Set(SignatureHeader, tc.signature)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_ = resp.Body.Close()
			if resp.StatusCode != tc.code {
				t.Errorf("answered %d, want %d", resp.StatusCode, tc.code)
			}
		})
	}
	resp, err := http.Get(url + "/healthz")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("GET /healthz: %v %v", resp, err)
	}

	if code := send(t, url, hcp.Run("good", plan), true); code != http.StatusOK {
		t.Fatalf("the signed request answered %d", code)
	}
	if got := hcp.Next(t, wait); got.TaskResultID != "good" {
		t.Errorf("first callback for %q, want only the signed request's (good)", got.TaskResultID)
	}
	if n := hcp.Pending(); n != 0 {
		t.Errorf("%d more callbacks", n)
	}
}

// TestOpenSSLSignature signs the request as HCP Terraform's docs do, with
// `openssl dgst -sha512 -hmac KEY`, and the run task accepts it.
func TestOpenSSLSignature(t *testing.T) {
	openssl, err := exec.LookPath("openssl")
	if err != nil {
		t.Skip("openssl is not installed")
	}
	hcp := standin.New(t)
	url, _ := serve(t, Options{})
	body := standin.Payload(t, hcp.Run("ssl", hcp.Plan("zero", readPlan(t, "zero_surplus.json"))), true)
	cmd := exec.Command(openssl, "dgst", "-sha512", "-hmac", string(testKey))
	cmd.Stdin = bytes.NewReader(body)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("openssl: %v", err)
	}
	fields := strings.Fields(string(out)) // "SHA2-512(stdin)= HEX"
	sig := fields[len(fields)-1]
	if sig != standin.Sign(testKey, body) {
		t.Fatalf("openssl signs %s, the stand-in %s", sig, standin.Sign(testKey, body))
	}
	if code, text, err := standin.Send(url, sig, body); err != nil || code != http.StatusOK {
		t.Fatalf("answered %d %s %v", code, text, err)
	}
	if got := hcp.Next(t, wait); got.Options == nil || got.Options.Status != tfe.TaskFailed {
		t.Errorf("callback %+v", got)
	}
}

// TestBoundedConcurrency: at most Concurrency plans are fetched at once,
// the queue holds QueuePerWorker runs per worker, and a request beyond it
// is answered 503, which HCP Terraform retries.
func TestBoundedConcurrency(t *testing.T) {
	hcp := standin.New(t)
	url, _ := serve(t, Options{Concurrency: 2})
	plan := readPlan(t, "zero_surplus.json")
	gate := make(chan struct{})
	var open sync.Once
	t.Cleanup(func() { open.Do(func() { close(gate) }) }) // a failing test does not hang
	var mu sync.Mutex
	inFlight, most := 0, 0
	started := make(chan struct{}, 64)
	planURL := hcp.PlanHandler("gated", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		inFlight++
		most = max(most, inFlight)
		mu.Unlock()
		started <- struct{}{}
		select {
		case <-gate:
		case <-r.Context().Done():
		}
		mu.Lock()
		inFlight--
		mu.Unlock()
		_, _ = w.Write(plan)
	})
	accepted := 2 + 2*QueuePerWorker
	for i := range accepted {
		if code := send(t, url, hcp.Run(fmt.Sprintf("r%d", i), planURL), true); code != http.StatusOK {
			t.Fatalf("request %d answered %d, want 200", i, code)
		}
	}
	for range 2 {
		<-started
	}
	if code := send(t, url, hcp.Run("over", planURL), true); code != http.StatusServiceUnavailable {
		t.Errorf("a request over the queue answered %d, want 503", code)
	}
	open.Do(func() { close(gate) })
	for range accepted {
		if got := hcp.Next(t, wait); got.Err != nil || got.Options.Status != tfe.TaskFailed {
			t.Fatalf("callback %+v", got)
		}
	}
	if most != 2 {
		t.Errorf("%d plans fetched at once, want 2", most)
	}
}

// TestClose: a stopped service reports the runs it did not finish, and
// takes no more.
func TestClose(t *testing.T) {
	hcp := standin.New(t)
	url, svc := serve(t, Options{Concurrency: 1})
	started := make(chan struct{}, 1)
	planURL := hcp.PlanHandler("stuck", func(w http.ResponseWriter, r *http.Request) {
		started <- struct{}{}
		select {
		case <-r.Context().Done():
		case <-time.After(wait):
		}
	})
	for _, id := range []string{"fetching", "queued"} {
		if code := send(t, url, hcp.Run(id, planURL), true); code != http.StatusOK {
			t.Fatalf("answered %d", code)
		}
	}
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	svc.Close(ctx)
	for _, want := range []struct{ id, message string }{
		{"fetching", "the queuecap run task service stopped while it fetched the plan: run the task again"},
		{"queued", "the queuecap run task service stopped before it linted the plan: run the task again"},
	} {
		got := hcp.Next(t, wait)
		if got.TaskResultID != want.id || got.Options.Status != tfe.TaskFailed || got.Options.Message != want.message {
			t.Errorf("callback %s %q %q, want %s failed %q", got.TaskResultID, got.Options.Status, got.Options.Message, want.id, want.message)
		}
	}
	if code := send(t, url, hcp.Run("late", planURL), true); code != http.StatusServiceUnavailable {
		t.Errorf("after Close a request answered %d, want 503", code)
	}
}

// TestDrain: a draining service answers new requests 503 while the run
// it accepted before goes on and reports.
func TestDrain(t *testing.T) {
	hcp := standin.New(t)
	url, svc := serve(t, Options{Concurrency: 1})
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	planURL := hcp.PlanHandler("held", func(w http.ResponseWriter, r *http.Request) {
		started <- struct{}{}
		select {
		case <-release:
			_, _ = w.Write(readPlan(t, "zero_surplus.json"))
		case <-time.After(wait):
		}
	})
	if code := send(t, url, hcp.Run("accepted", planURL), true); code != http.StatusOK {
		t.Fatalf("answered %d", code)
	}
	<-started
	svc.Drain()
	svc.Drain() // twice is once
	if code := send(t, url, hcp.Run("late", planURL), true); code != http.StatusServiceUnavailable {
		t.Errorf("a request while draining answered %d, want 503", code)
	}
	close(release)
	if got := hcp.Next(t, wait); got.TaskResultID != "accepted" || got.Options == nil || got.Options.Status != tfe.TaskFailed {
		t.Errorf("callback %+v, want the accepted run's failed result", got)
	}
}

// TestCallbackRetried: a callback refused with 503 is sent again.
func TestCallbackRetried(t *testing.T) {
	hcp := standin.New(t)
	url, svc := serve(t, Options{})
	svc.retryWait = 10 * time.Millisecond
	hcp.Refuse(2) // the docs promise three attempts
	if code := send(t, url, hcp.Run("retried", hcp.Plan("zero", readPlan(t, "zero_surplus.json"))), true); code != http.StatusOK {
		t.Fatalf("answered %d", code)
	}
	if got := hcp.Next(t, wait); got.TaskResultID != "retried" || got.Options.Status != tfe.TaskFailed {
		t.Errorf("callback %+v", got)
	}
}

func TestNewErrors(t *testing.T) {
	if _, err := New(Options{}); err == nil || !strings.Contains(err.Error(), "no HMAC key") {
		t.Errorf("without a key: %v", err)
	}
	unknown := &lint.Config{Rules: map[string]lint.RuleConfig{"queuecap_no_such_rule": {}}}
	if _, err := New(Options{HMACKey: testKey, Config: unknown}); err == nil || !strings.Contains(err.Error(), "queuecap_no_such_rule") {
		t.Errorf("an unknown rule: %v", err)
	}
}

func TestParseByteSize(t *testing.T) {
	for in, want := range map[string]int64{"1": 1, "64MiB": 64 << 20, "64 MiB": 64 << 20, "2GiB": 2 << 30, "512KiB": 512 << 10} {
		if got, err := ParseByteSize(in); err != nil || got != want {
			t.Errorf("ParseByteSize(%q) = %d, %v; want %d", in, got, err, want)
		}
		if in != "1" {
			if back, _ := ParseByteSize(strings.ReplaceAll(ByteSize(want), " ", "")); back != want {
				t.Errorf("ByteSize(%d) = %q does not read back", want, ByteSize(want))
			}
		}
	}
	for _, in := range []string{"", "0", "-1", "1.5MiB", "64MB", "9999999999GiB", "MiB"} {
		if _, err := ParseByteSize(in); err == nil {
			t.Errorf("ParseByteSize(%q) is no error", in)
		}
	}
}

// TestOutcomeNamesInstances: a finding standing for several instances
// lists them in its outcome.
func TestOutcomeNamesInstances(t *testing.T) {
	is := lint.Issue{Rule: "queuecap_zero_surplus", Severity: lint.Error, Summary: "s", Message: "m",
		Address: "aws_autoscaling_group.w[0]", Instances: []string{"aws_autoscaling_group.w[0]", "aws_autoscaling_group.w[1]"}}
	o := outcome(is, map[string]int{})
	if !strings.HasPrefix(o.Description, "aws_autoscaling_group.w[0]: ") {
		t.Errorf("description %q, want the first instance's address first", o.Description)
	}
	if want := `each of 2 instances: aws\_autoscaling\_group.w\[0\], aws\_autoscaling\_group.w\[1\].`; !strings.Contains(o.Body, want) {
		t.Errorf("body lacks %q:\n%s", want, o.Body)
	}
}
