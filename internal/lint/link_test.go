// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import "testing"

func TestLambdaFunctionName(t *testing.T) {
	for in, want := range map[string]string{
		"resize-image":                       "resize-image",
		"resize-image:live":                  "resize-image",
		"123456789012:function:resize-image": "resize-image",
		"arn:aws:lambda:eu-west-1:123456789012:function:resize-image":      "resize-image",
		"arn:aws:lambda:eu-west-1:123456789012:function:resize-image:live": "resize-image",
		"": "",
	} {
		if got := lambdaFunctionName(in); got != want {
			t.Errorf("lambdaFunctionName(%q) = %q, want %q", in, got, want)
		}
	}
}
