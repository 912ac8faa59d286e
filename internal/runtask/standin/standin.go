// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Package standin plays HCP Terraform's side of a run task in tests, on
// loopback: HCP Terraform cannot be reached from where the tests run. It
// does what the run tasks integration API documents, and checks what the
// run task sends against it:
//
//   - it builds the run task request as HCP Terraform sends it (go-tfe's
//     RunTaskRequest, with the "capabilities" key go-tfe misspells) and
//     signs it: the hex HMAC-SHA512 of the body in X-TFC-Task-Signature;
//   - it serves plan JSON at /api/v2/plans/ID/json-output to the run's
//     token only, answering with a 307 redirect to a signed object-store
//     URL, as HCP Terraform does;
//   - it takes the PATCH to /api/v2/task-results/ID/callback, checks the
//     token and media type, and decodes the body strictly as the API docs
//     describe it (an unknown key, type, status or tag level is an error,
//     answered 422 as HCP Terraform answers an invalid result);
//   - GoTFE sends the decoded result again through go-tfe's own
//     RunTasksIntegration.Callback, so that a test can compare the two
//     requests byte for byte.
package standin

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"
)

// Server is a stand-in HCP Terraform.
type Server struct {
	URL string
	// Token is the access_token of the runs it starts, which its plan and
	// callback endpoints require.
	Token string

	srv     *httptest.Server
	mu      sync.Mutex
	plans   map[string]http.HandlerFunc
	refuse  int // callbacks still to answer 503
	results chan Result
	golden  chan Result
}

// Result is one callback the stand-in received.
type Result struct {
	TaskResultID string
	Header       http.Header
	Body         []byte
	// Options is the body decoded; Err says why it could not be, or what
	// else in the request is not as HCP Terraform takes it.
	Options *tfe.TaskResultCallbackRequestOptions
	Err     error
}

// New starts a stand-in on 127.0.0.1, stopped when the test ends.
func New(tb testing.TB) *Server {
	s := &Server{
		Token:   "standin.atlasv1.run-token",
		plans:   map[string]http.HandlerFunc{},
		results: make(chan Result, 256), // more than any test sends: a callback never waits on a test
		golden:  make(chan Result, 1),
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v2/ping", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("GET /api/v2/plans/{id}/json-output", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+s.Token {
			jsonAPIError(w, http.StatusUnauthorized, "unauthorized")
			return
		}
		http.Redirect(w, r, "/archivist/v1/object/"+r.PathValue("id")+"?signature=c2lnbmVk", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("GET /archivist/v1/object/{id}", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		plan := s.plans[r.PathValue("id")]
		s.mu.Unlock()
		if plan == nil || r.URL.Query().Get("signature") == "" {
			http.NotFound(w, r)
			return
		}
		plan(w, r)
	})
	mux.HandleFunc("PATCH /api/v2/task-results/{id}/callback", func(w http.ResponseWriter, r *http.Request) {
		s.receive(w, r, s.results)
	})
	mux.HandleFunc("PATCH /golden/{id}", func(w http.ResponseWriter, r *http.Request) { s.receive(w, r, s.golden) })
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL
	tb.Cleanup(s.srv.Close)
	return s
}

// Plan serves data as the plan JSON of plan ID and returns its
// plan_json_api_url.
func (s *Server) Plan(id string, data []byte) string {
	return s.PlanHandler(id, func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "plan.json", time.Time{}, bytes.NewReader(data))
	})
}

// PlanHandler serves plan ID's JSON with h, for a slow or endless one.
func (s *Server) PlanHandler(id string, h http.HandlerFunc) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.plans[id] = h
	return s.URL + "/api/v2/plans/" + id + "/json-output"
}

