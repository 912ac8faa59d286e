// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package runtask

import (
	"crypto/hmac"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"

	tfe "github.com/hashicorp/go-tfe"
)

// SignatureHeader carries the hex HMAC-SHA512 of the request body.
const SignatureHeader = "X-TFC-Task-Signature"

// VerificationToken is the access_token of the request HCP Terraform
// sends to check the URL when a run task is created or changed.
const VerificationToken = "test-token"

// maxRequestBytes caps a run task request, a few kilobytes of JSON.
const maxRequestBytes = 1 << 20

// job is an accepted run task request.
type job struct {
	req tfe.RunTaskRequest
	// outcomes is whether HCP Terraform accepts detailed outcomes.
	outcomes bool
}

// capabilities reads the request's capabilities: go-tfe's
// RunTaskRequest spells the key "capabilitites" and never reads them.
type capabilities struct {
	Capabilities struct {
		Outcomes bool `json:"outcomes"`
	} `json:"capabilities"`
}

// ServeHTTP answers HCP Terraform: 200 once a signed run task request is
// queued (or is the verification request), 401 for a missing or wrong
// signature, 400 for a body that is not a run task request, 413 for one
// over 1 MiB, 503 when the queue is full or the service is stopping. GET
// /healthz answers 200 for load balancers.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet && r.URL.Path == "/healthz" {
		_, _ = io.WriteString(w, "ok\n")
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "run task requests are POSTed", http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRequestBytes))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		http.Error(w, fmt.Sprintf("the request is over %d bytes", maxRequestBytes), http.StatusRequestEntityTooLarge)
		return
	case err != nil:
		http.Error(w, "cannot read the request: "+err.Error(), http.StatusBadRequest)
		return
	}
	if !s.signed(body, r.Header.Get(SignatureHeader)) {
		s.opts.Log.Warn("rejected a request without a valid signature", "remote", r.RemoteAddr, "signed", r.Header.Get(SignatureHeader) != "")
		http.Error(w, "missing or invalid "+SignatureHeader+": the run task and the service need the same HMAC key", http.StatusUnauthorized)
		return
	}
	var j job
	var caps capabilities
	if err := json.Unmarshal(body, &j.req); err != nil {
		http.Error(w, "not a run task request: "+err.Error(), http.StatusBadRequest)
		return
	}
	_ = json.Unmarshal(body, &caps) // the same JSON, decoded just above
	j.outcomes = caps.Capabilities.Outcomes
	if j.req.AccessToken == "" || j.req.AccessToken == VerificationToken {
		s.opts.Log.Info("answered the verification request", "organization", j.req.OrganizationName)
		w.WriteHeader(http.StatusOK)
		return
	}
	if u, err := url.Parse(j.req.TaskResultCallbackURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		http.Error(w, "task_result_callback_url is not an http(s) URL", http.StatusBadRequest)
		return
	}
	if !s.enqueue(j) {
		w.Header().Set("Retry-After", "30")
		http.Error(w, "busy or stopping: try again", http.StatusServiceUnavailable)
		return
	}
	s.opts.Log.Info("accepted a run task request", "run", j.req.RunID, "workspace", j.req.WorkspaceName, "stage", j.req.Stage)
	w.WriteHeader(http.StatusOK)
}

// signed reports whether sig is the hex HMAC-SHA512 of body under the
// service's key, compared in constant time.
func (s *Service) signed(body []byte, sig string) bool {
	got, err := hex.DecodeString(sig)
	if err != nil || len(got) != sha512.Size {
		return false
	}
	mac := hmac.New(sha512.New, s.opts.HMACKey)
	mac.Write(body)
	return hmac.Equal(got, mac.Sum(nil))
}
