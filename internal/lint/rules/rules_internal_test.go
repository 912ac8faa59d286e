// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules

import (
	"bytes"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/formatter"
)

// TestFactIsDecimalClean renders a fact computed as 0.1 + 0.2 with the JSON
// formatter: it reads 0.3, as a message states it.
func TestFactIsDecimalClean(t *testing.T) {
	sum := 0.1
	sum += 0.2 // 0.30000000000000004 in float64
	res := &lint.Result{Issues: []lint.Issue{{Rule: "queuecap_zero_surplus", Severity: lint.Error,
		Message: "surplus " + num(sum) + " msg/s", Facts: []lint.Fact{fact("surplus", sum)}}}}
	var b bytes.Buffer
	if err := formatter.Write(&b, "json", res, formatter.Options{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"message":"surplus 0.3 msg/s"`, `"facts":{"surplus":0.3}`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("JSON lacks %s:\n%s", want, b.String())
		}
	}
}
