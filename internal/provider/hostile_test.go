// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// TestHugeNumbersAreRejectedBriefly runs capacity_plan as Terraform calls
// it, with numbers that were rendered digit by digit in the error (issue
// 28, item 6): the string "1e10000000" made a 10 MB error, "1e100000000"
// kept terraform plan busy past 300 s at 1.25 GB, and 1e308*10 (a number
// Terraform holds, beyond float64) printed 310 digits. Each is an error
// of a few hundred bytes within a second; a string of a million digits
// is refused unread, since reading a decimal costs the square of its
// length.
func TestHugeNumbersAreRejectedBriefly(t *testing.T) {
	fn := newFunction(capacity.FunctionNamed("capacity_plan"))
	big1e309, _ := new(big.Float).SetPrec(512).SetString("1e309")
	cases := map[string]struct {
		value attr.Value
		want  string
	}{
		"string 1e10000000":           {types.StringValue("1e10000000"), "got: 1e+10000000"},
		"string 1e100000000":          {types.StringValue("1e100000000"), "got: 1e+100000000"},
		"number 1e308*10":             {types.NumberValue(big1e309), "got: 1e+309"},
		"a million-digit string":      {types.StringValue("1" + strings.Repeat("0", 1000000)), "must be a number of at most 1000 characters, got a string of 1000001"},
		"a long string, not a number": {types.StringValue(strings.Repeat("ten", 300)), `got the string "` + strings.Repeat("ten", 21) + `t"… (900 bytes)`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			arg := types.ObjectValueMust(map[string]attr.Type{"arrival_rate": c.value.Type(context.Background()), "per_consumer_rate": types.NumberType},
				map[string]attr.Value{"arrival_rate": c.value, "per_consumer_rate": types.NumberValue(big.NewFloat(400))})
			req := function.RunRequest{Arguments: function.NewArgumentsData([]attr.Value{types.DynamicValue(arg)})}
			resp := &function.RunResponse{Result: function.NewResultData(types.ObjectUnknown(fn.resultType.AttrTypes))}
			done := make(chan struct{})
			go func() { defer close(done); fn.Run(context.Background(), req, resp) }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("capacity_plan did not return within 5 s")
			}
			if resp.Error == nil {
				t.Fatal("no error")
			}
			if msg := resp.Error.Error(); len(msg) > 300 || !strings.Contains(msg, c.want) {
				t.Errorf("error of %d bytes %.400q, want one holding %q", len(msg), msg, c.want)
			}
		})
	}
}
