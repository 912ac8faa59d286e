// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package runtask

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"time"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/runner"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
)

// run lints one run's plan and reports the result. Whatever happens
// short of an unreachable callback URL, HCP Terraform hears back: a
// failed result that says why beats a task that errors after ten minutes.
func (s *Service) run(j job) {
	start := time.Now()
	var result *tfe.TaskResultCallbackRequestOptions
	func() {
		defer func() {
			if p := recover(); p != nil {
				result = failed(fmt.Sprintf("internal error in queuecap while linting the plan: %v", p))
			}
		}()
		result = s.lintRun(j)
	}()
	if !j.outcomes {
		result.Outcomes = nil
	}
	log := s.opts.Log.With("run", j.req.RunID, "workspace", j.req.WorkspaceName)
	if err := s.callback(j.req.TaskResultCallbackURL, j.req.AccessToken, result); err != nil {
		log.Error("cannot send the result", "status", result.Status, "error", err)
		return
	}
	log.Info("sent the result", "status", result.Status, "message", result.Message, "outcomes", len(result.Outcomes), "took", time.Since(start).Round(time.Millisecond))
}

// lintRun fetches and lints the plan of j.
func (s *Service) lintRun(j job) *tfe.TaskResultCallbackRequestOptions {
	if s.ctx.Err() != nil {
		return failed("the queuecap run task service stopped before it linted the plan: run the task again")
	}
	if j.req.PlanJSONAPIURL == "" {
		return failed(fmt.Sprintf("the request has no plan_json_api_url (stage %q): queuecap lints the plan, so attach the run task to the post-plan or pre-apply stage", j.req.Stage))
	}
	data, err := s.fetchPlan(j.req.PlanJSONAPIURL, j.req.AccessToken)
	if err != nil {
		return failed(err.Error())
	}
	plan, err := lint.ReadPlan(data)
	if err != nil {
		return failed("cannot lint the plan: " + err.Error())
	}
	res, err := lintPlan(plan, s.opts.Config)
	if err != nil {
		return failed("cannot lint the plan: " + err.Error())
	}
	return report(res, s.opts.FailAt)
}

// lintPlan lints plan as `queuecap lint --plan` does without a
// configuration directory, which a run task does not have: findings carry
// resource addresses. runner.Run wants a directory all the same; an empty
// one of its own per run keeps a long-running service clear of temporary
// file cleaners. A nil plan lints nothing and checks cfg's rule IDs.
func lintPlan(plan *lint.Plan, cfg *lint.Config) (*lint.Result, error) {
	dir, err := os.MkdirTemp("", "queuecap-runtask-")
	if err != nil {
		return nil, err
	}
	defer func() { _ = os.Remove(dir) }()
	return runner.Run(lint.Options{Dirs: []string{dir}, Config: cfg, Rules: rules.All(), Plan: plan})
}

// fetchPlan downloads the plan JSON with the run's token. HCP Terraform
// redirects to a signed URL of its object store; the client drops the
// token when the redirect leaves the host.
func (s *Service) fetchPlan(planURL, token string) ([]byte, error) {
	where := redact(planURL)
	ctx, cancel := context.WithTimeout(s.ctx, s.opts.PlanTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, planURL, nil)
	if err != nil {
		return nil, fmt.Errorf("plan_json_api_url %s is not a URL: %v", where, err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("User-Agent", userAgent())
	resp, err := s.opts.Client.Do(req)
	if err != nil {
		return nil, s.fetchError(ctx, where, err)
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("cannot fetch the plan JSON from %s: it answered %s", where, resp.Status)
	}
	limit := s.opts.MaxPlanBytes
	if resp.ContentLength > limit {
		return nil, tooLarge(limit)
	}
	data, err := lint.ReadAtMost(resp.Body, resp.ContentLength, limit)
	if err != nil {
		return nil, s.fetchError(ctx, where, err)
	}
	if int64(len(data)) > limit {
		return nil, tooLarge(limit)
	}
	return data, nil
}

// fetchError says why a download failed: the timeout, the service
// stopping, or the network's error without the URL, whose query may be a
// signature.
func (s *Service) fetchError(ctx context.Context, where string, err error) error {
	switch {
	case s.ctx.Err() != nil:
		return errors.New("the queuecap run task service stopped while it fetched the plan: run the task again")
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("fetching the plan JSON from %s timed out after %s (queuecap runtask serve --plan-timeout)", where, s.opts.PlanTimeout)
	}
	return fmt.Errorf("cannot fetch the plan JSON from %s: %v", where, withoutURL(err))
}

// withoutURL is a client's error without the URL it names, which the
// message names once, redacted.
func withoutURL(err error) error {
	var uerr *url.Error
	if errors.As(err, &uerr) {
		return uerr.Err
	}
	return err
}

func tooLarge(limit int64) error {
	return fmt.Errorf("the plan JSON is over %s, the largest plan this service reads (queuecap runtask serve --max-plan-size)", ByteSize(limit))
}

// redact is a URL without its query and fragment, for messages.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(an unparsable URL)"
	}
	u.RawQuery, u.Fragment, u.User = "", "", nil
	return u.String()
}

func userAgent() string { return "queuecap/" + model.BuildVersion() }