// Run is a post-plan run task request for task result ID.
func (s *Server) Run(id, planURL string) tfe.RunTaskRequest {
	return tfe.RunTaskRequest{
		AccessToken:                s.Token,
		IsSpeculative:              false,
		OrganizationName:           "queuecap",
		PayloadVersion:             1,
		PlanJSONAPIURL:             planURL,
		RunAppURL:                  s.URL + "/app/queuecap/orders/runs/run-" + id,
		RunCreatedAt:               time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		RunCreatedBy:               "tester",
		RunID:                      "run-" + id,
		RunMessage:                 "Triggered via API",
		Stage:                      "post_plan",
		TaskResultCallbackURL:      s.URL + "/api/v2/task-results/" + id + "/callback",
		TaskResultEnforcementLevel: "mandatory",
		TaskResultID:               "taskrs-" + id,
		WorkspaceAppURL:            s.URL + "/app/queuecap/orders",
		WorkspaceID:                "ws-orders",
		WorkspaceName:              "orders",
	}
}

// Payload is the JSON HCP Terraform POSTs for req: go-tfe's encoding with
// its "capabilitites" key spelled as the API spells it.
func Payload(tb testing.TB, req tfe.RunTaskRequest, outcomes bool) []byte {
	tb.Helper()
	raw, err := json.Marshal(req)
	if err != nil {
		tb.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		tb.Fatal(err)
	}
	delete(m, "capabilitites")
	m["capabilities"] = map[string]bool{"outcomes": outcomes}
	out, err := json.Marshal(m)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// Sign is the X-TFC-Task-Signature of body under key.
func Sign(key, body []byte) string {
	mac := hmac.New(sha512.New, key)
	mac.Write(body)
	return hex.EncodeToString(mac.Sum(nil))
}

// Send POSTs body to the run task at url with the headers HCP Terraform
// sends, signed with signature, and returns the status and the body.
func Send(url, signature string, body []byte) (int, string, error) {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "TFC/1.0 (+https://app.terraform.io; TFC)")
	req.Header.Set("X-TFC-Task-Signature", signature)
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer func() { _ = resp.Body.Close() }()
	out, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out), err
}

// Refuse answers the next n callbacks 503 Service Unavailable without
// taking them, as a restarting HCP Terraform might.
func (s *Server) Refuse(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refuse = n
}

// Next waits up to wait for the next callback.
func (s *Server) Next(tb testing.TB, wait time.Duration) Result {
	tb.Helper()
	select {
	case r := <-s.results:
		return r
	case <-time.After(wait):
		tb.Fatalf("no callback within %s", wait)
		return Result{}
	}
}

// Pending is how many callbacks arrived that Next has not returned.
func (s *Server) Pending() int { return len(s.results) }

