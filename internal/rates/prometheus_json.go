// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rates

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"
)

// promResponse is the Prometheus HTTP API's envelope of a range query.
type promResponse struct {
	Status    string `json:"status"`
	ErrorType string `json:"errorType"`
	Error     string `json:"error"`
	Data      struct {
		ResultType string       `json:"resultType"`
		Result     []promSeries `json:"result"`
	} `json:"data"`
}

// promSeries is one series of a matrix.
type promSeries struct {
	Metric map[string]string `json:"metric"`
	Values []promPoint       `json:"values"`
}

// promPoint is a sample, [unix seconds, "value"]: "NaN", "+Inf" and
// "-Inf" are NaN, which Series takes as missing.
type promPoint struct {
	at time.Time
	v  float64
}

func (p *promPoint) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) < 2 || b[0] != '[' || b[len(b)-1] != ']' {
		return fmt.Errorf("a sample is %.40s, not [time, \"value\"]", b)
	}
	ts, v, ok := bytes.Cut(b[1:len(b)-1], []byte(","))
	if !ok {
		return fmt.Errorf("a sample is %.40s, not [time, \"value\"]", b)
	}
	sec, err := strconv.ParseFloat(string(bytes.TrimSpace(ts)), 64)
	if err != nil || math.IsNaN(sec) || math.IsInf(sec, 0) {
		return fmt.Errorf("a sample's time is %.40s, not a number of seconds", ts)
	}
	v = bytes.TrimSpace(v)
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' || bytes.IndexByte(v, '\\') >= 0 {
		return fmt.Errorf("a sample's value is %.40s, not a number in a string", v)
	}
	text := string(v[1 : len(v)-1])
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return fmt.Errorf("a sample's value is %q, not a number", text)
	}
	if math.IsInf(f, 0) {
		f = math.NaN()
	}
	p.at, p.v = time.UnixMilli(int64(math.Round(sec*1000))), f
	return nil
}

// promUnmarshal decodes a response; an error says where it is malformed.
func promUnmarshal(body []byte, r *promResponse) error {
	if err := json.Unmarshal(body, r); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			return fmt.Errorf("not JSON at byte %d: %w", syntax.Offset, err)
		}
		return err
	}
	return nil
}
