// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"encoding/json"

	"github.com/zclconf/go-cty/cty"
)

// maxReceiveCount is the maxReceiveCount a redrive policy argument sets:
// the receives of a message before SQS moves it to the dead-letter queue.
// It is read from the policy's JSON when that is known, else from the
// object its jsonencode(...) encodes, since the dead-letter queue's ARN,
// unknown before apply, leaves the JSON unknown but not the count. Unset
// when the policy says nothing of it that can be read; set but not known
// when it is there but not known before apply.
func maxReceiveCount(a *arg) Num {
	if a == nil {
		return Num{}
	}
	const key = "maxReceiveCount"
	v, _ := a.value().UnmarkDeep()
	var count cty.Value
	switch {
	case v.IsKnown() && !v.IsNull() && v.Type() == cty.String:
		var doc map[string]any
		if json.Unmarshal([]byte(v.AsString()), &doc) != nil {
			return Num{}
		}
		switch c := doc[key].(type) {
		case float64:
			count = cty.NumberFloatVal(c)
		case string: // SQS takes "5" as well as 5
			count = cty.StringVal(c)
		default:
			return Num{}
		}
	default:
		obj := a.object()
		if obj == cty.NilVal {
			return Num{}
		}
		obj, _ = obj.UnmarkDeep()
		switch ty := obj.Type(); {
		case !obj.IsKnown() || obj.IsNull():
			return Num{}
		case ty.IsObjectType() && ty.HasAttribute(key):
			count = obj.GetAttr(key)
		case ty.IsMapType() && obj.HasIndex(cty.StringVal(key)).True():
			count = obj.Index(cty.StringVal(key))
		default:
			return Num{}
		}
	}
	if count.IsKnown() && count.IsNull() {
		return Num{}
	}
	f, ok := number(count)
	n := Num{V: f, Set: true, Known: ok, Range: a.rng, From: key}
	if !ok {
		n.Why = "is not known before apply"
		if count.IsKnown() {
			n.Why = "is not a number"
		}
	}
	return n
}