// GoTFE sends opts to the stand-in through go-tfe's client, as an
// integration written with go-tfe would send its result, and returns what
// arrived.
func (s *Server) GoTFE(tb testing.TB, opts tfe.TaskResultCallbackRequestOptions) Result {
	tb.Helper()
	client, err := tfe.NewClient(&tfe.Config{Address: s.URL, Token: s.Token, HTTPClient: s.srv.Client()})
	if err != nil {
		tb.Fatalf("tfe.NewClient: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := client.RunTasksIntegration.Callback(ctx, s.URL+"/golden/go-tfe", s.Token, opts); err != nil {
		tb.Fatalf("go-tfe Callback: %v", err)
	}
	return <-s.golden
}

// receive takes a callback: it checks the token and media type, decodes
// the body and answers as HCP Terraform does (200, 401 or 422).
func (s *Server) receive(w http.ResponseWriter, r *http.Request, to chan<- Result) {
	s.mu.Lock()
	refuse := s.refuse > 0
	if refuse {
		s.refuse--
	}
	s.mu.Unlock()
	if refuse {
		jsonAPIError(w, http.StatusServiceUnavailable, "try again")
		return
	}
	res := Result{TaskResultID: r.PathValue("id"), Header: r.Header.Clone()}
	res.Body, res.Err = io.ReadAll(r.Body)
	status := http.StatusOK
	switch {
	case res.Err != nil:
		status = http.StatusBadRequest
	case r.Header.Get("Authorization") != "Bearer "+s.Token:
		status, res.Err = http.StatusUnauthorized, errors.New("the callback does not carry the run's access token")
	case r.Header.Get("Content-Type") != tfe.ContentTypeJSONAPI:
		status, res.Err = http.StatusUnsupportedMediaType, fmt.Errorf("Content-Type %q, want %q", r.Header.Get("Content-Type"), tfe.ContentTypeJSONAPI)
	default:
		if res.Options, res.Err = Decode(res.Body); res.Err != nil {
			status = http.StatusUnprocessableEntity
		}
	}
	to <- res
	if status != http.StatusOK {
		jsonAPIError(w, status, res.Err.Error())
		return
	}
	w.WriteHeader(status)
}

// document is a task result as the run tasks integration API documents
// it. go-tfe sends results but never reads them, and its outcome type
// cannot be decoded with jsonapi (the tags are a map), so the stand-in
// reads the documented shape.
type document struct {
	Data struct {
		Type       string `json:"type"`
		Attributes struct {
			Status  tfe.TaskResultStatus `json:"status"`
			Message string               `json:"message"`
			URL     string               `json:"url"`
		} `json:"attributes"`
		Relationships *struct {
			Outcomes struct {
				Data []struct {
					Type       string `json:"type"`
					Attributes struct {
						OutcomeID   string                          `json:"outcome-id"`
						Description string                          `json:"description"`
						Body        string                          `json:"body"`
						URL         string                          `json:"url"`
						Tags        map[string][]*tfe.TaskResultTag `json:"tags"`
					} `json:"attributes"`
				} `json:"data"`
			} `json:"outcomes"`
		} `json:"relationships"`
	} `json:"data"`
}

// Decode reads a callback body into go-tfe's type, strictly.
func Decode(body []byte) (*tfe.TaskResultCallbackRequestOptions, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	var doc document
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("not a task result document: %w", err)
	}
	if dec.More() {
		return nil, errors.New("not a task result document: more after it")
	}
	d := doc.Data
	if d.Type != "task-results" {
		return nil, fmt.Errorf("data.type %q, want task-results", d.Type)
	}
	if !slices.Contains([]tfe.TaskResultStatus{tfe.TaskPassed, tfe.TaskFailed, tfe.TaskRunning}, d.Attributes.Status) {
		return nil, fmt.Errorf("status %q: only passed, failed and running are accepted", d.Attributes.Status)
	}
	opts := &tfe.TaskResultCallbackRequestOptions{Status: d.Attributes.Status, Message: d.Attributes.Message, URL: d.Attributes.URL}
	if d.Relationships == nil {
		return opts, nil
	}
	for i, o := range d.Relationships.Outcomes.Data {
		if o.Type != "task-result-outcomes" {
			return nil, fmt.Errorf("outcome %d: type %q, want task-result-outcomes", i, o.Type)
		}
		for key, tags := range o.Attributes.Tags {
			for _, tag := range tags {
				if tag == nil || !slices.Contains([]string{"", "none", "info", "warning", "error"}, tag.Level) {
					return nil, fmt.Errorf("outcome %d: tag %q: level must be none, info, warning or error", i, key)
				}
			}
		}
		a := o.Attributes
		opts.Outcomes = append(opts.Outcomes, &tfe.TaskResultOutcome{
			OutcomeID: a.OutcomeID, Description: a.Description, Body: a.Body, URL: a.URL, Tags: a.Tags,
		})
	}
	return opts, nil
}

func jsonAPIError(w http.ResponseWriter, status int, detail string) {
	w.Header().Set("Content-Type", tfe.ContentTypeJSONAPI)
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"errors": []map[string]string{{"status": fmt.Sprint(status), "title": http.StatusText(status), "detail": detail}}})
}
