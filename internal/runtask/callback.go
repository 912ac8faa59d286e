// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package runtask

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/jsonapi"
)

// callbackAttempts and callbackTimeout bound the PATCH of a result: HCP
// Terraform errors the task after ten minutes without one, so a
// transient failure is worth another try, a rejection is not.
const (
	callbackAttempts = 3
	callbackTimeout  = 30 * time.Second
)

// EncodeResult is the body of the callback: the JSON:API document go-tfe's
// RunTasksIntegration.Callback sends for the same options.
func EncodeResult(result *tfe.TaskResultCallbackRequestOptions) ([]byte, error) {
	var b bytes.Buffer
	if err := jsonapi.MarshalPayloadWithoutIncluded(&b, result); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// callback PATCHes result to the callback URL with the run's token, with
// go-tfe's headers. It runs even after the service was told to stop, so
// that the runs it stops hear so.
func (s *Service) callback(callbackURL, token string, result *tfe.TaskResultCallbackRequestOptions) error {
	body, err := EncodeResult(result)
	if err != nil {
		return err
	}
	ctx := context.WithoutCancel(s.ctx)
	for attempt := 1; ; attempt++ {
		retry, err := s.patch(ctx, callbackURL, token, body)
		if err == nil || !retry || attempt == callbackAttempts {
			return err
		}
		s.opts.Log.Warn("sending the result again", "attempt", attempt+1, "error", err)
		time.Sleep(time.Duration(attempt) * s.retryWait)
	}
}

// patch sends the callback once; retry says whether another try may
// succeed (a network error, a timeout, 429 or a 5xx).
func (s *Service) patch(ctx context.Context, callbackURL, token string, body []byte) (retry bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, callbackTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPatch, callbackURL, bytes.NewReader(body))
	if err != nil {
		return false, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", tfe.ContentTypeJSONAPI)
	req.Header.Set("Accept", tfe.ContentTypeJSONAPI)
	req.Header.Set("User-Agent", userAgent())
	resp, err := s.opts.Client.Do(req)
	if err != nil {
		return true, fmt.Errorf("PATCH %s: %w", redact(callbackURL), withoutURL(err))
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return false, nil
	}
	detail, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	err = fmt.Errorf("PATCH %s answered %s: %s", redact(callbackURL), resp.Status, bytes.TrimSpace(detail))
	return resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500, err
}
