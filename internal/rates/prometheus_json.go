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

// promSeries is one series of a matrix; its values, [[unix seconds,
// "value"], …], are read by promEachPoint, without a reflected decode and
// a slice a point.
type promSeries struct {
	Metric map[string]string `json:"metric"`
	Values json.RawMessage   `json:"values"`
}

// promEachPoint calls f with each sample of a values array, its time in
// milliseconds: "NaN", "+Inf" and "-Inf" are NaN, which Series takes as
// missing. f's error stops it and is returned as is.
func promEachPoint(raw []byte, f func(ms int64, v float64) error) error {
	rest := bytes.TrimSpace(raw)
	if string(rest) == "null" {
		return nil
	}
	if len(rest) < 2 || rest[0] != '[' || rest[len(rest)-1] != ']' {
		return promMalformed("values are %.40s, not an array", rest)
	}
	rest = bytes.TrimSpace(rest[1 : len(rest)-1])
	for len(rest) > 0 {
		end := bytes.IndexByte(rest, ']')
		if rest[0] != '[' || end < 0 {
			return promMalformed("a sample is %.40s, not [time, \"value\"]", rest)
		}
		ms, v, err := promPoint(rest[1:end])
		if err != nil {
			return err
		}
		if err := f(ms, v); err != nil {
			return err
		}
		// The JSON is valid: a comma or the end follows.
		rest = bytes.TrimSpace(bytes.TrimPrefix(bytes.TrimSpace(rest[end+1:]), []byte(",")))
	}
	return nil
}

// promPoint reads a sample's `time, "value"`.
func promPoint(b []byte) (ms int64, v float64, err error) {
	ts, val, ok := bytes.Cut(b, []byte(","))
	if !ok {
		return 0, 0, promMalformed("a sample is [%.40s], not [time, \"value\"]", b)
	}
	ms, err = promMillis(bytes.TrimSpace(ts))
	if err != nil {
		return 0, 0, err
	}
	val = bytes.TrimSpace(val)
	if len(val) < 2 || val[0] != '"' || val[len(val)-1] != '"' || bytes.IndexByte(val, '\\') >= 0 {
		return 0, 0, promMalformed("a sample's value is %.40s, not a number in a string", val)
	}
	// The string does not escape, so it is not allocated.
	f, err := strconv.ParseFloat(string(val[1:len(val)-1]), 64)
	if err != nil {
		return 0, 0, promMalformed("a sample's value is %s, not a number", val)
	}
	if math.IsInf(f, 0) {
		f = math.NaN()
	}
	return ms, f, nil
}

// promMillis reads a time in seconds as Prometheus writes it (at most
// three decimals) without a string; other numbers go through ParseFloat.
// The JSON is valid: a number is not empty, a "." has digits after it.
func promMillis(b []byte) (int64, error) {
	var ms int64
	decimals := -1
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9' && decimals < 3 && ms < math.MaxInt64/100:
			ms = ms*10 + int64(c-'0')
			if decimals >= 0 {
				decimals++
			}
		case c == '.' && decimals < 0:
			decimals = 0
		default:
			sec, err := strconv.ParseFloat(string(b), 64)
			if err != nil || math.IsNaN(sec) || math.IsInf(sec, 0) {
				return 0, promMalformed("a sample's time is %.40s, not a number of seconds", b)
			}
			return int64(math.Round(sec * 1000)), nil
		}
	}
	for range 3 - max(decimals, 0) {
		ms *= 10
	}
	return ms, nil
}

// promMalformed is an error of a response's shape.
func promMalformed(format string, args ...any) error {
	return fmt.Errorf("malformed response: "+format, args...)
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
